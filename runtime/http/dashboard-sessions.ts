import { createHash } from 'node:crypto';
import type { Logger } from '@vigil/plugin-sdk';
import { isOpen, type OpenAt, type SessionBackend, type SessionEndReason, type SessionRow } from './session-backend.js';
import { newSessionCookieValue, sessionHandle, sessionKey } from './session-cookie.js';

/** Default absolute lifetime of a dashboard session, in ms. */
export const DEFAULT_SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;
/** Default idle timeout: a session unused this long ends, in ms. */
export const DEFAULT_SESSION_IDLE_MS = 24 * 3600 * 1000;
/**
 * How long a process trusts what it last read about a session, in ms: the bound on how long a session ended by
 * another process (sharing the database) keeps working here. The process that ends a session forgets it at once.
 */
export const DEFAULT_SESSION_RECHECK_MS = 2000;
/** Sessions remembered per process; beyond it the oldest entry is read again from the store when next used. */
const CACHE_MAX = 10_000;
/** Ended and expired rows are kept this long (an old cookie is then "ended", not unknown), then deleted. */
const KEEP_ENDED_MS = 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 60_000;
/** Rows `GET /api/sessions` returns at most; `total` says how many are open. */
export const SESSION_LIST_LIMIT = 200;
/** Characters of a user agent kept for the list. */
const USER_AGENT_CHARS = 256;

export interface SessionPolicy {
  lifetimeMs: number;
  idleMs: number;
  recheckMs: number;
}

/** What a cookie value is: an open session, one that is over (not counted as a failure), or nothing we know. */
export type SessionCheck =
  | { state: 'open'; handle: string; userId: string | null }
  | { state: 'ended' | 'expired' }
  | { state: 'unknown' };

/**
 * Names the dashboard token a session was made with, without storing the token's hash itself: a token change (a new
 * `control_plane.token` or VIGIL_TOKEN at start) makes every session of the old one unusable.
 */
export function credentialFingerprint(tokenHash: string): string {
  return createHash('sha256').update(`vigil dashboard session credential\0${tokenHash}`, 'utf8').digest('hex').slice(0, 32);
}

/**
 * Dashboard sessions recorded on the server: a login makes a row, every authenticated request checks it is open, and
 * a logout, an admin or a token change ends it. Reads are cached per process for `recheckMs` (the bound on how late
 * another process notices an end); an end made here takes effect here at once.
 */
export class DashboardSessions {
  readonly policy: SessionPolicy;
  private readonly credential: string;
  private readonly cache = new Map<string, { row: SessionRow; readAt: number }>();
  private readonly loading = new Map<string, Promise<SessionRow | undefined>>();
  /** Bumped by every end made here: a read that started before it must not put what it read in the cache. */
  private epoch = 0;
  private lastPrune = 0;
  /** Streams and websockets opened with a session, by its handle: closed when the session ends. */
  private readonly held = new Map<string, Set<() => void>>();
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping = false;
  private readonly now: () => number;
  private readonly touchEveryMs: number;

  constructor(readonly backend: SessionBackend, tokenHash: string, policy: Partial<SessionPolicy> = {},
    private readonly options: { log?: Logger; now?: () => number } = {}) {
    this.policy = {
      lifetimeMs: policy.lifetimeMs ?? DEFAULT_SESSION_LIFETIME_MS,
      idleMs: policy.idleMs ?? DEFAULT_SESSION_IDLE_MS,
      recheckMs: policy.recheckMs ?? DEFAULT_SESSION_RECHECK_MS,
    };
    this.credential = credentialFingerprint(tokenHash);
    this.now = options.now ?? Date.now;
    // last_seen_at is written at most this often per session and process: the idle timeout's precision.
    this.touchEveryMs = Math.min(60_000, Math.max(250, Math.floor(this.policy.idleMs / 10)));
  }

  /** Creates the table and ends the sessions of any other token; resolves with how many that ended. */
  async prepare(): Promise<number> {
    await this.backend.prepare();
    const ended = await this.backend.endOtherCredentials(this.credential, this.now());
    if (ended > 0) this.options.log?.info('dashboard sessions ended: the dashboard token changed', { sessions: ended });
    await this.prune(this.now());
    return ended;
  }

  private openAt(now: number): OpenAt {
    return { credential: this.credential, now, seenAfter: now - this.policy.idleMs };
  }

  /**
   * A new session for a login that gave the right token (`userId` null) or signed in a user; resolves with the cookie
   * value.
   */
  async start(client: { userAgent?: string; address?: string }, userId: string | null = null): Promise<string> {
    const now = this.now();
    const value = newSessionCookieValue();
    const key = sessionKey(value)!;
    await this.backend.insert({
      key,
      handle: sessionHandle(key),
      credential: this.credential,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + this.policy.lifetimeMs,
      userAgent: client.userAgent ? client.userAgent.slice(0, USER_AGENT_CHARS) : null,
      clientAddress: client.address || null,
      endedAt: null,
      endedReason: null,
      userId,
    });
    // Rows are made only here, by a login with the right token, so pruning here bounds the table.
    if (now - this.lastPrune >= PRUNE_EVERY_MS) await this.prune(now);
    return value;
  }

  /** Max-Age of the cookie, in seconds. */
  get cookieMaxAgeSeconds(): number {
    return Math.floor(this.policy.lifetimeMs / 1000);
  }

  /** What the cookie value `value` is now. */
  async check(value: string): Promise<SessionCheck> {
    const key = sessionKey(value);
    if (key === undefined) return { state: 'unknown' };
    const now = this.now();
    const row = await this.read(key, now);
    if (!row) return { state: 'unknown' };
    const open = this.openAt(now);
    if (isOpen(row, open)) {
      // Awaited (one request a minute per session pays for one small write), so what this process reads next, and
      // the idle timeout, always include it. A failed write only costs precision, never the request.
      if (now - row.lastSeenAt >= this.touchEveryMs) {
        row.lastSeenAt = now;
        await this.backend.touch(key, now).catch((err: unknown) => this.options.log?.warn('dashboard session: cannot record activity', { err: err as Error }));
      }
      return { state: 'open', handle: row.handle, userId: row.userId };
    }
    return { state: row.endedAt !== null || row.credential !== this.credential ? 'ended' : 'expired' };
  }

  private async read(key: string, now: number): Promise<SessionRow | undefined> {
    const cached = this.cache.get(key);
    if (cached && now - cached.readAt < this.policy.recheckMs) return cached.row;
    let pending = this.loading.get(key);
    if (!pending) {
      const epoch = this.epoch;
      pending = this.backend.find(key).then((row) => {
        if (epoch === this.epoch) this.remember(key, row, now);
        return row;
      }).finally(() => {
        if (this.loading.get(key) === pending) this.loading.delete(key);
      });
      this.loading.set(key, pending);
    }
    return pending;
  }

  private remember(key: string, row: SessionRow | undefined, readAt: number): void {
    this.cache.delete(key);
    // Only sessions that exist are kept: a flood of made-up cookies never fills the cache.
    if (!row) return;
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { row, readAt });
  }

  /**
   * Forgets what this process read, so the end it just made holds here at once. Called after the end is stored: a
   * read already under way then belongs to an older epoch and is not cached, and any later read sees the end.
   */
  private forget(match: (row: SessionRow) => boolean): void {
    this.epoch++;
    this.loading.clear();
    for (const [key, entry] of this.cache) if (match(entry.row)) this.cache.delete(key);
  }

  /**
   * Keeps `close` (of a stream or websocket opened with the session `handle`) until the returned release is called,
   * and calls it when the session ends: at once when it ends here, within `recheckMs` when another process ends it
   * or it expires (a sweep reads which held sessions are still open, one query for all of them).
   */
  hold(handle: string, close: () => void): () => void {
    let closers = this.held.get(handle);
    if (!closers) this.held.set(handle, (closers = new Set()));
    closers.add(close);
    this.sweeper ??= setInterval(() => void this.sweep(), this.policy.recheckMs).unref();
    return () => {
      closers.delete(close);
      if (closers.size === 0 && this.held.get(handle) === closers) this.held.delete(handle);
      this.stopSweeperWhenIdle();
    };
  }

  private stopSweeperWhenIdle(): void {
    if (this.held.size > 0 || !this.sweeper) return;
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private closeHeld(match: (handle: string) => boolean): void {
    for (const [handle, closers] of this.held) {
      if (!match(handle)) continue;
      this.held.delete(handle);
      for (const close of closers) {
        try {
          close();
        } catch (err) {
          this.options.log?.warn('dashboard session: cannot close a connection of an ended session', { err: err as Error });
        }
      }
    }
    this.stopSweeperWhenIdle();
  }

  private async sweep(): Promise<void> {
    if (this.sweeping || this.held.size === 0) return;
    this.sweeping = true;
    try {
      const asked = new Set(this.held.keys());
      const open = await this.backend.openHandles([...asked], this.openAt(this.now()));
      this.closeHeld((handle) => asked.has(handle) && !open.has(handle));
    } catch (err) {
      this.options.log?.warn('dashboard sessions: cannot check the sessions of open streams', { err: err as Error });
    } finally {
      this.sweeping = false;
    }
  }

  /** Stops the sweep of held connections; they are closed by the server's own shutdown. */
  close(): void {
    this.held.clear();
    this.stopSweeperWhenIdle();
  }

  /** Ends the sessions of these cookie values (a logout); resolves with how many were open. */
  async endByCookie(values: readonly string[]): Promise<number> {
    let ended = 0;
    for (const value of values) {
      const key = sessionKey(value);
      if (key === undefined) continue;
      ended += await this.backend.end({ key }, this.openAt(this.now()), 'logout');
      this.forget((row) => row.key === key);
      const handle = sessionHandle(key);
      this.closeHeld((h) => h === handle);
    }
    return ended;
  }

  /** Ends the open session listed as `handle`; resolves with 1, or 0 when none is open under it. */
  async endByHandle(handle: string, reason: SessionEndReason = 'ended_by_admin'): Promise<number> {
    const ended = await this.backend.end({ handle }, this.openAt(this.now()), reason);
    this.forget((row) => row.handle === handle);
    this.closeHeld((h) => h === handle);
    if (ended) this.options.log?.info('dashboard session ended', { session: handle, reason });
    return ended;
  }

  /** Ends every open session but the one listed as `except` (null: every one); resolves with how many. */
  async endAll(except: string | null): Promise<number> {
    const ended = await this.backend.end({ allBut: except }, this.openAt(this.now()), 'ended_by_admin');
    this.forget((row) => row.handle !== except);
    this.closeHeld((h) => h !== except);
    if (ended) this.options.log?.info('dashboard sessions ended', { sessions: ended, kept: except ?? undefined });
    return ended;
  }

  /** Ends every open session of the user `userId` (disabled, or ended by an owner); resolves with how many. */
  async endForUser(userId: string, reason: SessionEndReason = 'ended_by_admin'): Promise<number> {
    const ended = await this.backend.end({ userId }, this.openAt(this.now()), reason);
    const handles = new Set<string>();
    for (const entry of this.cache.values()) if (entry.row.userId === userId) handles.add(entry.row.handle);
    this.forget((row) => row.userId === userId);
    // Held streams of sessions this process never cached are closed by the next sweep, within recheckMs.
    this.closeHeld((h) => handles.has(h));
    if (ended) this.options.log?.info('dashboard sessions of a user ended', { user: userId, sessions: ended, reason });
    return ended;
  }

  /** The open sessions, most recently seen first (at most SESSION_LIST_LIMIT), and how many are open. */
  list(): Promise<{ rows: SessionRow[]; total: number }> {
    return this.backend.listOpen(this.openAt(this.now()), SESSION_LIST_LIMIT);
  }

  private async prune(now: number): Promise<void> {
    this.lastPrune = now;
    try {
      await this.backend.prune(now - KEEP_ENDED_MS, this.policy.idleMs);
    } catch (err) {
      this.options.log?.warn('dashboard sessions: cannot delete old sessions', { err: err as Error });
    }
  }
}
