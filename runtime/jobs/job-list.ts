import type { JobState } from '@vigil/plugin-sdk';
import type { StoreBackend } from '../store/types.js';
import { JobsError, JobsErrors } from './errors.js';
import { jobStates } from './job-table.js';
import { ensureJobTables } from './migrations.js';

/** One row of `vigil_jobs`, for operators. `payload` is parsed JSON, or the raw text when it does not parse. */
export interface JobRecord {
  id: number;
  queue: string;
  payload: unknown;
  state: JobState;
  attempt: number;
  maxAttempts: number;
  runAt: number;
  dedupeKey: string | null;
  lastError: string | null;
  lockedBy: string | null;
  lockedUntil: number | null;
  createdAt: number;
  updatedAt: number;
}

type JobRow = {
  id: number; queue: string; payload: string; state: JobState; attempt: number; max_attempts: number; run_at: number;
  dedupe_key: string | null; last_error: string | null; locked_by: string | null; locked_until: number | null;
  created_at: number; updated_at: number;
};

const maxLimit = 1000;

/** The newest jobs first, optionally of one queue and/or one state. `limit` defaults to 100, at most 1,000. */
export async function listJobs(store: StoreBackend, filter: { queue?: string; state?: JobState; limit?: number } = {}): Promise<JobRecord[]> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (filter.queue !== undefined) { where.push('queue = ?'); params.push(filter.queue); }
  if (filter.state !== undefined) {
    if (!jobStates.includes(filter.state)) {
      throw new JobsError(JobsErrors.OPTION, `jobs: unknown job state ${JSON.stringify(filter.state)}; one of ${jobStates.join(', ')}`);
    }
    where.push('state = ?');
    params.push(filter.state);
  }
  const limit = filter.limit === undefined ? 100 : Math.floor(filter.limit);
  if (!Number.isFinite(limit) || limit < 1) throw new JobsError(JobsErrors.OPTION, `jobs: listJobs limit must be a positive number, got ${JSON.stringify(filter.limit)}`);
  params.push(Math.min(limit, maxLimit));
  await ensureJobTables(store);
  const rows = await store.query<JobRow>(
    `SELECT id, queue, payload, state, attempt, max_attempts, run_at, dedupe_key, last_error, locked_by, locked_until, created_at, updated_at
     FROM vigil_jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`,
    params,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    queue: r.queue,
    payload: parseOrRaw(r.payload),
    state: r.state,
    attempt: Number(r.attempt),
    maxAttempts: Number(r.max_attempts),
    runAt: Number(r.run_at),
    dedupeKey: r.dedupe_key,
    lastError: r.last_error,
    lockedBy: r.locked_by,
    lockedUntil: r.locked_until === null ? null : Number(r.locked_until),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }));
}

function parseOrRaw(text: string): unknown {
  try { return JSON.parse(text); } catch { return text; }
}
