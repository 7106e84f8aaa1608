/**
 * A FIFO mutex. SQLite has one writer per database and node-sqlite3 interleaves the statements of concurrent
 * callers on one connection, so every write and every transaction passes through here one at a time.
 */
export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** Runs `fn` once every earlier task has settled. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    this.pending++;
    const result = this.tail.then(fn);
    this.tail = result.then(() => { this.pending--; }, () => { this.pending--; });
    return result;
  }

  /** Tasks queued or running. */
  get size(): number {
    return this.pending;
  }

  /** Resolves when every task queued so far has settled. */
  async drain(): Promise<void> {
    await this.tail;
  }
}
