import type { Migration } from '@vigil/plugin-sdk';
import type { StoreBackend } from '../store/index.js';
import type { OpenAt, SessionBackend, SessionEndReason, SessionRow, SessionTarget } from './session-backend.js';

/**
 * Recorded in `vigil_migrations` under this name: not a plugin's (a plugin name has no colon), and apart from the
 * jobs' `vigil-core`, so the two lists of versions never interleave.
 */
export const sessionMigrationOwner = 'vigil-core:sessions';

export const sessionMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'dashboard sessions',
    up: `CREATE TABLE vigil_sessions (
      key_hash TEXT PRIMARY KEY,
      handle TEXT NOT NULL,
      credential TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      last_seen_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      user_agent TEXT,
      client_address TEXT,
      ended_at BIGINT,
      ended_reason TEXT
    );
    CREATE INDEX vigil_sessions_handle ON vigil_sessions (handle);
    CREATE INDEX vigil_sessions_expiry ON vigil_sessions (expires_at)`,
  },
  {
    version: 2,
    name: 'sessions of users',
    up: `ALTER TABLE vigil_sessions ADD COLUMN user_id TEXT;
    CREATE INDEX vigil_sessions_user ON vigil_sessions (user_id)`,
  },
];

interface DbRow {
  key_hash: string;
  handle: string;
  credential: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_agent: string | null;
  client_address: string | null;
  ended_at: number | null;
  ended_reason: string | null;
  user_id: string | null;
}

const COLUMNS = 'key_hash, handle, credential, created_at, last_seen_at, expires_at, user_agent, client_address, ended_at, ended_reason, user_id';
/** The SQL of session-backend.ts `isOpen`, with its three parameters: credential, now, seenAfter. */
const OPEN = 'ended_at IS NULL AND credential = ? AND expires_at > ? AND last_seen_at > ?';

const HANDLES_PER_QUERY = 500;

const fromDb = (r: DbRow): SessionRow => ({
  key: r.key_hash,
  handle: r.handle,
  credential: r.credential,
  createdAt: Number(r.created_at),
  lastSeenAt: Number(r.last_seen_at),
  expiresAt: Number(r.expires_at),
  userAgent: r.user_agent,
  clientAddress: r.client_address,
  endedAt: r.ended_at === null ? null : Number(r.ended_at),
  endedReason: r.ended_reason as SessionRow['endedReason'],
  userId: r.user_id,
});

/** Sessions in the core store, `vigil_sessions`: every process on the same database sees the same sessions. */
export class StoreSessionBackend implements SessionBackend {
  readonly kind = 'store' as const;

  constructor(private readonly store: StoreBackend) {}

  prepare(): Promise<void> {
    return this.store.migrate(sessionMigrationOwner, sessionMigrations);
  }

  async insert(row: SessionRow): Promise<void> {
    await this.store.run(`INSERT INTO vigil_sessions (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      row.key, row.handle, row.credential, row.createdAt, row.lastSeenAt, row.expiresAt, row.userAgent, row.clientAddress, row.endedAt, row.endedReason,
      row.userId,
    ]);
  }

  async find(key: string): Promise<SessionRow | undefined> {
    const rows = await this.store.query<DbRow & Record<string, unknown>>(`SELECT ${COLUMNS} FROM vigil_sessions WHERE key_hash = ?`, [key]);
    return rows.length ? fromDb(rows[0]) : undefined;
  }

  async touch(key: string, at: number): Promise<void> {
    await this.store.run('UPDATE vigil_sessions SET last_seen_at = ? WHERE key_hash = ? AND last_seen_at < ?', [at, key, at]);
  }

  async end(target: SessionTarget, open: OpenAt, reason: SessionEndReason): Promise<number> {
    const [which, value] = 'key' in target ? ['key_hash = ?', target.key] : 'handle' in target ? ['handle = ?', target.handle]
      : 'userId' in target ? ['user_id = ?', target.userId] : target.allBut === null ? ['1 = 1', undefined] : ['handle <> ?', target.allBut];
    const { changes } = await this.store.run(`UPDATE vigil_sessions SET ended_at = ?, ended_reason = ? WHERE ${OPEN} AND ${which}`,
      [open.now, reason, open.credential, open.now, open.seenAfter, ...(value === undefined ? [] : [value])]);
    return changes;
  }

  async endOtherCredentials(credential: string, at: number): Promise<number> {
    const { changes } = await this.store.run(
      "UPDATE vigil_sessions SET ended_at = ?, ended_reason = 'token_changed' WHERE ended_at IS NULL AND credential <> ?", [at, credential]);
    return changes;
  }

  async listOpen(open: OpenAt, limit: number): Promise<{ rows: SessionRow[]; total: number }> {
    const params = [open.credential, open.now, open.seenAfter];
    const [rows, [count]] = await Promise.all([
      this.store.query<DbRow & Record<string, unknown>>(`SELECT ${COLUMNS} FROM vigil_sessions WHERE ${OPEN} ORDER BY last_seen_at DESC, created_at DESC LIMIT ?`, [...params, limit]),
      this.store.query<{ n: number }>(`SELECT COUNT(*) AS n FROM vigil_sessions WHERE ${OPEN}`, params),
    ]);
    return { rows: rows.map(fromDb), total: Number(count.n) };
  }

  async openHandles(handles: readonly string[], open: OpenAt): Promise<Set<string>> {
    const found = new Set<string>();
    // In slices, under every backend's limit of bound parameters.
    for (let i = 0; i < handles.length; i += HANDLES_PER_QUERY) {
      const slice = handles.slice(i, i + HANDLES_PER_QUERY);
      const rows = await this.store.query<{ handle: string }>(
        `SELECT handle FROM vigil_sessions WHERE ${OPEN} AND handle IN (${slice.map(() => '?').join(', ')})`,
        [open.credential, open.now, open.seenAfter, ...slice]);
      for (const r of rows) found.add(r.handle);
    }
    return found;
  }

  async prune(before: number, idleMs: number): Promise<number> {
    const { changes } = await this.store.run(
      'DELETE FROM vigil_sessions WHERE ended_at < ? OR expires_at < ? OR last_seen_at < ?', [before, before, before - idleMs]);
    return changes;
  }
}
