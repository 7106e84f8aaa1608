// custom_function in the real JavaScript sandbox (isolated-vm in a child process), with the runtime's limits:
// 250 ms, 64 MB. Every failure is one failed result, and the next eval is served.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PersistedTrace, Sandboxes } from '@vigil/plugin-sdk';
import { runFunction } from '../../../../plugins/evaluators/custom-function.js';
import type { EvalDefinition } from '../../../../plugins/evaluators/types.js';
import { createJsSandbox } from '../../../../sandbox/js/index.js';
import type { JsSandbox } from '../../../../sandbox/js/types.js';
import { scaledTimeout } from '../../../support/net.js';

const MB = 1024 * 1024;
let sandbox: JsSandbox;
let sandboxes: Sandboxes;

test.before(async () => {
  sandbox = await createJsSandbox({ processes: 1, isolatesPerProcess: 2 });
  sandboxes = { loadFunction: (source, filename) => sandbox.load(source, filename) };
});
test.after(() => sandbox.close());

const trace: PersistedTrace = {
  id: '0190a000-0000-7000-8000-000000000002', created_at: 1, project_id: 'p1', model: 'gpt-4o', status: 'ok', latency_ms: 100, cost_usd: null,
  template: null, version: null,
  trace: { input: [{ role: 'user', content: 'Capital of France?' }], output: { role: 'assistant', content: 'Paris.' }, metadata: { expected: 'Paris' } },
};

const fnDef = (source: string): EvalDefinition => ({
  id: 'fn', project_id: 'p1', name: 'fn', type: 'custom_function', sample_rate: 1, template: null, versions: null, on_missing_output: 'skip',
  settings: { source }, source: 'store', created_at: 0, updated_at: 0,
});
const run = (source: string) => runFunction(sandboxes, fnDef(source), trace);
const GOOD = 'export default (t) => t.output.content.includes(t.metadata.expected) ? 1 : 0';

test('a number is the score; { score, reason } keeps the reason; the trace arrives whole', async () => {
  assert.equal(await run(GOOD), { method: 'custom_function', model: null, tokens_in: 0, tokens_out: 0, usd: 0, status: 'ok', score: 1, reason: null });
  const r = await run('export default (t) => ({ score: 0.25, reason: `${t.input.length} message(s), model ${t.model ?? "?"}` })');
  assert.equal([r.status, r.score, r.reason], ['ok', 0.25, '1 message(s), model ?']);
});

test('a score outside 0..1 is refused, not clamped; a non-number is invalid_output', async () => {
  const high = await run('export default () => 1.5');
  assert.equal([high.status, high.score], ['failed', null]);
  assert.match(high.reason!, /^invalid_output: the score 1\.5 is outside 0\.\.1 \(refused, not clamped\)/);
  assert.match((await run('export default () => "good"')).reason!, /^invalid_output: the function returned "good"/);
  assert.match((await run('export default () => ({ score: NaN })')).reason!, /^invalid_output/);
});

test('an endless loop gives timeout in about 250 ms, and the next eval is fine', async () => {
  const started = Date.now();
  const r = await run('export default () => { for (;;) {} }');
  const took = Date.now() - started;
  assert.is(r.status, 'failed');
  assert.match(r.reason!, /^timeout: /);
  assert.equal(r.details, { kind: 'timeout' });
  assert.ok(took >= 240 && took < scaledTimeout(1000), `timeout after ${took} ms`);
  assert.is((await run(GOOD)).score, 1);
});

test('require, process and fetch are absent', async () => {
  for (const name of ['require("fs")', 'process.env', 'fetch("http://127.0.0.1/")']) {
    const r = await run(`export default () => { ${name}; return 1; }`);
    assert.is(r.status, 'failed', name);
    assert.match(r.reason!, /^forbidden: /, `${name}: ${r.reason}`);
  }
  const r = await run('export default () => [typeof require, typeof process, typeof fetch].every((t) => t === "undefined") ? 1 : 0');
  assert.is(r.score, 1);
});

test('a memory bomb gives memory, the process is replaced, and the next eval is fine', async () => {
  // The runtime's 64 MB, with a wall-clock limit long enough that a starved CPU (CI runs suites side by side) cannot
  // turn the bomb into a timeout before it reaches the memory limit: this checks the memory path, the loop test above
  // the 250 ms one. Filling 32 MB a step takes about 180 ms on an idle machine.
  const memoryRestarts: string[] = [];
  const roomy = await createJsSandbox({ processes: 1, isolatesPerProcess: 1, timeoutMs: 10_000, onRestart: (cause) => memoryRestarts.push(cause) });
  try {
    const inRoomy: Sandboxes = { loadFunction: (source, filename) => roomy.load(source, filename) };
    const r = await runFunction(inRoomy, fnDef('export default () => { const keep = []; for (let i = 0; ; i++) keep.push(new Array(4e6).fill(i)); }'), trace);
    assert.is(r.status, 'failed');
    assert.match(r.reason!, /^memory: /, `reason: ${r.reason}`);
    assert.ok(memoryRestarts.includes('memory'), `restarts: ${memoryRestarts.join(', ')}`);
    assert.is((await runFunction(inRoomy, fnDef(GOOD), trace)).score, 1);
  } finally {
    await roomy.close();
  }
});

test('a throw and a compile error are failed results with their reasons (a broken function is never retried)', async () => {
  const thrown = await run('export default () => { throw new TypeError("no answer") }');
  assert.match(thrown.reason!, /^thrown: TypeError: no answer/);
  const broken = await run('export default (t) => {');
  assert.match(broken.reason!, /^compile: /);
  const noDefault = await run('export const score = 1;');
  assert.match(noDefault.reason!, /^compile: /);
});

test('1,000 evals in a row leak nothing: no restart, isolate handles and heap stay put', async () => {
  const fn = 'export default (t) => { const words = JSON.stringify(t).split(/\\W+/); return { score: words.includes("Paris") ? 1 : 0, reason: words.length + " words" }; }';
  for (let i = 0; i < 50; i++) await run(fn);
  const collect = await sandbox.load('export default () => { try { new ArrayBuffer(2 ** 31); } catch { return "collected"; } return "allocated"; }');
  const stats = async () => {
    // Both isolates collect (each call lands on the less busy one), so both are measured after a collection.
    await Promise.all([collect.call(null), collect.call(null)]);
    return (await sandbox.stats())[0];
  };
  const before = await stats();
  const restartsBefore = sandbox.restarts;
  for (let i = 0; i < 1000; i++) {
    const r = await run(fn);
    if (r.score !== 1) assert.unreachable(`eval ${i}: ${JSON.stringify(r)}`);
  }
  const after = await stats();
  assert.is(sandbox.restarts, restartsBefore, 'no process replaced');
  assert.is(after.pid, before.pid);
  const refs = (s: typeof before) => s.isolates.reduce((n, i) => n + i.references, 0);
  const heap = (s: typeof before) => s.isolates.reduce((n, i) => n + i.usedHeapBytes, 0);
  assert.ok(refs(after) <= refs(before) + 4, `isolated-vm handles ${refs(before)} -> ${refs(after)}`);
  assert.ok(heap(after) - heap(before) < 2 * MB, `isolate heaps grew by ${((heap(after) - heap(before)) / MB).toFixed(2)} MB`);
});

test.run();
