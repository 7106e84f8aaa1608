import type { Migration } from '@vigil/plugin-sdk';
import type { StoreBackend } from '../store/types.js';

/** Migrations of the core's own tables, recorded under this name in `vigil_migrations`. */
export const coreMigrationOwner = 'vigil-core';

/** vigil_schedules holds one lease row per interval job id; vigil_jobs is the durable queue. */
export const jobsMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'interval job leases',
    up: `CREATE TABLE vigil_schedules (
      id TEXT PRIMARY KEY,
      owner TEXT NOT NULL DEFAULT '',
      lease_until BIGINT NOT NULL DEFAULT 0,
      last_run_at BIGINT NOT NULL DEFAULT 0,
      last_status TEXT,
      last_error TEXT
    )`,
  },
  {
    version: 2,
    name: 'durable job queue',
    up: {
      sqlite: jobsTable('id INTEGER PRIMARY KEY AUTOINCREMENT'),
      postgres: jobsTable('id BIGSERIAL PRIMARY KEY'),
    },
  },
  {
    version: 3,
    name: 'fair claims between groups',
    // '' is the group of every job enqueued without one (and of those already queued), so comparisons and MIN-style
    // seeks need no NULL case. The index serves the round-robin claim: the next group after a cursor, a group's oldest
    // due job, and its next ones, each a seek, whatever one group holds (round-robin-claim.ts). Its (queue, state)
    // prefix also serves what vigil_jobs_due did, so that index goes.
    up: `ALTER TABLE vigil_jobs ADD COLUMN fair_group TEXT NOT NULL DEFAULT '';
    CREATE INDEX vigil_jobs_fair ON vigil_jobs (queue, state, fair_group, run_at, id);
    DROP INDEX vigil_jobs_due`,
  },
];

function jobsTable(idColumn: string): string {
  return `CREATE TABLE vigil_jobs (
      ${idColumn},
      queue TEXT NOT NULL,
      payload TEXT NOT NULL,
      state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'failed', 'dead')),
      attempt INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL,
      run_at BIGINT NOT NULL,
      dedupe_key TEXT,
      last_error TEXT,
      locked_by TEXT,
      locked_until BIGINT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    );
    CREATE INDEX vigil_jobs_due ON vigil_jobs (queue, state, run_at);
    -- An open job (pending or running) owns its dedupe key; a done, failed or dead one frees it.
    CREATE UNIQUE INDEX vigil_jobs_open_dedupe ON vigil_jobs (queue, dedupe_key)
      WHERE dedupe_key IS NOT NULL AND state IN ('pending', 'running')`;
}

const ready = new WeakMap<StoreBackend, Promise<void>>();

/** Applies the jobs migrations once per store handle; a failure is not cached, so a later call retries. */
export function ensureJobTables(store: StoreBackend): Promise<void> {
  let p = ready.get(store);
  if (!p) {
    p = store.migrate(coreMigrationOwner, jobsMigrations);
    ready.set(store, p);
    p.catch(() => ready.delete(store));
  }
  return p;
}
