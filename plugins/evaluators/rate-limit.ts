import type { Store } from '@vigil/plugin-sdk';

/**
 * Eval jobs per minute and project, across every process on the store. Each job reserves a slot: the project's row
 * holds when the next job may start, and one atomic upsert takes the slot and moves the row on by 60,000 / rate ms.
 * So starts are spaced evenly (60 per minute: one a second), there is no burst to spend, and two processes can
 * never take one slot (PostgreSQL locks the row for the upsert; SQLite has a single writer).
 *
 * A job that gets a slot in the future waits for it (the queue holds it, deferred, see eval-job.ts), so a backlog is
 * spread over the minutes ahead instead of retried against the limit.
 */
export class RateLimiter {
  private readonly table: string;

  constructor(private readonly store: Store, private readonly perMinute: (projectId: string) => number, private readonly now: () => number = Date.now) {
    this.table = store.table('rate');
  }

  /** Reserves the project's next slot; resolves to the epoch ms at which the job may start (now, or later). */
  async reserve(projectId: string): Promise<number> {
    const interval = 60_000 / this.perMinute(projectId);
    const now = this.now();
    const rows = await this.store.query<{ next_at: number }>(
      `INSERT INTO ${this.table} (project_id, next_at) VALUES (?, ?)
       ON CONFLICT (project_id) DO UPDATE SET next_at = CASE WHEN ${this.table}.next_at > ? THEN ${this.table}.next_at ELSE ? END + ?
       RETURNING next_at`, [projectId, now + interval, now, now, interval]);
    return Number(rows[0].next_at) - interval;
  }
}
