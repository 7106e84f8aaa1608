// Each way a user could try to reach the host from a function, each with the reason it must end in.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createJsSandbox } from '../../../../sandbox/js/index.js';
import type { JsSandbox } from '../../../../sandbox/js/types.js';
import { callSource, expectFailure, expectValue, rejection } from './expect-result.js';

let sandbox: JsSandbox;
test.before(async () => { sandbox = await createJsSandbox({ timeoutMs: 1000 }); });
test.after(async () => { await sandbox.close(); });

const forbidden: Array<[string, string, string]> = [
  ['process', 'export default () => process.pid', 'process'],
  ['process.env through typeof-guarded code', 'export default () => (typeof process !== "undefined" ? "host" : process.env)', 'process'],
  ['require', 'export default () => require("fs").readFileSync("/etc/passwd", "utf8")', 'require'],
  ['globalThis.constructor.constructor("return process")()', 'export default () => globalThis.constructor.constructor("return process")().pid', 'process'],
  ['the Function constructor of a function', 'export default () => (() => 0).constructor("return require")()("fs")', 'require'],
  ['Function("return this")() then its process', 'export default () => { const g = Function("return this")(); return g.constructor.constructor("return process")(); }', 'process'],
  ['an async function constructor', 'export default async () => { const A = (async () => {}).constructor; return await A("return process")(); }', 'process'],
  ['eval', 'export default () => eval("process.mainModule")', 'process'],
  ['setTimeout', 'export default () => new Promise((resolve) => setTimeout(resolve, 1))', 'setTimeout'],
  ['fetch', 'export default async () => (await fetch("http://127.0.0.1:9/")).status', 'fetch'],
  ['Buffer', 'export default () => Buffer.from("x")', 'Buffer'],
  ['WebAssembly (removed: its memory escapes the limit)', 'export default () => new WebAssembly.Memory({ initial: 1 })', 'WebAssembly'],
  ['a thrown ReferenceError from the module top level', 'const p = process; export default () => p;', ''],
];
for (const [what, src, name] of forbidden) {
  test(`${what}: forbidden`, async () => {
    if (name === '') {
      const err = await rejection(sandbox.load(src));
      assert.is(err.reason, 'forbidden');
      return;
    }
    const error = expectFailure(await callSource(sandbox, src), 'forbidden');
    assert.ok(error.message.startsWith(`${name} is not available`), error.message);
  });
}

test('dynamic import("fs"): forbidden', async () => {
  const error = expectFailure(await callSource(sandbox, 'export default async () => { const fs = await import("fs"); return fs.readFileSync("/etc/passwd", "utf8"); }'), 'forbidden');
  assert.match(error.message, /^import\(\) is not available/);
});

test('static import: load is refused as forbidden, naming the specifier', async () => {
  const err = await rejection(sandbox.load('import { readFileSync } from "node:fs";\nexport default () => readFileSync("/etc/passwd", "utf8");', 'reader.js'));
  assert.is(err.reason, 'forbidden');
  assert.is(err.code, 'VIGIL_ERR_SANDBOX_FORBIDDEN');
  assert.match(err.message, /import of "node:fs"/);
});

test('a relative import is refused the same way', async () => {
  assert.is((await rejection(sandbox.load('import x from "./other.js"; export default () => x;'))).reason, 'forbidden');
});

test('this.constructor in a module function: `this` is undefined, so the attempt throws', async () => {
  const error = expectFailure(await callSource(sandbox, 'export default function () { return this.constructor.constructor("return process")(); }'), 'thrown');
  assert.match(error.message, /^TypeError: Cannot read properties of undefined/);
});

test('Function("return this")() is the function\'s own global: no host objects on it', async () => {
  const src = `export default function () {
    const g = Function('return this')();
    return { hasProcess: 'process' in g, hasRequire: 'require' in g, names: Object.getOwnPropertyNames(g).filter((n) => /^[a-z_]/.test(n)).sort() };
  }`;
  const value = expectValue(await callSource(sandbox, src)) as { hasProcess: boolean; hasRequire: boolean; names: string[] };
  assert.is(value.hasProcess, false);
  assert.is(value.hasRequire, false);
  // Only the language's own functions, and the sandbox's console.
  assert.equal(value.names, ['console', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'eval', 'globalThis', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'undefined', 'unescape']);
});

test('Function("return this")() then reaching for its process: thrown, nothing there', async () => {
  const error = expectFailure(await callSource(sandbox, 'export default () => Function("return this")().process.mainModule.require("fs")'), 'thrown');
  assert.match(error.message, /^TypeError: Cannot read properties of undefined \(reading 'mainModule'\)/);
});

test('Error.prepareStackTrace call sites expose no receivers or functions of the runner', async () => {
  const src = `export default function () {
    let frames = [];
    Error.prepareStackTrace = (err, sites) => { frames = sites.map((s) => [typeof s.getThis(), typeof s.getFunction()]); return 'x'; };
    new Error('probe').stack;
    return frames;
  }`;
  const frames = expectValue(await callSource(sandbox, src)) as string[][];
  assert.ok(frames.length >= 1);
  for (const [self, fn] of frames) {
    assert.is(self, 'undefined');
    assert.is(fn, 'undefined');
  }
});

test('Error.prepareStackTrace used to climb to a Function constructor and then process: forbidden', async () => {
  const src = `export default function () {
    Error.prepareStackTrace = (err, sites) => {
      for (const s of sites) { const f = s.getFunction() ?? s.getThis(); if (f) return f.constructor.constructor('return process')(); }
      return Function('return process')();
    };
    return new Error('probe').stack.pid;
  }`;
  expectFailure(await callSource(sandbox, src), 'forbidden');
});

test('a prepareStackTrace that never returns: timeout, and the sandbox still serves', async () => {
  expectFailure(await callSource(sandbox, 'export default () => { Error.prepareStackTrace = () => { for (;;) {} }; throw new Error("x"); }'), 'timeout');
  assert.is(expectValue(await callSource(sandbox, 'export default () => "still here"')), 'still here');
});

test('a poisoned prepareStackTrace does not leak into the next call', async () => {
  await callSource(sandbox, 'export default () => { Error.prepareStackTrace = () => "poisoned"; return 1; }');
  const error = expectFailure(await callSource(sandbox, 'export default () => { throw new Error("clean"); }'), 'thrown');
  assert.match(error.stack ?? '', /^Error: clean/);
});

test('a then getter that throws, on the result: thrown, not a crash', async () => {
  expectFailure(await callSource(sandbox, 'export default () => ({ get then() { throw new Error("trap"); } })'), 'thrown');
});

// Issue 21 §3: one guest can never reach another call.
test('FinalizationRegistry callbacks that busy-loop after the call returns never run in the next call', async () => {
  const own = await createJsSandbox({ isolatesPerProcess: 1, timeoutMs: 500 });
  try {
    // isolated-vm runs a full collection before it refuses an allocation over the limit: the finalizers come due.
    await callSource(own, `export default () => {
      const registry = new FinalizationRegistry(() => { for (;;) {} });
      for (let i = 0; i < 1000; i++) registry.register({ i }, i);
      try { new ArrayBuffer(2 ** 31); } catch {}
      return 'registered';
    }`);
    const innocent = await own.load('export default (x) => { try { new ArrayBuffer(2 ** 31); } catch {} return x; }');
    for (let i = 0; i < 3; i++) assert.is(expectValue(await innocent.call(i)), i);
    assert.is(own.restarts, 0);
  } finally {
    await own.close();
  }
});

test('Atomics.waitAsync(...).value.then(...) costs no concurrent call on the same process', async () => {
  const own = await createJsSandbox({ isolatesPerProcess: 2, timeoutMs: 1000 });
  try {
    const [waiter, echo] = await Promise.all([
      own.load('export default () => { const ia = new Int32Array(new SharedArrayBuffer(16)); Atomics.waitAsync(ia, 0, 0, 10).value.then(() => { for (;;) {} }); return 1; }'),
      own.load('export default (x) => x'),
    ]);
    const [, beside] = await Promise.all([waiter.call(null), echo.call('beside')]);
    assert.is(expectValue(beside), 'beside');
    assert.is(expectValue(await echo.call('after')), 'after');
    assert.is(own.restarts, 0);
  } finally {
    await own.close();
  }
});

test('a result nested 6,000 deep is invalid_output, not a stack overflow in the host', async () => {
  const r = await callSource(sandbox, 'export default () => { let v = 1; for (let i = 0; i < 6000; i++) v = [v]; return v; }');
  const error = expectFailure(r, 'invalid_output');
  assert.match(error.message, /more than 256 levels deep/);
  assert.not.throws(() => JSON.stringify(r));
});

test('the sandbox process gets none of the parent environment\'s secrets', async () => {
  process.env.VIGIL_TEST_SECRET = 'hunter2';
  const own = await createJsSandbox();
  try {
    const [{ pid }] = await own.stats();
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    assert.not.ok(environ.includes('hunter2'));
  } finally {
    delete process.env.VIGIL_TEST_SECRET;
    await own.close();
  }
});

test.run();
