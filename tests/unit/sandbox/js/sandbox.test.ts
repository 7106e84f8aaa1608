import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createJsSandbox } from '../../../../sandbox/js/index.js';
import type { JsSandbox } from '../../../../sandbox/js/types.js';
import { callSource, expectFailure, expectValue, rejection } from './expect-result.js';

let sandbox: JsSandbox;
const failures: string[] = [];

test.before(async () => {
  sandbox = await createJsSandbox({ timeoutMs: 2000, maxOutputBytes: 4096, onFailure: (reason) => failures.push(reason) });
});
test.after(async () => {
  await sandbox.close();
});

test('a sync function returns its result', async () => {
  const r = await callSource(sandbox, 'export default function (input) { return { sum: input.a + input.b, tags: ["x"] }; }', { a: 2, b: 3 });
  assert.equal(expectValue(r), { sum: 5, tags: ['x'] });
  assert.ok(r.durationMs >= 0 && r.durationMs < 2000);
});

test('an async function is awaited', async () => {
  const src = 'export default async (input) => { await null; const v = await Promise.resolve(input.n * 2); return { v }; }';
  assert.equal(expectValue(await callSource(sandbox, src, { n: 21 })), { v: 42 });
});

test('a function that returns a thenable gets it resolved', async () => {
  assert.is(expectValue(await callSource(sandbox, 'export default () => ({ then(resolve) { resolve(7); } })')), 7);
});

test('one loaded function serves many inputs', async () => {
  const fn = await sandbox.load('export default (n) => n * n');
  const results = await Promise.all([1, 2, 3, 4, 5].map((n) => fn.call(n)));
  assert.equal(results.map(expectValue), [1, 4, 9, 16, 25]);
});

test('load caches by content hash', async () => {
  const src = 'export default () => "cached"';
  const a = await sandbox.load(src, 'a.js');
  const b = await sandbox.load(src, 'b.js');
  assert.is(a, b);
  assert.match(a.id, /^sha256:[0-9a-f]{64}$/);
  assert.is.not((await sandbox.load(`${src};`)).id, a.id);
});

test('a throw comes back as thrown, with the message and a stack naming the file', async () => {
  const src = 'export default function (input) {\n  throw new TypeError(`bad input: ${input.x}`);\n}';
  const error = expectFailure(await callSource(sandbox, src, { x: 1 }, 'checker.js'), 'thrown');
  assert.is(error.message, 'TypeError: bad input: 1');
  assert.ok(error.stack?.includes('checker.js:2'), error.stack);
  assert.not.ok(error.stack?.includes('vigil-sandbox:runner'), 'runner frames are hidden');
});

test('a rejected promise comes back as thrown', async () => {
  const error = expectFailure(await callSource(sandbox, 'export default async () => { await null; throw new RangeError("late"); }'), 'thrown');
  assert.is(error.message, 'RangeError: late');
});

test('a thrown non-Error keeps its text', async () => {
  assert.is(expectFailure(await callSource(sandbox, 'export default () => { throw { code: 42 }; }'), 'thrown').message, '{"code":42}');
  assert.is(expectFailure(await callSource(sandbox, 'export default () => { throw "plain"; }'), 'thrown').message, 'plain');
});

test('the input is a copy: mutating it changes neither the caller nor the next call', async () => {
  const fn = await sandbox.load('export default (input) => { input.items.push("added"); return input.items.length; }');
  const input = { items: ['a'] };
  assert.is(expectValue(await fn.call(input)), 2);
  assert.is(expectValue(await fn.call(input)), 2);
  assert.equal(input, { items: ['a'] });
});

test('globals set by one call are gone in the next (a fresh context per call)', async () => {
  const fn = await sandbox.load('let calls = 0; export default () => { calls++; globalThis.seen = (globalThis.seen ?? 0) + 1; return [calls, globalThis.seen]; }');
  assert.equal(expectValue(await fn.call(null)), [1, 1]);
  assert.equal(expectValue(await fn.call(null)), [1, 1]);
});

test('patching built-ins in one call does not reach the next', async () => {
  const patch = await sandbox.load('export default () => { JSON.stringify = () => "{}"; Array.prototype.map = null; return 1; }');
  assert.is(expectValue(await patch.call(null)), 1);
  assert.equal(expectValue(await callSource(sandbox, 'export default () => [1, 2].map((n) => n + 1)')), [2, 3]);
});

test('an undefined input reaches the function as undefined', async () => {
  assert.is(expectValue(await callSource(sandbox, 'export default (input) => typeof input')), 'undefined');
});

test('console lines come back with the result, bounded', async () => {
  const r = await callSource(sandbox, 'export default () => { console.log("a", { b: 1 }); console.warn("w"); for (let i = 0; i < 500; i++) console.log(i); return 1; }');
  assert.is(expectValue(r), 1);
  assert.is(r.logs?.[0], 'a {"b":1}');
  assert.is(r.logs?.[1], 'warn: w');
  assert.ok(r.logs!.length <= 201, `${r.logs!.length} lines`);
  assert.match(r.logs![r.logs!.length - 1], /more log lines dropped/);
});

test('JSON rules apply to results: NaN is null, dates are strings, undefined properties drop', async () => {
  const r = await callSource(sandbox, 'export default () => ({ n: NaN, d: new Date(0), u: undefined, s: "é✓😀" })');
  assert.equal(expectValue(r), { n: null, d: '1970-01-01T00:00:00.000Z', s: 'é✓😀' });
});

const notJson: Array<[string, string, RegExp]> = [
  ['undefined', 'export default () => undefined', /returned undefined/],
  ['a function at the top', 'export default () => () => 1', /holds a function/],
  ['a nested function', 'export default () => ({ ok: 1, f() {} })', /function at key "f"/],
  ['a symbol', 'export default () => ({ s: Symbol("x") })', /symbol at key "s"/],
  ['a cycle', 'export default () => { const a = {}; a.self = a; return a; }', /circular/],
  ['a BigInt', 'export default () => ({ big: 10n })', /BigInt/],
  ['a throwing toJSON', 'export default () => ({ toJSON() { throw new Error("nope"); } })', /nope/],
  // Deeper than the host can carry: its own JSON.stringify (or any recursive consumer) would overflow its stack.
  ['arrays nested 1,000 deep', 'export default () => { let v = 1; for (let i = 0; i < 1000; i++) v = [v]; return v; }', /more than 256 levels deep/],
  ['objects nested 300 deep', 'export default () => { let v = {}; for (let i = 0; i < 300; i++) v = { v }; return v; }', /more than 256 levels deep/],
  ['depth that toJSON adds while copying', 'export default () => { const d = (n) => ({ toJSON: () => (n ? [d(n - 1)] : 0) }); return { d: d(1000) }; }', /more than 256 levels deep/],
  ['depth a Proxy reports while copying', 'export default () => { const p = (n) => new Proxy({}, { ownKeys: () => ["k"], getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }), get: () => (n ? p(n - 1) : 0) }); return p(400); }', /more than 256 levels deep/],
];
for (const [what, src, message] of notJson) {
  test(`a result with ${what} is invalid_output`, async () => {
    assert.match(expectFailure(await callSource(sandbox, src), 'invalid_output').message, message);
  });
}

test('depth is counted in arrays and objects, not in brackets inside strings: 256 levels pass, 257 do not', async () => {
  const nest = (n: number) => `export default (inner) => { let v = inner; for (let i = 0; i < ${n}; i++) v = i % 2 ? { k: v } : [v]; return v; }`;
  const tricky = '"\\\\[[[{{{\\""';
  assert.ok(expectValue(await callSource(sandbox, nest(256), tricky)));
  expectFailure(await callSource(sandbox, nest(257), tricky), 'invalid_output');
  assert.is(expectValue(await callSource(sandbox, 'export default () => "[".repeat(3000)')), '['.repeat(3000));
});

test('a result over maxOutputBytes is invalid_output, counted in UTF-8 bytes', async () => {
  // 1,500 three-byte characters: 1,502 characters of JSON but 4,502 bytes, over the 4,096 limit.
  const error = expectFailure(await callSource(sandbox, 'export default () => "✓".repeat(1500)'), 'invalid_output');
  assert.match(error.message, /4502 bytes/);
  assert.match(expectFailure(await callSource(sandbox, 'export default () => "x".repeat(5000)'), 'invalid_output').message, /over the limit of 4096/);
  assert.is((expectValue(await callSource(sandbox, 'export default () => "x".repeat(4000)')) as string).length, 4000);
});

test('an input that is not JSON rejects the call with VIGIL_ERR_SANDBOX_INPUT', async () => {
  const fn = await sandbox.load('export default (x) => x');
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  for (const input of [10n, cyclic, () => 1]) {
    const err = await rejection(fn.call(input));
    assert.is(err.code, 'VIGIL_ERR_SANDBOX_INPUT');
  }
});

const unloadable: Array<[string, string, string, RegExp]> = [
  ['a syntax error', 'export default function ( {', 'compile', /SyntaxError.*bad\.js:1/],
  ['no default export', 'export const score = () => 1;', 'compile', /default/],
  ['a default export that is not a function', 'export default 42;', 'compile', /found number/],
  ['a top-level await that never settles', 'await new Promise(() => {}); export default () => 1;', 'compile', /top-level await/],
  ['top-level code that throws', 'throw new Error("at load"); export default () => 1;', 'thrown', /at load/],
  ['a static import', 'import fs from "node:fs"; export default () => fs;', 'forbidden', /import of "node:fs"/],
];
for (const [what, src, reason, message] of unloadable) {
  test(`load rejects ${what} with reason ${reason}`, async () => {
    const err = await rejection(sandbox.load(src, 'bad.js'));
    assert.is(err.reason, reason);
    assert.is(err.code, `VIGIL_ERR_SANDBOX_${reason.toUpperCase()}`);
    assert.match(err.message, message);
    assert.ok(err.message.startsWith('bad.js: '), err.message);
  });
}

test('a fixed file loads after its broken version failed', async () => {
  await rejection(sandbox.load('export default (', 'fix.js'));
  assert.is(expectValue(await (await sandbox.load('export default () => "fixed"', 'fix.js')).call(null)), 'fixed');
});

test('onFailure hears each failed call with its reason', async () => {
  failures.length = 0;
  await callSource(sandbox, 'export default () => { throw new Error("x"); }');
  await callSource(sandbox, 'export default () => undefined');
  assert.equal(failures, ['thrown', 'invalid_output']);
});

test('after close, load and call reject with VIGIL_ERR_SANDBOX_CLOSED, and close is idempotent', async () => {
  const own = await createJsSandbox();
  const fn = await own.load('export default () => 1');
  await own.close();
  await own.close();
  assert.is((await rejection(fn.call(null))).code, 'VIGIL_ERR_SANDBOX_CLOSED');
  assert.is((await rejection(own.load('export default () => 2'))).code, 'VIGIL_ERR_SANDBOX_CLOSED');
  assert.equal(await own.stats(), []);
});

test.run();
