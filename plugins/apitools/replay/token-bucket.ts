// The replay's rate limit: a token bucket refilled at `perSecond`, holding at most `burst` tokens (1 by default, so
// requests leave evenly spaced and a staging server never sees a burst it would not see from a steady client).

export class TokenBucket {
  private readonly intervalMs: number;
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(perSecond: number, private readonly burst = 1, private readonly now: () => number = () => performance.now()) {
    this.intervalMs = 1000 / perSecond;
    this.tokens = burst;
    this.last = now();
  }

  /** Resolves when a token is taken. Callers are served in the order they asked. */
  take(): Promise<void> {
    const turn = this.queue.then(() => this.wait());
    this.queue = turn;
    return turn;
  }

  private async wait(): Promise<void> {
    for (;;) {
      const now = this.now();
      this.tokens = Math.min(this.burst, this.tokens + (now - this.last) / this.intervalMs);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await new Promise((r) => setTimeout(r, Math.ceil((1 - this.tokens) * this.intervalMs)));
    }
  }
}

/** `20/s`, `600/m`, `3600/h` or a bare number (per second) as requests per second; undefined when malformed or not positive. */
export function parseRate(text: string): number | undefined {
  const m = /^([0-9]+(?:\.[0-9]+)?)(?:\/(s|m|h))?$/.exec(text.trim());
  if (!m) return undefined;
  const seconds = { s: 1, m: 60, h: 3600 }[(m[2] ?? 's') as 's' | 'm' | 'h'];
  const perSecond = Number(m[1]) / seconds;
  return perSecond > 0 && Number.isFinite(perSecond) ? perSecond : undefined;
}
