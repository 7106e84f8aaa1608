// runtime/store/thread-write-lock.ts: turns among threads, with real worker threads (this file runs itself as one).
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { setImmediate as yieldTurn } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ThreadWriteLock } from '../../../../runtime/store/thread-write-lock.js';

const ROUNDS = 200;

/** Read, yield, write back: without turns, two threads doing this lose updates. */
async function bump(lock: ThreadWriteLock, counter: Int32Array): Promise<void> {
  for (let i = 0; i < ROUNDS; i++) {
    await lock.run(async () => {
      const seen = Atomics.load(counter, 0);
      await yieldTurn();
      Atomics.store(counter, 0, seen + 1);
    });
  }
}

if (!isMainThread) {
  const { lockBuffer, counterBuffer } = workerData as { lockBuffer: SharedArrayBuffer; counterBuffer: SharedArrayBuffer };
  await bump(new ThreadWriteLock(lockBuffer), new Int32Array(counterBuffer));
  parentPort!.postMessage('done');
} else {
  test('threads sharing the lock take turns: no update of a shared counter is lost', async () => {
    const lock = new ThreadWriteLock();
    const counterBuffer = new SharedArrayBuffer(4);
    const counter = new Int32Array(counterBuffer);
    const worker = () => new Promise<void>((resolve, reject) => {
      const w = new Worker(new URL(import.meta.url), { workerData: { lockBuffer: lock.buffer, counterBuffer } });
      w.once('message', () => resolve());
      w.once('error', reject);
    });
    await Promise.all([worker(), worker(), bump(lock, counter)]);
    assert.is(Atomics.load(counter, 0), 3 * ROUNDS);
  });

  test('a holder that never lets go is overtaken after staleMs, so writers are not blocked for good', async () => {
    const buffer = new SharedArrayBuffer(4);
    const stuck = new ThreadWriteLock(buffer, 150);
    const next = new ThreadWriteLock(buffer, 150);
    void stuck.run(() => new Promise(() => {}));
    const t0 = Date.now();
    assert.is(await next.run(async () => 'ran'), 'ran');
    const waited = Date.now() - t0;
    assert.ok(waited >= 140 && waited < 2000, `waited ${waited} ms`);
  });

  test('an error inside releases the lock', async () => {
    const lock = new ThreadWriteLock(new SharedArrayBuffer(4), 10_000);
    await lock.run(async () => { throw new Error('boom'); }).catch(() => {});
    const t0 = Date.now();
    await lock.run(async () => {});
    assert.ok(Date.now() - t0 < 1000);
  });

  test.run();
}
