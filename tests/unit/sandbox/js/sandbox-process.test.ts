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

test('a killed process fails its running call with crash; a new process serves the next', async () => {
  const causes: string[] = [];
  const sandbox = await createJsSandbox({ timeoutMs: 10_000, onRestart: (c) => causes.push(c) });
  try {
    const pid = await onlyPid(sandbox);
    const running = (await sandbox.load(loop)).call(null);
    setTimeout(() => process.kill(pid, 'SIGKILL'), 150);
    const error = expectFailure(await running, 'crash');
    assert.match(error.message, /died \(signal SIGKILL\)/);
    assert.is(sandbox.restarts, 1);
    assert.equal(causes, ['crash']);
    assert.is(expectValue(await (await sandbox.load(echo)).call('after')), 'after');
    assert.is.not(await onlyPid(sandbox), pid);
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

test('a crash costs only the calls of its own process', async () => {
  const sandbox = await createJsSandbox({ processes: 2, isolatesPerProcess: 1, timeoutMs: 1500 });
  try {
    const pids = (await sandbox.stats()).map((s) => s.pid);
    assert.is(pids.length, 2);
    const fn = await sandbox.load(loop);
    const a = fn.call(null);
    const b = fn.call(null);
    setTimeout(() => process.kill(pids[0], 'SIGKILL'), 150);
    const reasons = (await Promise.all([a, b])).map((r) => (r.ok ? 'ok' : r.error.reason)).sort();
    assert.equal(reasons, ['crash', 'timeout']);
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
