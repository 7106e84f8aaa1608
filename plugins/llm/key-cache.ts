import { hashKey } from './project-keys.js';

/**
 * How long a found key is trusted without asking the store again, in ms. A key that another process revoked, or
 * gave a grace period, is read again within this; a grace end the cache knows is honoured to the millisecond. One
 * indexed read per key and second is what a process pays for it.
 */
export const KEY_TTL_MS = 1_000;
/** Unknown keys are remembered briefly, so a client retrying a wrong key does not cost a query per request. */
export const UNKNOWN_KEY_TTL_MS = 5_000;
/** Entries kept at most; random keys cannot grow the cache without bound. */
export const MAX_KEYS = 10_000;

/** A key the store knows: what it opens, and when it stops (epoch ms; null for an active key). */
export interface FoundKey<P> {
  value: P;
  expires_at: number | null;
}

interface Entry<P> {
  value: Promise<P | null>;
  /** Epoch ms the answer is trusted until: the TTL, cut to the key's expires_at once the store has answered. */
  until: number;
}

/**
 * Project lookups by key, by the key's SHA-256, cached for 1 s (5 s for unknown keys) and never past the key's
 * `expires_at`. Concurrent lookups of one key share one query. The plaintext key is never kept: entries are by hash.
 */
export class KeyCache<P> {
  private readonly entries = new Map<string, Entry<P>>();

  constructor(
    private readonly load: (keyHash: string) => Promise<FoundKey<P> | null>,
    private readonly now: () => number = Date.now,
  ) {}

  lookup(key: string): Promise<P | null> {
    const keyHash = hashKey(key);
    const now = this.now();
    const hit = this.entries.get(keyHash);
    if (hit && hit.until > now) return hit.value;
    if (this.entries.size >= MAX_KEYS) this.evict(now);
    const entry = { until: now + KEY_TTL_MS } as Entry<P>;
    entry.value = this.load(keyHash).then((found) => {
      if (found === null) entry.until = Math.min(entry.until, this.now() + UNKNOWN_KEY_TTL_MS);
      else if (found.expires_at !== null) entry.until = Math.min(entry.until, found.expires_at);
      return found?.value ?? null;
    }, (err: unknown) => {
      // A store failure is not an answer: the next request asks again.
      if (this.entries.get(keyHash) === entry) this.entries.delete(keyHash);
      throw err;
    });
    this.entries.set(keyHash, entry);
    return entry.value;
  }

  /** Forgets every entry: after a change made in this process (a rotation, new settings), which applies at once here. */
  clear(): void {
    this.entries.clear();
  }

  /** Drops expired entries, then the oldest half if that was not enough (a Map iterates in insertion order). */
  private evict(now: number): void {
    for (const [k, e] of this.entries) if (e.until <= now) this.entries.delete(k);
    if (this.entries.size < MAX_KEYS) return;
    let drop = this.entries.size / 2;
    for (const k of this.entries.keys()) {
      if (drop-- <= 0) break;
      this.entries.delete(k);
    }
  }
}
