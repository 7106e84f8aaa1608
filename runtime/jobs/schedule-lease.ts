import type { StoreBackend } from '../store/types.js';
import { ensureJobTables } from './migrations.js';

/**
 * The lease row of one interval job id in `vigil_schedules`. A run needs the row's lease to be free and its last run
 * to be at least one interval old; one conditional UPDATE checks both and takes the lease, so among all processes
 * sharing the store at most one wins, on either backend. Times are the database clock (`store.nowSql`).
 */
export class ScheduleLease {
  private readonly claimSql: string;
  private readonly peekSql: string;

  constructor(private readonly store: StoreBackend, readonly id: string, private readonly owner: string) {
    const now = store.nowSql;
    this.claimSql = `UPDATE vigil_schedules SET owner = ?, last_run_at = ${now}, lease_until = ${now} + ?, last_status = 'running'
      WHERE id = ? AND lease_until < ${now} AND last_run_at <= ${now} - ? RETURNING last_run_at`;
    this.peekSql = `SELECT last_run_at, lease_until, ${now} AS now FROM vigil_schedules WHERE id = ?`;
  }

  /** Creates the row if no process has yet. */
  async ensure(): Promise<void> {
    await this.store.run(
      "INSERT INTO vigil_schedules (id, owner, lease_until, last_run_at) VALUES (?, '', 0, 0) ON CONFLICT (id) DO NOTHING",
      [this.id],
    );
  }

  /** Takes the lease when a run is due and nobody holds it; resolves to the run's start (its token), else null. */
  async claim(intervalMs: number, leaseMs: number): Promise<number | null> {
    const rows = await this.store.query<{ last_run_at: number }>(this.claimSql, [this.owner, leaseMs, this.id, intervalMs]);
    return rows.length ? Number(rows[0].last_run_at) : null;
  }

  /** Milliseconds until a claim may succeed, or null when the row does not exist yet. */
  async wait(intervalMs: number): Promise<number | null> {
    const [row] = await this.store.query<{ last_run_at: number; lease_until: number; now: number }>(this.peekSql, [this.id]);
    if (!row) return null;
    const now = Number(row.now);
    const dueIn = Number(row.last_run_at) + intervalMs - now;
    const leaseIn = Number(row.lease_until) - now;
    // A holder past its due time normally releases soon; look again within an interval rather than at lease end.
    const wait = leaseIn >= 0 ? Math.max(dueIn, Math.min(leaseIn, intervalMs)) : dueIn;
    return Math.max(0, wait) + 1;
  }

  /** Frees the lease taken at `startedAt`, unless another process took it over after it expired. */
  async release(startedAt: number, status: 'ok' | 'error', error: string | null): Promise<void> {
    await this.store.run(
      'UPDATE vigil_schedules SET lease_until = 0, last_status = ?, last_error = ? WHERE id = ? AND owner = ? AND last_run_at = ?',
      [status, error, this.id, this.owner, startedAt],
    );
  }
}

export interface ScheduleRecord {
  id: string;
  owner: string;
  leaseUntil: number;
  lastRunAt: number;
  lastStatus: string | null;
  lastError: string | null;
}

/** Every interval job id any process has registered, with its last run. */
export async function listSchedules(store: StoreBackend): Promise<ScheduleRecord[]> {
  await ensureJobTables(store);
  const rows = await store.query<{ id: string; owner: string; lease_until: number; last_run_at: number; last_status: string | null; last_error: string | null }>(
    'SELECT id, owner, lease_until, last_run_at, last_status, last_error FROM vigil_schedules ORDER BY id',
  );
  return rows.map((r) => ({
    id: r.id, owner: r.owner, leaseUntil: Number(r.lease_until), lastRunAt: Number(r.last_run_at),
    lastStatus: r.last_status, lastError: r.last_error,
  }));
}
