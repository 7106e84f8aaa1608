// The parent's side: processes that die or stop answering are replaced, and only their own calls fail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createJsSandbox } from '../../../../sandbox/js/index.js';
import { expectFailure, expectValue, rejection } from './expect-result.js';

const loop = 'export default () => { for (;;) {} }';
const echo = 'export default (x) => x';

async function onlyPid(sandbox: Awaited<ReturnType<typeof createJsSandbox>>): Promise<number> {
  const stats = await sandbox.stats();
  assert.is(stats.length, 1);
  return stats[0].pid;
}

test('calls in flight on a process that dies are retried once on a fresh process, and counted', async () => {
  const restarts: string[] = [];
  const retries: string[] = [];
  const sandbox = await createJsSandbox({ isolatesPerProcess: 2, onRestart: (c) => restarts.push(c), onRetry: (c) => retries.push(c) });
  try {
    const fn = await sandbox.load(echo);
    const pid = await onlyPid(sandbox);
    // Stopped before the calls are sent, so neither can be answered before the kill, however fast echo is.
    process.kill(pid, 'SIGSTOP');
    const calls = [fn.call('a'), fn.call('b')];
    await new Promise((r) => setTimeout(r, 20));
    process.kill(pid, 'SIGKILL');
    assert.equal((await Promise.all(calls)).map(expectValue), ['a', 'b']);
    assert.equal(restarts, ['crash']);
    assert.equal(retries, ['crash', 'crash']);
    assert.is(sandbox.retries, 2);
    assert.is.not(await onlyPid(sandbox), pid);
  } finally {
    await sandbox.close();
  }
});

test('a call whose process dies twice fails with crash; the call that shared its first process does not', async () => {
  const retries: string[] = [];
  const sandbox = await createJsSandbox({ isolatesPerProcess: 2, timeoutMs: 10_000, onRetry: (c) => retries.push(c) });
  try {
    // Never settles, yet leaves its isolate idle, so the process answers stats() while the call is running.
    const [hanging, quick] = await Promise.all([sandbox.load('export default () => new Promise(() => {})'), sandbox.load(echo)]);
    const first = await onlyPid(sandbox);
    // Stopped before the calls are sent, so both are in flight when it dies.
    process.kill(first, 'SIGSTOP');
    const culprit = hanging.call(null);
    const beside = quick.call('beside');
    await new Promise((r) => setTimeout(r, 20));
    process.kill(first, 'SIGKILL');
    // The retried culprit runs alone on the replacement, so killing that process again costs no other call.
    let second = first;
    while (second === first) {
      await new Promise((r) => setTimeout(r, 5));
      second = (await sandbox.stats())[0]?.pid ?? first;
    }
    process.kill(second, 'SIGKILL');
    const error = expectFailure(await culprit, 'crash');
    assert.match(error.message, /retried once/);
    assert.is(expectValue(await beside), 'beside');
    assert.equal(retries, ['crash', 'crash']);
    assert.is(sandbox.restarts, 2);
  } finally {
    await sandbox.close();
  }
});

test('a process that stops answering is killed after timeout + grace: the call times out, the next is served', async () => {
  const causes: string[] = [];
  const sandbox = await createJsSandbox({ timeoutMs: 200, graceMs: 100, onRestart: (c) => causes.push(c) });
  try {
    const fn = await sandbox.load(echo);
    const pid = await onlyPid(sandbox);
    // A stopped process stands for one stuck where its isolates cannot interrupt it.
    process.kill(pid, 'SIGSTOP');
    const error = expectFailure(await fn.call(1), 'timeout');
    assert.match(error.message, /stopped answering/);
    assert.is(expectValue(await fn.call(2)), 2);
    assert.equal(causes, ['overrun']);
    assert.is(sandbox.restarts, 1);
    assert.is.not(await onlyPid(sandbox), pid);
  } finally {
    await sandbox.close();
  }
});

test('calls stuck behind the one that stopped answering are retried, not timed out with it', async () => {
  const sandbox = await createJsSandbox({ isolatesPerProcess: 2, timeoutMs: 200, graceMs: 100 });
  try {
    const fn = await sandbox.load(echo);
    process.kill(await onlyPid(sandbox), 'SIGSTOP');
    const results = await Promise.all([fn.call('a'), fn.call('b')]);
    // Sent together, their host bounds fire together: the first one blames its call, the other call is retried.
    expectFailure(results[0], 'timeout');
    assert.is(expectValue(results[1]), 'b');
    assert.is(sandbox.retries, 1);
    assert.is(sandbox.restarts, 1);
  } finally {
    await sandbox.close();
  }
});

test('a crash costs only the calls of its own process, and those are retried', async () => {
  const sandbox = await createJsSandbox({ processes: 2, isolatesPerProcess: 1 });
  try {
    const pids = (await sandbox.stats()).map((s) => s.pid);
    assert.is(pids.length, 2);
    const fn = await sandbox.load(echo);
    // Stopped first, so the call sent to it is still in flight when it dies, however fast echo would have been.
    process.kill(pids[0], 'SIGSTOP');
    const a = fn.call('a');
    const b = fn.call('b');
    await new Promise((r) => setTimeout(r, 20));
    process.kill(pids[0], 'SIGKILL');
    assert.equal((await Promise.all([a, b])).map(expectValue), ['a', 'b']);
    assert.is(sandbox.retries, 1);
    assert.is(sandbox.restarts, 1);
  } finally {
    await sandbox.close();
  }
});

test('calls beyond the free isolates wait their turn; loops time out side by side', async () => {
  const sandbox = await createJsSandbox({ processes: 2, isolatesPerProcess: 2, timeoutMs: 300 });
  try {
    const [looping, quick] = await Promise.all([sandbox.load(loop), sandbox.load(echo)]);
    const loops = Array.from({ length: 4 }, () => looping.call(null));
    const quicks = Array.from({ length: 8 }, (_, i) => quick.call(i));
    for (const r of await Promise.all(loops)) expectFailure(r, 'timeout');
    assert.equal((await Promise.all(quicks)).map(expectValue), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert.is(sandbox.restarts, 0);
    assert.is((await sandbox.stats()).reduce((n, s) => n + s.calls, 0) >= 12, true);
  } finally {
    await sandbox.close();
  }
});

test('calls past maxQueue are refused with VIGIL_ERR_SANDBOX_BUSY, and the queue drains', async () => {
  const sandbox = await createJsSandbox({ isolatesPerProcess: 1, timeoutMs: 200, maxQueue: 2 });
  try {
    const fn = await sandbox.load(loop);
    const running = fn.call(null);
    const waiting = [fn.call(null), fn.call(null)];
    const err = await rejection(fn.call(null));
    assert.is(err.code, 'VIGIL_ERR_SANDBOX_BUSY');
    for (const r of await Promise.all([running, ...waiting])) expectFailure(r, 'timeout');
    expectFailure(await fn.call(null), 'timeout');
  } finally {
    await sandbox.close();
  }
});

test('close ends running calls with crash and leaves no process behind', async () => {
  const sandbox = await createJsSandbox({ timeoutMs: 10_000 });
  const pid = await onlyPid(sandbox);
  const running = (await sandbox.load(loop)).call(null);
  await new Promise((r) => setTimeout(r, 50));
  await sandbox.close();
  const error = expectFailure(await running, 'crash');
  assert.match(error.message, /closed/);
  assert.throws(() => process.kill(pid, 0), /ESRCH/);
});

test.run();
