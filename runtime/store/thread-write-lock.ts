import { MAX_TIMER_MS } from '../timers.js';

/**
 * Turns for the SQLite writers of one database among this process's threads (the main thread's connection and each
 * worker thread's). Without it, two writers collide inside SQLite, whose busy handler polls and sleeps on libuv's
 * threadpool: each colliding write then costs more CPU than the same writes taken in turns (bench/records-stored.ts
 * runs two writer threads).
 *
 * Advisory: SQLite's own locking still makes every write correct. So a holder that never releases (a thread
 * terminated in the middle of a write) is overtaken after `staleMs`, instead of blocking every writer for good.
 */
export class ThreadWriteLock {
  private readonly cell: Int32Array;

  /** `buffer` is shared with the other threads (a SharedArrayBuffer crosses to a worker without being copied). */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4), private readonly staleMs = 5_000) {
    this.cell = new Int32Array(buffer, 0, 1);
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      Atomics.store(this.cell, 0, 0);
      Atomics.notify(this.cell, 0, 1);
    }
  }

  private async acquire(): Promise<void> {
    const deadline = Date.now() + this.staleMs;
    while (Atomics.compareExchange(this.cell, 0, 0, 1) !== 0) {
      const left = deadline - Date.now();
      if (left <= 0) {
        Atomics.store(this.cell, 0, 1);
        return;
      }
      const wait = Atomics.waitAsync(this.cell, 0, 1, left);
      if (!wait.async) continue;
      // A pending waitAsync does not keep a thread's event loop alive; this timer does, until the wait settles. It
      // must not fire first: a timer due at `left` could, and the thread would exit before the wait timed out.
      const keepAlive = setTimeout(() => {}, MAX_TIMER_MS);
      try {
        await wait.value;
      } finally {
        clearTimeout(keepAlive);
      }
    }
  }
}
