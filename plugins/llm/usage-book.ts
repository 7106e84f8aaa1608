import type { Store } from '@vigil/plugin-sdk';

/** How long this process trusts what it last read of a project's month, between its own additions. */
export const USAGE_FRESH_MS = 1_000;

export interface MonthUsage {
  /** Items accepted this month (sampled-out ones included). */
  items: number;
  /** USD of every accepted item's call this month: the project's LLM spend, which the budget caps. */
  cost_usd: number;
}

/** The UTC calendar month of an epoch ms, `2026-03`. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/**
 * Month-to-date usage per project, shared by every process through the store: each ingest adds its batch with one
 * upsert, whose answer is the new total. Plan limits and budget sampling read the last total this process saw (at
 * most `USAGE_FRESH_MS` old, else read again), so with several processes a limit may be passed by what the others
 * accepted in that second: a bound by about one batch per process, not an exact one.
 */
export class UsageBook {
  private readonly table: string;
  private readonly seen = new Map<string, { month: string; at: number; usage: MonthUsage }>();

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {
    this.table = store.table('usage');
  }

  async current(projectId: string): Promise<MonthUsage> {
    const now = this.now();
    const month = monthOf(now);
    const hit = this.seen.get(projectId);
    if (hit && hit.month === month && now - hit.at < USAGE_FRESH_MS) return hit.usage;
    const rows = await this.store.query<{ items: number | string; cost_usd: number | string }>(
      `SELECT items, cost_usd FROM ${this.table} WHERE project_id = ? AND month = ?`, [projectId, month]);
    const usage = { items: Number(rows[0]?.items ?? 0), cost_usd: Number(rows[0]?.cost_usd ?? 0) };
    this.seen.set(projectId, { month, at: now, usage });
    return usage;
  }

  /** Adds an ingested batch to the project's month. */
  async add(projectId: string, items: number, costUsd: number, sampledOut: number): Promise<void> {
    const now = this.now();
    const month = monthOf(now);
    const t = this.table;
    const rows = await this.store.query<{ items: number | string; cost_usd: number | string }>(
      `INSERT INTO ${t} (project_id, month, items, cost_usd, sampled_out) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (project_id, month) DO UPDATE SET items = ${t}.items + excluded.items,
         cost_usd = ${t}.cost_usd + excluded.cost_usd, sampled_out = ${t}.sampled_out + excluded.sampled_out
       RETURNING items, cost_usd`, [projectId, month, items, costUsd, sampledOut]);
    this.seen.set(projectId, { month, at: now, usage: { items: Number(rows[0].items), cost_usd: Number(rows[0].cost_usd) } });
  }
}
