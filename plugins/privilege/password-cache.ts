import type { AuthPrincipal } from '@vigil/plugin-sdk';

/** Wrong passwords a session may give within FAILURE_WINDOW_MS. */
export const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;

interface Held {
  password: Buffer;
  expiresAt: number;
  release: () => void;
  timer: NodeJS.Timeout;
}

/** The key a principal's password is held under: its session (`session:<handle>`), or its scheme and subject. */
export function holderOf(principal: AuthPrincipal | undefined): string | null {
  if (!principal) return null;
  return `${principal.scheme}:${principal.subject ?? ''}`;
}

/**
 * sudo passwords held in memory, one per session, never written anywhere: each is dropped (its bytes zeroed) after
 * `ttlMs` without use, when its session ends, or when the plugin stops. A copy is handed out per run and zeroed by
 * the run once written to sudo's stdin.
 */
export class PasswordCache {
  private readonly held = new Map<string, Held>();
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly ttlMs: number, private readonly watchSession: (principal: AuthPrincipal | undefined, onEnd: () => void) => () => void, private readonly now: () => number = Date.now) {}

  /** Holds `password` (taken over: the caller must not reuse the buffer) for the principal's session. */
  set(principal: AuthPrincipal | undefined, password: Buffer): void {
    const key = holderOf(principal);
    if (key === null) { password.fill(0); return; }
    this.drop(key);
    const release = this.watchSession(principal, () => this.drop(key));
    const timer = setTimeout(() => this.drop(key), this.ttlMs).unref();
    this.held.set(key, { password, expiresAt: this.now() + this.ttlMs, release, timer });
    this.failures.delete(key);
  }

  /** A copy of the session's password, renewing its time (sudo's timestamp works the same way), or undefined. */
  take(principal: AuthPrincipal | undefined): Buffer | undefined {
    const key = holderOf(principal);
    const entry = key === null ? undefined : this.held.get(key);
    if (!entry || key === null) return undefined;
    if (entry.expiresAt <= this.now()) { this.drop(key); return undefined; }
    entry.expiresAt = this.now() + this.ttlMs;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.drop(key), this.ttlMs).unref();
    return Buffer.from(entry.password);
  }

  expiresAt(principal: AuthPrincipal | undefined): number | null {
    const key = holderOf(principal);
    const entry = key === null ? undefined : this.held.get(key);
    return entry && entry.expiresAt > this.now() ? entry.expiresAt : null;
  }

  /** Counts a wrong password; true while the session may still try. */
  failed(principal: AuthPrincipal | undefined): void {
    const key = holderOf(principal) ?? 'none';
    const recent = (this.failures.get(key) ?? []).filter((t) => t > this.now() - FAILURE_WINDOW_MS);
    recent.push(this.now());
    this.failures.set(key, recent);
  }

  mayTry(principal: AuthPrincipal | undefined): boolean {
    const key = holderOf(principal) ?? 'none';
    return (this.failures.get(key) ?? []).filter((t) => t > this.now() - FAILURE_WINDOW_MS).length < MAX_FAILURES;
  }

  forget(principal: AuthPrincipal | undefined): void {
    const key = holderOf(principal);
    if (key !== null) this.drop(key);
  }

  private drop(key: string): void {
    const entry = this.held.get(key);
    if (!entry) return;
    this.held.delete(key);
    clearTimeout(entry.timer);
    entry.password.fill(0);
    entry.release();
  }

  /** Drops every password (the plugin stops). */
  clear(): void {
    for (const key of [...this.held.keys()]) this.drop(key);
    this.failures.clear();
  }

  get size(): number {
    return this.held.size;
  }
}
