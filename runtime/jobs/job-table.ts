import type { JobState } from '@vigil/plugin-sdk';
import type { StoreBackend } from '../store/types.js';
import { RoundRobinClaim } from './round-robin-claim.js';

export const jobStates: readonly JobState[] = ['pending', 'running', 'done', 'failed', 'dead'];

/** A claimed job as the worker needs it. `attempt` counts this run (1 for the first). */
export interface ClaimedJob {
  id: number;
  queue: string;
  payload: string;
  attempt: number;
  maxAttempts: number;
  /** Its fairness group; '' for a job enqueued without one. */
  group: string;
}

type ClaimedRow = { id: number; queue: string; payload: string; attempt: number; max_attempts: number; run_at: number; fair_group: string };

/** The statements of the durable queue on `vigil_jobs`. Times are the database clock (`store.nowSql`). */
export class JobTable {
  private readonly now: string;
  private readonly rounds: RoundRobinClaim;

  constructor(private readonly store: StoreBackend) {
    this.now = store.nowSql;
    this.rounds = new RoundRobinClaim(store);
  }

  /** Resolves to the new id, or null when an open job of this queue holds `dedupeKey`. */
  async enqueue(queue: string, payload: string, maxAttempts: number, runAt: number | undefined, dedupeKey: string | undefined, group = ''): Promise<number | null> {
    const runAtSql = runAt === undefined ? this.now : '?';
    const params = runAt === undefined
      ? [queue, payload, maxAttempts, dedupeKey ?? null, group]
      : [queue, payload, maxAttempts, runAt, dedupeKey ?? null, group];
    // ON CONFLICT without a target covers the partial unique index on open dedupe keys, on both backends.
    const rows = await this.store.query<{ id: number }>(
      `INSERT INTO vigil_jobs (queue, payload, state, attempt, max_attempts, run_at, dedupe_key, fair_group, created_at, updated_at)
       VALUES (?, ?, 'pending', 0, ?, ${runAtSql}, ?, ?, ${this.now}, ${this.now}) ON CONFLICT DO NOTHING RETURNING id`,
      params,
    );
    return rows.length ? Number(rows[0].id) : null;
  }

  /** Inserts several jobs of one queue; `runAt` undefined is now. Resolves to how many were inserted. */
  async enqueueMany(queue: string, jobs: readonly { payload: string; runAt?: number; dedupeKey?: string; group?: string }[], maxAttempts: number): Promise<number> {
    let inserted = 0;
    // Six parameters a row: 400 rows stay well under both backends' parameter limits.
    for (let i = 0; i < jobs.length; i += 400) {
      const chunk = jobs.slice(i, i + 400);
      const row = `(?, ?, 'pending', 0, ?, COALESCE(?, ${this.now}), ?, ?, ${this.now}, ${this.now})`;
      const rows = await this.store.query<{ id: number }>(
        `INSERT INTO vigil_jobs (queue, payload, state, attempt, max_attempts, run_at, dedupe_key, fair_group, created_at, updated_at)
         VALUES ${chunk.map(() => row).join(', ')} ON CONFLICT DO NOTHING RETURNING id`,
        chunk.flatMap((j) => [queue, j.payload, maxAttempts, j.runAt ?? null, j.dedupeKey ?? null, j.group ?? '']),
      );
      inserted += rows.length;
    }
    return inserted;
  }

  /**
   * Moves up to `limit` due jobs to `running` for `owner` until `timeoutMs` from now, taking due groups in turn
   * (round-robin-claim.ts); `room` says how many more jobs of a group this worker may run now (0: none). PostgreSQL
   * locks the chosen rows with SKIP LOCKED so concurrent workers take different jobs; SQLite picks and updates them in
   * one statement, which its single writer makes atomic.
   */
  async claim(queue: string, owner: string, limit: number, timeoutMs: number, room: (group: string) => number = () => limit): Promise<ClaimedJob[]> {
    // An idle poll stays one read (on SQLite, on the reader connection instead of behind bulk writes for the writer).
    const turn = await this.rounds.dueGroups(queue, limit + Math.min(limit, 16), room);
    if (turn.length === 0) return [];
    const set = `state = 'running', attempt = attempt + 1, locked_by = ?, locked_until = ${this.now} + ?, updated_at = ${this.now}`;
    const returning = 'RETURNING id, queue, payload, attempt, max_attempts, run_at, fair_group';
    let rows: ClaimedRow[];
    if (this.store.dialect === 'postgres') {
      const pick = this.rounds.pickStatement(queue, turn, limit, true);
      rows = await this.store.transaction(async (tx) => {
        const picked = await tx.query<{ id: number }>(pick.sql, pick.params);
        if (picked.length === 0) return [];
        const ids = picked.map((r) => Number(r.id));
        return tx.query<ClaimedRow>(`UPDATE vigil_jobs SET ${set} WHERE id IN (${ids.map(() => '?').join(', ')}) ${returning}`, [owner, timeoutMs, ...ids]);
      });
    } else {
      const pick = this.rounds.pickStatement(queue, turn, limit, false);
      rows = await this.store.query<ClaimedRow>(`UPDATE vigil_jobs SET ${set} WHERE id IN (${pick.sql}) ${returning}`, [owner, timeoutMs, ...pick.params]);
    }
    this.rounds.served(queue, turn, new Set(rows.map((r) => r.fair_group)));
    return rows
      .sort((a, b) => Number(a.run_at) - Number(b.run_at) || Number(a.id) - Number(b.id))
      .map((r) => ({ id: Number(r.id), queue: r.queue, payload: r.payload, attempt: Number(r.attempt), maxAttempts: Number(r.max_attempts), group: r.fair_group }));
  }

  // The guard on owner and attempt keeps a worker whose lease expired from overwriting the run that took over.
  private readonly guard = "WHERE id = ? AND locked_by = ? AND attempt = ? AND state = 'running'";

  /** `dropPayload` empties the payload (to `null`, still JSON) with the same update. */
  async complete(job: ClaimedJob, owner: string, dropPayload = false): Promise<boolean> {
    const payload = dropPayload ? ", payload = 'null'" : '';
    const r = await this.store.run(`UPDATE vigil_jobs SET state = 'done'${payload}, locked_by = NULL, locked_until = NULL, updated_at = ${this.now} ${this.guard}`,
      [job.id, owner, job.attempt]);
    return r.changes > 0;
  }

  async retry(job: ClaimedJob, owner: string, delayMs: number, error: string): Promise<boolean> {
    const r = await this.store.run(
      `UPDATE vigil_jobs SET state = 'pending', run_at = ${this.now} + ?, last_error = ?, locked_by = NULL, locked_until = NULL, updated_at = ${this.now} ${this.guard}`,
      [delayMs, error, job.id, owner, job.attempt]);
    return r.changes > 0;
  }

  /**
   * Back to `pending`, due in `delayMs`, with the attempt it took given back (a deferral is not a failure);
   * `payload`, when given, replaces the stored one.
   */
  async defer(job: ClaimedJob, owner: string, delayMs: number, payload: string | undefined): Promise<boolean> {
    const set = payload === undefined ? '' : ', payload = ?';
    const r = await this.store.run(
      `UPDATE vigil_jobs SET state = 'pending', attempt = attempt - 1, run_at = ${this.now} + ?${set}, locked_by = NULL, locked_until = NULL, updated_at = ${this.now} ${this.guard}`,
      [Math.round(delayMs), ...(payload === undefined ? [] : [payload]), job.id, owner, job.attempt]);
    return r.changes > 0;
  }

  async finish(job: ClaimedJob, owner: string, state: 'failed' | 'dead', error: string): Promise<boolean> {
    const r = await this.store.run(
      `UPDATE vigil_jobs SET state = ?, last_error = ?, locked_by = NULL, locked_until = NULL, updated_at = ${this.now} ${this.guard}`,
      [state, error, job.id, owner, job.attempt]);
    return r.changes > 0;
  }

  /** Jobs whose worker stopped responding go back to `pending` (or `dead` when out of attempts). Returns how many. */
  async reclaimExpired(queue: string): Promise<number> {
    const r = await this.store.run(
      `UPDATE vigil_jobs SET state = CASE WHEN attempt >= max_attempts THEN 'dead' ELSE 'pending' END,
         last_error = 'lease of ' || COALESCE(locked_by, '?') || ' expired: the worker stopped or ran past timeoutMs',
         locked_by = NULL, locked_until = NULL, run_at = ${this.now}, updated_at = ${this.now}
       WHERE queue = ? AND state = 'running' AND locked_until < ${this.now}`,
      [queue]);
    return r.changes;
  }

  /** Deletes finished jobs older than their retention. */
  async prune(queue: string, doneMs: number, failedMs: number): Promise<number> {
    const r = await this.store.run(
      `DELETE FROM vigil_jobs WHERE queue = ? AND ((state = 'done' AND updated_at < ${this.now} - ?) OR (state IN ('failed', 'dead') AND updated_at < ${this.now} - ?))`,
      [queue, doneMs, failedMs]);
    return r.changes;
  }

  async stats(queue: string): Promise<Record<JobState, number>> {
    const rows = await this.store.query<{ state: JobState; n: number }>('SELECT state, COUNT(*) AS n FROM vigil_jobs WHERE queue = ? GROUP BY state', [queue]);
    const out = Object.fromEntries(jobStates.map((s) => [s, 0])) as Record<JobState, number>;
    for (const r of rows) out[r.state] = Number(r.n);
    return out;
  }
}
