import { isIP } from 'node:net';

export interface LockoutOptions {
  maxFailures: number;
  windowMs: number;
  /** Addresses tracked at most; the bound on memory whatever the number of clients. Default 10,000. */
  maxTracked?: number;
  now?: () => number;
}

interface Entry {
  failures: number;
  windowStart: number;
  lockedUntil: number;
}

function expandIPv6(address: string): string[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right];
}

/**
 * The key failures are counted under: an IPv4 address (also when it arrives IPv4-mapped), or the /64 prefix of an
 * IPv6 address, since one IPv6 client usually controls a whole /64 and could otherwise rotate addresses.
 */
export function lockoutKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address;
  const zoneless = address.split('%')[0];
  return `${expandIPv6(zoneless).slice(0, 4).map((h) => h.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * Counts failed authentications per client address. After `maxFailures` failures within `windowMs`, the address is
 * locked for `windowMs`. What a lock refuses, and which failures are counted at all, is the Authenticator's call
 * (authentication.ts): guessable secrets are refused, right or wrong, until the lock lifts.
 */
export class FailureLockout {
  private readonly entries = new Map<string, Entry>();
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly maxTracked: number;
  private readonly now: () => number;
  private lastSweep = 0;

  constructor(options: LockoutOptions) {
    this.maxFailures = options.maxFailures;
    this.windowMs = options.windowMs;
    this.maxTracked = options.maxTracked ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Seconds until the lock on `address` lifts (at least 1), or 0 when it is not locked. */
  lockedFor(address: string | undefined): number {
    const entry = this.entries.get(lockoutKey(address));
    if (!entry) return 0;
    const left = entry.lockedUntil - this.now();
    return left > 0 ? Math.max(1, Math.ceil(left / 1000)) : 0;
  }

  /** Records one failure. Returns true when this failure locked the address. */
  fail(address: string | undefined): boolean {
    const key = lockoutKey(address);
    const now = this.now();
    let entry = this.entries.get(key);
    if (entry) {
      if (entry.lockedUntil > now) return false;
      this.entries.delete(key);
      if (now - entry.windowStart >= this.windowMs) entry = undefined;
    }
    if (!entry) {
      this.makeRoom(now);
      entry = { failures: 0, windowStart: now, lockedUntil: 0 };
    }
    // Re-inserted on every failure, so Map order is oldest activity first, which is what eviction drops.
    this.entries.set(key, entry);
    entry.failures++;
    if (entry.failures >= this.maxFailures) {
      entry.lockedUntil = now + this.windowMs;
      return true;
    }
    return false;
  }

  /** Addresses currently tracked. */
  get size(): number {
    return this.entries.size;
  }

  private expired(entry: Entry, now: number): boolean {
    return entry.lockedUntil <= now && now - entry.windowStart >= this.windowMs;
  }

  private makeRoom(now: number): void {
    if (this.entries.size < this.maxTracked) return;
    // A full sweep is O(n); doing it at most once a second keeps a flood of new addresses O(1) per request.
    if (now - this.lastSweep >= 1000) {
      this.lastSweep = now;
      for (const [key, entry] of this.entries) if (this.expired(entry, now)) this.entries.delete(key);
    }
    while (this.entries.size >= this.maxTracked) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}
