// clients/node/src/safe-json.ts: whatever the application hands over becomes plain JSON data, and nothing throws.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toSafeJson, DEFAULT_LIMITS } from '../../../clients/node/src/safe-json.js';

test('plain JSON data comes back equal, as a copy', () => {
  const value = { a: [1, 'two', { three: true, four: null }], b: 'é😀' };
  const copy = toSafeJson(value);
  assert.equal(copy, value);
  assert.is.not(copy, value);
});

test('cycles become a marker; a subtree shared twice (not a cycle) is copied twice', () => {
  const a: any = { name: 'a' };
  a.self = a;
  a.list = [a];
  const shared = { x: 1 };
  assert.equal(toSafeJson(a), { name: 'a', self: '[circular]', list: ['[circular]'] });
  assert.equal(toSafeJson({ l: shared, r: shared }), { l: { x: 1 }, r: { x: 1 } });
});

test('BigInt, non-finite numbers, undefined, functions and symbols map as JSON would, without throwing', () => {
  assert.equal(toSafeJson({ n: 12345678901234567890n, inf: Infinity, nan: NaN, u: undefined, f() { return 1; }, s: Symbol('x') }),
    { n: '12345678901234567890', inf: null, nan: null });
  assert.equal(toSafeJson([undefined, () => 1]), [null, null]);
  assert.is(toSafeJson(undefined), undefined);
});

test('throwing getters, throwing toJSON and hostile proxies become markers', () => {
  const getter = { ok: 1, get bad() { throw new Error('no'); } };
  assert.equal(toSafeJson(getter), { ok: 1, bad: '[unreadable]' });
  assert.is(toSafeJson({ toJSON() { throw new Error('no'); } }), '[unreadable]');
  const proxy = new Proxy({}, { ownKeys() { throw new Error('no'); } });
  assert.equal(toSafeJson({ p: proxy }), { p: '[unreadable]' });
});

test('dates, errors, maps, sets and binary data are made readable', () => {
  const out = toSafeJson({
    d: new Date(Date.UTC(2026, 0, 2)), bad: new Date(NaN), e: new TypeError('boom'),
    m: new Map([['k', 1]]), s: new Set([1, 2]), f: new Float32Array(4), b: Buffer.from('abc'), ab: new ArrayBuffer(8),
  });
  assert.equal(out, {
    d: '2026-01-02T00:00:00.000Z', bad: null, e: { name: 'TypeError', message: 'boom' },
    m: { k: 1 }, s: [1, 2], f: '[Float32Array 16 bytes]', b: '[Buffer 3 bytes]', ab: '[ArrayBuffer 8 bytes]',
  });
});

test('long strings are cut with a marker that says how much, never inside a surrogate pair', () => {
  const limits = { ...DEFAULT_LIMITS, maxString: 5 };
  assert.is(toSafeJson('abcdefghij', limits), 'abcde…[truncated 5 chars]');
  assert.is(toSafeJson('abcd😀xyz', limits), 'abcd…[truncated 5 chars]');
  assert.is(toSafeJson('abcde', limits), 'abcde');
});

test('depth and the number of values are bounded', () => {
  let deep: any = 'bottom';
  for (let i = 0; i < 100; i++) deep = { d: deep };
  const text = JSON.stringify(toSafeJson(deep));
  assert.match(text, /\[truncated: deeper than 32 levels\]/);
  assert.not.match(text, /bottom/);
  // A DAG that doubles at every level: 2^40 paths, copied in bounded work.
  let dag: any = { leaf: 1 };
  for (let i = 0; i < 40; i++) dag = { l: dag, r: dag };
  const t0 = Date.now();
  assert.match(JSON.stringify(toSafeJson(dag)), /too many values/);
  assert.ok(Date.now() - t0 < 2000);
});

test.run();
