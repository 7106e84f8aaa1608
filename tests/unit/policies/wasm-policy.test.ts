import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWasmPolicy, parseWasmDecisions, type WasmPolicy } from '../../../policies/wasm-policy.js';
import { buildPolicyView, type PolicyView } from '../../../policies/wasm-view.js';
import { WasmCallError } from '../../../sandbox/wasm/errors.js';
import { fixture } from '../../support/paths.js';

const view = (path: string, headers: string[] = []): PolicyView => buildPolicyView({
  method: 'GET', path, target: path, requestHeaders: headers, status: 200, labels: {}, matchedRules: [],
});

let echo: WasmPolicy;
let garbage: WasmPolicy;
const failures: string[] = [];

test.before(async () => {
  const onFailure = (reason: string) => { failures.push(reason); };
  echo = await createWasmPolicy({ module: fixture('wasm', 'echo.wasm'), maxBatch: 2, callTimeoutMs: 5000, onFailure });
  garbage = await createWasmPolicy({ module: fixture('wasm', 'garbage.wasm'), callTimeoutMs: 5000, onFailure });
});
test.after(async () => {
  await echo.close();
  await garbage.close();
});

test('one decision per view, in order, across batches; non-ASCII values intact', async () => {
  const views = ['/a', '/b', '/c', '/d', '/e'].map((p, i) => view(p, i === 2 ? ['X-Owner', 'Zoë 東京'] : []));
  const decisions = await echo.decide(views);
  assert.equal(decisions, [
    { labels: { route: 'GET /a → ✓' } },
    { labels: { route: 'GET /b → ✓' } },
    { labels: { route: 'GET /c → ✓', owner: 'Zoë 東京' } },
    { labels: { route: 'GET /d → ✓' } },
    { labels: { route: 'GET /e → ✓' } },
  ]);
  assert.equal(await echo.decide([]), []);
});

test('the SDK reads body fields of both bodies, with paths, values, kinds and raw lengths', async () => {
  const v = buildPolicyView({
    method: 'POST', path: '/f', target: '/f', requestHeaders: [], status: 200, labels: {}, matchedRules: [],
    requestJson: { a: 'ü', n: 42, q: 'say "hi"' }, responseJson: { items: ['x'] },
  });
  const [decision] = await echo.decide([v]);
  assert.is(decision.labels?.fields, 'request:$.a=ü/2 request:$.n=42#/2 request:$.q=say "hi"/10 response:$.items[0]=x/1');
});

test('every kind of garbage output is invalid_output, counted, and the policy keeps serving', async () => {
  const modes: [string, RegExp][] = [
    ['/not-json', /not JSON/],
    ['/wrong-count', /returned 0 decisions for 1 views/],
    ['/unknown-key', /must NOT have additional properties/],
    ['/widen', /allowed values/],
    ['/bad-label', /must be string/],
    ['/bad-path', /must match pattern/],
    ['/not-object', /must be object/],
    ['/invalid-utf8', /not valid UTF-8/],
    ['/no-output', /not JSON/],
  ];
  const before = failures.length;
  for (const [mode, pattern] of modes) {
    const err = await garbage.decide([view(mode)]).then(() => null, (e: unknown) => e);
    assert.instance(err, WasmCallError, mode);
    assert.is((err as WasmCallError).reason, 'invalid_output', mode);
    assert.is((err as WasmCallError).code, 'VIGIL_ERR_WASM_INVALID_OUTPUT');
    assert.match((err as Error).message, pattern, mode);
  }
  assert.equal(failures.slice(before), modes.map(() => 'invalid_output'));
});

test('decideSettled contains a failure to the batch it hit', async () => {
  const loop = await createWasmPolicy({ module: fixture('wasm', 'loop.wasm'), callTimeoutMs: 100 });
  try {
    const settled = await loop.decideSettled([view('/a'), view('/b')]);
    assert.is(settled.length, 2);
    for (const s of settled) {
      assert.instance(s, WasmCallError);
      assert.is((s as WasmCallError).reason, 'timeout');
    }
  } finally {
    await loop.close();
  }
  const mixed = await echo.decideSettled([view('/a'), view('/b'), view('/c')]);
  assert.equal(mixed, [{ labels: { route: 'GET /a → ✓' } }, { labels: { route: 'GET /b → ✓' } }, { labels: { route: 'GET /c → ✓' } }]);
});

test('a trapping policy rejects with reason trap', async () => {
  const trap = await createWasmPolicy({ module: fixture('wasm', 'trap.wasm'), callTimeoutMs: 5000 });
  try {
    const err = await trap.decide([view('/x')]).then(() => null, (e: unknown) => e);
    assert.is((err as WasmCallError).reason, 'trap');
  } finally {
    await trap.close();
  }
});

test('parseWasmDecisions: JSON paths must compile, not just start with $', () => {
  const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
  assert.equal(parseWasmDecisions(bytes({ decisions: [{ redact: { json_fields: ['$.a'] } }] }), 1), [{ redact: { json_fields: ['$.a'] } }]);
  const err = (() => { try { parseWasmDecisions(bytes({ decisions: [{ redact: { json_fields: ['$.**'] } }] }), 1); return null; } catch (e) { return e; } })();
  assert.instance(err, WasmCallError);
  assert.is((err as WasmCallError).reason, 'invalid_output');
  assert.match((err as Error).message, /cannot end with/);
});

test.run();
