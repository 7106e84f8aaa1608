/** Why a session ended; kept on its row and shown in the log. */
export type SessionEndReason = 'logout' | 'ended_by_admin' | 'token_changed' | 'user_disabled';

/** One dashboard session as stored. Times are epoch ms. */
export interface SessionRow {
  /** SHA-256 hex of the cookie value (session-cookie.ts `sessionKey`); the cookie itself is never stored. */
  key: string;
  /** What the session is listed and ended by (`sessionHandle`). */
  handle: string;
  /** Fingerprint of the dashboard token the session was made with (`credentialFingerprint`). */
  credential: string;
  createdAt: number;
  lastSeenAt: number;
  /** The absolute end: `createdAt` + the lifetime. */
  expiresAt: number;
  userAgent: string | null;
  clientAddress: string | null;
  endedAt: number | null;
  endedReason: SessionEndReason | null;
  /** The user who signed in (vigil_users.id); null for a login with the dashboard token, the break-glass owner. */
  userId: string | null;
}

/** Which open sessions of one credential an `end` applies to: one by key or handle, all but one handle, or a user's. */
export type SessionTarget = { key: string } | { handle: string } | { allBut: string | null } | { userId: string };

/** What "open" means at `now`: not ended, made with `credential`, before its absolute end and its idle end. */
export interface OpenAt {
  credential: string;
  now: number;
  /** Sessions last seen before this are idle-expired. */
  seenAfter: number;
}

/**
 * Where sessions are kept: the core store's `vigil_sessions` (session-table.ts), shared by every process on the same
 * database, or this process's memory when the runtime has no store (session-memory.ts).
 */
export interface SessionBackend {
  readonly kind: 'store' | 'memory';
  /** Creates the table (migrations); called once before the control plane listens. */
  prepare(): Promise<void>;
  insert(row: SessionRow): Promise<void>;
  find(key: string): Promise<SessionRow | undefined>;
  /** Records activity: `last_seen_at`. */
  touch(key: string, at: number): Promise<void>;
  /** Ends the open sessions `target` names; resolves with how many. */
  end(target: SessionTarget, open: OpenAt, reason: SessionEndReason): Promise<number>;
  /** Ends every session not made with `credential` (the token changed); resolves with how many. */
  endOtherCredentials(credential: string, at: number): Promise<number>;
  /** Open sessions, most recently seen first, at most `limit`; and how many are open in all. */
  listOpen(open: OpenAt, limit: number): Promise<{ rows: SessionRow[]; total: number }>;
  /** Which of `handles` name open sessions. */
  openHandles(handles: readonly string[], open: OpenAt): Promise<Set<string>>;
  /** Deletes rows that ended, expired or went idle before `before`; resolves with how many. */
  prune(before: number, idleMs: number): Promise<number>;
  close?(): void;
}

/** Whether `row` is open (session-backend.ts `OpenAt`); the one rule both backends and the cache apply. */
export function isOpen(row: SessionRow, open: OpenAt): boolean {
  return row.endedAt === null && row.credential === open.credential && row.expiresAt > open.now && row.lastSeenAt > open.seenAfter;
}
