// Whatever a call leaves behind in its isolate (finalizers, weak references, Atomics waiters, queued microtasks,
// unhandled rejections, suspended async functions, polluted globals, registered symbols) must neither run during
// nor delay the next call on that isolate. One process with one isolate, so every call lands on the same isolate.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createJsSandbox } from '../../../../sandbox/js/index.js';
import type { JsFunction, JsResult, JsSandbox } from '../../../../sandbox/js/types.js';
import { expectFailure, expectValue } from './expect-result.js';

const timeoutMs = 300;
let sandbox: JsSandbox;
let innocent: JsFunction;

test.before(async () => {
  sandbox = await createJsSandbox({ processes: 1, isolatesPerProcess: 1, timeoutMs });
  // isolated-vm runs a full collection before it refuses an allocation over the limit: whatever waits for a
  // collection (finalizers, weak references) comes due during this call, if it can come due at all.
  innocent = await sandbox.load(`export default (x) => {
    try { new ArrayBuffer(2 ** 31); } catch {}
    return { x, pristine: Object.prototype.polluted === undefined && globalThis.leftover === undefined && typeof JSON.stringify === 'function' };
  }`, 'innocent.js');
});
test.after(async () => { await sandbox.close(); });

/** Loads and calls a guest, whatever becomes of it; a load failure counts as the call's result. */
async function runGuest(source: string): Promise<JsResult | Error> {
  try {
    return await (await sandbox.load(source, 'guest.js')).call(null);
  } catch (err) {
    return err as Error;
  }
}

async function expectUntouched(): Promise<void> {
  // Twice: work posted during the first call (a finalizer task after its collection) would surface in the second.
  for (let i = 0; i < 2; i++) assert.equal(expectValue(await innocent.call(i)), { x: i, pristine: true });
}

const busy = 'for (;;) {}';
const leftovers: Array<[string, string, string?]> = [
  ['FinalizationRegistry callbacks that busy-loop', `export default () => {
    const registry = new FinalizationRegistry(() => { ${busy} });
    for (let i = 0; i < 1000; i++) registry.register({ i }, i);
    return 1;
  }`, 'forbidden'],
  ['FinalizationRegistry reached through a computed name or the Function constructor', `export default () => {
    const F = globalThis['Finalization' + 'Registry'] ?? Reflect.get(globalThis, 'FinalizationRegistry') ?? Function('return FinalizationRegistry')();
    new F(() => { ${busy} }).register({}, 1);
    return 1;
  }`],
  ['a WeakRef whose target is collected later', 'export default () => { globalThis.ref = new WeakRef({ big: new Array(1e5).fill(1) }); return 1; }', 'forbidden'],
  ['Atomics.waitAsync with a timeout, then a busy-loop', `export default () => {
    const ia = new Int32Array(new SharedArrayBuffer(16));
    Atomics.waitAsync(ia, 0, 0, 5).value.then(() => { ${busy} });
    return 1;
  }`, 'forbidden'],
  ['Atomics.waitAsync without a timeout', `export default () => {
    const ia = new Int32Array(new SharedArrayBuffer(16));
    const { async, value } = Atomics.waitAsync(ia, 0, 0);
    return async;
  }`, 'forbidden'],
  ['Atomics.wait on the isolate thread', 'export default () => Atomics.wait(new Int32Array(new SharedArrayBuffer(16)), 0, 0)', 'forbidden'],
  ['a microtask chain that never ends, queued before returning', 'export default () => { (function again() { Promise.resolve().then(again); })(); return 1; }', 'timeout'],
  ['a busy microtask queued after a long chain, in an async function', `export default async () => {
    let p = Promise.resolve();
    for (let i = 0; i < 50; i++) p = p.then(() => {});
    p.then(() => { ${busy} });
    return 1;
  }`, 'timeout'],
  ['microtasks left queued by a call that timed out', `export default () => { Promise.resolve().then(() => { ${busy} }); ${busy} }`, 'timeout'],
  ['an unhandled rejection left by a call that timed out', `export default () => { Promise.reject(new Error('stale')); ${busy} }`, 'timeout'],
  ['an unhandled rejection left by a call that returned', 'export default () => { Promise.reject(new Error("stale")); return 1; }'],
  ['an async function suspended on a promise that never settles', `export default () => { (async () => { await new Promise(() => {}); ${busy} })(); return 1; }`],
  ['a result promise that never settles', 'export default () => new Promise(() => {})', 'timeout'],
  ['a thenable result that queues endless work after resolving', `export default () => ({
    then(resolve) { resolve(1); (function again() { Promise.resolve().then(again); })(); },
  })`, 'timeout'],
  ['a getter on the result that never returns', `export default () => ({ get score() { ${busy} } })`, 'timeout'],
  ['a Proxy result whose traps never return', `export default () => new Proxy({}, { ownKeys() { ${busy} } })`, 'timeout'],
  ['top-level code that queues a busy microtask and throws', `Promise.resolve().then(() => { ${busy} }); throw new Error('top'); export default () => 1;`],
  ['an async generator iterated without end by a for await left running', `export default () => {
    (async () => { for await (const x of (async function* () { for (;;) yield 1; })()) { void x; } })();
    return 1;
  }`, 'timeout'],
  ['an async generator suspended at a yield, with busy work in its finally', `export default () => {
    const g = (async function* () { try { yield 1; } finally { ${busy} } })();
    g.next();
    return 1;
  }`],
  ['a rejected dynamic import whose handler busy-loops', `export default () => { import('fs').then(() => {}, () => { ${busy} }); return 1; }`, 'timeout'],
  ['top-level await that leaves a busy microtask', `await null; Promise.resolve().then(() => { ${busy} }); export default () => 1;`],
  ['queueMicrotask, where it exists, with a busy callback', `export default () => {
    if (typeof queueMicrotask === 'function') queueMicrotask(() => { ${busy} });
    else (function again() { Promise.resolve().then(again); })();
    return 1;
  }`, 'timeout'],
  ['shared memory, weak references and finalizers sought through every global and prototype', `export default () => {
    const names = ['SharedArrayBuffer', 'Atomics', 'WeakRef', 'FinalizationRegistry', 'WebAssembly'];
    const seen = [];
    for (const root of [globalThis, Function('return this')(), Object.getPrototypeOf(globalThis)]) {
      for (const name of names) if (root && Reflect.has(root, name)) seen.push(name);
    }
    const sab = (() => { try { return new ArrayBuffer(8, { maxByteLength: 16 }).constructor; } catch { return null; } })();
    if (sab && sab.name === 'SharedArrayBuffer') seen.push('via ArrayBuffer');
    if (seen.length) throw new Error('reachable: ' + seen.join(', '));
    return 1;
  }`, 'value'],
  ['polluted prototypes and globals', `export default () => {
    Object.prototype.polluted = true;
    globalThis.leftover = 1;
    JSON.stringify = () => { ${busy} };
    Array.prototype.push = () => { ${busy} };
    Promise.prototype.then = () => { ${busy} };
    return 1;
  }`],
];

for (const [what, source, reason] of leftovers) {
  test(`${what}: the next calls on the isolate run untouched`, async () => {
    const restarts = sandbox.restarts;
    const own = await runGuest(source);
    if (reason === 'value') {
      assert.ok(!(own instanceof Error), `the guest did not load: ${(own as Error).message}`);
      assert.is(expectValue(own as JsResult), 1);
    } else if (reason) {
      assert.ok(!(own instanceof Error), `the guest did not load: ${(own as Error).message}`);
      expectFailure(own as JsResult, reason as 'timeout');
    }
    await expectUntouched();
    assert.is(sandbox.restarts, restarts, 'no process was replaced');
  });
}

test('symbols registered with Symbol.for do not pile up in the isolate across calls', async () => {
  const own = await createJsSandbox({ processes: 1, isolatesPerProcess: 1, memoryLimitMb: 16, timeoutMs: 2000 });
  try {
    // About 4 MB of registered symbols per call: over 16 MB within a few calls if they outlived their call.
    const flood = await own.load(`export default (n) => {
      for (let i = 0; i < 50000; i++) Symbol.for('key ' + n + ' ' + i + ' ' + Math.random());
      return Symbol.keyFor(Symbol.for('mine ' + n)) === 'mine ' + n && Symbol.keyFor(Symbol.iterator) === undefined;
    }`);
    for (let n = 0; n < 20; n++) assert.is(expectValue(await flood.call(n)), true);
    assert.is(own.restarts, 0);
  } finally {
    await own.close();
  }
});

test.run();
