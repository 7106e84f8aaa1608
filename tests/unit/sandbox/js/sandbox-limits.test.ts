// Exhaustion: time, memory and stack. Each must end in its reason and leave the sandbox serving.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createJsSandbox } from '../../../../sandbox/js/index.js';
import type { JsSandbox } from '../../../../sandbox/js/types.js';
import { callSource, expectFailure, expectValue, rejection } from './expect-result.js';

let sandbox: JsSandbox;
const restarts: string[] = [];
test.before(async () => {
  // Memory tests need the memory limit to be reached before the time limit.
  sandbox = await createJsSandbox({ timeoutMs: 5000, memoryLimitMb: 16, onRestart: (cause) => restarts.push(cause) });
});
test.after(async () => { await sandbox.close(); });

const echo = async (value: unknown): Promise<unknown> => expectValue(await callSource(sandbox, 'export default (x) => x', value));

test('an infinite loop: timeout, and the next call is served', async () => {
  const fast = await createJsSandbox({ timeoutMs: 100 });
  try {
    const error = expectFailure(await callSource(fast, 'export default () => { for (;;) {} }'), 'timeout');
    assert.match(error.message, /100 ms/);
    assert.is(expectValue(await callSource(fast, 'export default (x) => x + 1', 1)), 2);
    assert.is(fast.restarts, 0);
  } finally {
    await fast.close();
  }
});

test('an infinite async loop: timeout', async () => {
  const fast = await createJsSandbox({ timeoutMs: 100 });
  try {
    expectFailure(await callSource(fast, 'export default async () => { for (;;) { await null; } }'), 'timeout');
    assert.is(expectValue(await callSource(fast, 'export default () => "next"')), 'next');
  } finally {
    await fast.close();
  }
});

test('a promise that never settles: timeout by the host bound, and the next call is served', async () => {
  const fast = await createJsSandbox({ timeoutMs: 100 });
  try {
    const error = expectFailure(await callSource(fast, 'export default () => new Promise(() => {})'), 'timeout');
    assert.match(error.message, /100 ms/);
    assert.is(expectValue(await callSource(fast, 'export default () => "next"')), 'next');
    assert.is(fast.restarts, 0, 'the child handles it without being replaced');
  } finally {
    await fast.close();
  }
});

test('an infinite loop in top-level code: load fails with timeout', async () => {
  const fast = await createJsSandbox({ timeoutMs: 100 });
  try {
    assert.is((await rejection(fast.load('for (;;) {}\nexport default () => 1;'))).reason, 'timeout');
  } finally {
    await fast.close();
  }
});

test('an array grown without bound: memory, the process is replaced, the next call is served', async () => {
  const before = sandbox.restarts;
  const src = 'export default () => { const keep = []; for (;;) keep.push(new Array(1e5).fill(0).map((_, i) => ({ i }))); }';
  const error = expectFailure(await callSource(sandbox, src), 'memory');
  assert.match(error.message, /memory limit of 16 MB|ran out of memory/);
  assert.equal(await echo({ after: 'memory' }), { after: 'memory' });
  assert.is(sandbox.restarts, before + 1);
  assert.is(restarts[restarts.length - 1], 'memory');
});

test('strings grown without bound inside an async function: memory', async () => {
  const before = sandbox.restarts;
  expectFailure(await callSource(sandbox, 'export default async () => { const keep = []; for (let i = 0; ; i++) { await null; keep.push("x".repeat(1e5) + i); } }'), 'memory');
  assert.is(await echo(3), 3);
  assert.is(sandbox.restarts, before + 1);
});

test('ArrayBuffers over the limit: memory, without replacing the process', async () => {
  const before = sandbox.restarts;
  expectFailure(await callSource(sandbox, 'export default () => { const keep = []; for (;;) keep.push(new Uint8Array(4e6)); }'), 'memory');
  assert.is(await echo('ok'), 'ok');
  assert.is(sandbox.restarts, before);
});

test('deep recursion: a thrown RangeError, not a crash', async () => {
  const before = sandbox.restarts;
  const error = expectFailure(await callSource(sandbox, 'export default () => { const f = (n) => f(n + 1) + 1; return f(0); }'), 'thrown');
  assert.is(error.message, 'RangeError: Maximum call stack size exceeded');
  assert.is(sandbox.restarts, before);
  assert.is(await echo(1), 1);
});

test('a huge result: invalid_output at the default limit of 1 MiB', async () => {
  const error = expectFailure(await callSource(sandbox, 'export default () => Array.from({ length: 200000 }, (_, i) => "item " + i)'), 'invalid_output');
  assert.match(error.message, /over the limit of 1048576 bytes/);
});

test('a huge input is copied in and used', async () => {
  const input = { rows: Array.from({ length: 20000 }, (_, i) => ({ i, s: `row ${i}` })) };
  assert.is(expectValue(await callSource(sandbox, 'export default (x) => x.rows.length', input)), 20000);
});

test.run();
