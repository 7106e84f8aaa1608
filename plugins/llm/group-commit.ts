import type { JobQueue } from '@vigil/plugin-sdk';
import type { PersistPayload, QueuedItem } from './ingest-pipeline.js';
import type { UsageBook } from './usage-book.js';

/** Items per persist job at most: a job's payload stays a few MB, and one batch's transaction stays short. */
export const MAX_ITEMS_PER_JOB = 2_000;

interface Pending {
  items: QueuedItem[];
  accepted: number;
  costUsd: number;
  sampledOut: number;
  waiters: { resolve(): void; reject(err: unknown): void }[];
}

/**
 * Group commit for ingest: batches that arrive while the previous write is in flight are written together, one persist
 * job and one usage update per project, and each request is answered once the write holding its items has committed.
 * A lone request is written at once; under load, a write carries every request that came meanwhile. On SQLite, whose
 * writes take turns, this is what keeps ingest from queueing behind the persist stage write by write.
 */
export class GroupCommit {
  private pending = new Map<string, Pending>();
  private writing: Promise<void> | null = null;

  constructor(private readonly queue: JobQueue<PersistPayload>, private readonly usage: UsageBook) {}

  /** Resolves once `items` are durable in the persist queue and the batch is counted in the project's month. */
  add(projectId: string, items: QueuedItem[], accepted: number, costUsd: number, sampledOut: number): Promise<void> {
    return new Promise((resolve, reject) => {
      let p = this.pending.get(projectId);
      if (!p) {
        p = { items: [], accepted: 0, costUsd: 0, sampledOut: 0, waiters: [] };
        this.pending.set(projectId, p);
      }
      for (const item of items) p.items.push(item);
      p.accepted += accepted;
      p.costUsd += costUsd;
      p.sampledOut += sampledOut;
      p.waiters.push({ resolve, reject });
      this.writing ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    // Let the requests already parsed in this turn of the event loop join the first write.
    await new Promise((r) => setImmediate(r));
    while (this.pending.size) {
      const batch = this.pending;
      this.pending = new Map();
      await Promise.all([...batch].map(([projectId, p]) => this.write(projectId, p)));
    }
    this.writing = null;
  }

  private async write(projectId: string, p: Pending): Promise<void> {
    try {
      const jobs: Promise<unknown>[] = [];
      for (let i = 0; i < p.items.length; i += MAX_ITEMS_PER_JOB) {
        jobs.push(this.queue.enqueue({ project: projectId, items: p.items.slice(i, i + MAX_ITEMS_PER_JOB) }));
      }
      await Promise.all([...jobs, this.usage.add(projectId, p.accepted, p.costUsd, p.sampledOut)]);
      for (const w of p.waiters) w.resolve();
    } catch (err) {
      for (const w of p.waiters) w.reject(err);
    }
  }
}
