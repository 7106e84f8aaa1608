import type { Store } from '@vigil/plugin-sdk';

/** How long `current` trusts what it last read of a project's month. Admission only: reservations read afresh. */
export const USAGE_FRESH_MS = 1_000;

export interface MonthUsage {
  /** Items accepted this month (sampled-out ones included). */
  items: number;
  /** USD of every accepted item's call this month: the project's LLM spend, which the budget caps. */
  cost_usd: number;
}

/** What a reservation adds to the month: decided from the month as it stands, inside the reservation's lock. */
export interface UsageDelta {
  items: number;
  cost_usd: number;
  sampled_out: number;
}

/** The UTC calendar month of an epoch ms, `2026-03`. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/**
 * Month-to-date usage per project, shared by every process through the store. A batch reserves its items before
 * any of them is stored: `reserve` reads the month under a lock (PostgreSQL: the row's lock; SQLite: its one write
 * lock) and adds what the plan decides from it, in one transaction. Concurrent batches, in any number of processes,
 * therefore each see the month with every earlier reservation in it, so a plan limit is never passed and budget
 * sampling starts at the first item past the cap. Items reserved and then not stored (the store refused the batch)
 * are given back with `release`.
 */
export class UsageBook {
  private readonly table: string;
  private readonly seen = new Map<string, { month: string; at: number; usage: MonthUsage }>();

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {
    this.table = store.table('usage');
  }

  /** The month so far, at most `USAGE_FRESH_MS` old: for refusing early, never for letting through. */
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

  /**
   * Reserves what `plan` decides from the month as it stands (no other reservation of the project runs meanwhile),
   * and resolves to the plan's own result with the month it was charged to (for `release`).
   */
  async reserve<T extends UsageDelta>(projectId: string, plan: (month: MonthUsage) => T): Promise<T & { month: string }> {
    const month = monthOf(this.now());
    const t = this.table;
    const out = await this.store.transaction(async (tx) => {
      // The row exists before it is locked, so two first batches of a month cannot both read "nothing yet".
      await tx.run(`INSERT INTO ${t} (project_id, month, items, cost_usd, sampled_out) VALUES (?, ?, 0, 0, 0) ON CONFLICT (project_id, month) DO NOTHING`,
        [projectId, month]);
      const lock = tx.dialect === 'postgres' ? ' FOR UPDATE' : '';
      const rows = await tx.query<{ items: number | string; cost_usd: number | string }>(
        `SELECT items, cost_usd FROM ${t} WHERE project_id = ? AND month = ?${lock}`, [projectId, month]);
      const before = { items: Number(rows[0].items), cost_usd: Number(rows[0].cost_usd) };
      const delta = plan(before);
      if (delta.items || delta.cost_usd || delta.sampled_out) {
        await tx.run(`UPDATE ${t} SET items = items + ?, cost_usd = cost_usd + ?, sampled_out = sampled_out + ? WHERE project_id = ? AND month = ?`,
          [delta.items, delta.cost_usd, delta.sampled_out, projectId, month]);
      }
      return { delta, after: { items: before.items + delta.items, cost_usd: before.cost_usd + delta.cost_usd } };
    });
    this.seen.set(projectId, { month, at: this.now(), usage: out.after });
    return { ...out.delta, month };
  }

  /**
   * Adds to the month without reading it: for a project with neither an item limit nor a budget, whose batches are
   * taken whole whatever the month holds. One upsert, no transaction.
   */
  async add(projectId: string, delta: UsageDelta): Promise<{ month: string }> {
    const month = monthOf(this.now());
    const t = this.table;
    await this.store.run(
      `INSERT INTO ${t} (project_id, month, items, cost_usd, sampled_out) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (project_id, month) DO UPDATE SET items = ${t}.items + excluded.items,
         cost_usd = ${t}.cost_usd + excluded.cost_usd, sampled_out = ${t}.sampled_out + excluded.sampled_out`,
      [projectId, month, delta.items, delta.cost_usd, delta.sampled_out]);
    this.seen.delete(projectId);
    return { month };
  }

  /** Gives back a reservation whose items were not stored. */
  async release(projectId: string, month: string, delta: UsageDelta): Promise<void> {
    await this.store.run(
      `UPDATE ${this.table} SET items = items - ?, cost_usd = cost_usd - ?, sampled_out = sampled_out - ? WHERE project_id = ? AND month = ?`,
      [delta.items, delta.cost_usd, delta.sampled_out, projectId, month]);
    this.seen.delete(projectId);
  }
}
