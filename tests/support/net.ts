import { createServer } from 'node:net';

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A test's deadline stretched for a busy machine: times `TEST_TIMEOUT_SCALE` (default 3 when CI=true, else 1). A
 * deadline only bounds how long a failing wait lasts, so a longer one costs nothing when the condition comes true;
 * CI machines run two test files at once beside PostgreSQL and Chromium, and a vigil process that starts in 1 s
 * quiet can take 20 s there.
 */
export function scaledTimeout(ms: number): number {
  const scale = Number(process.env.TEST_TIMEOUT_SCALE ?? (process.env.CI === 'true' ? 3 : 1));
  return Number.isFinite(scale) && scale > 0 ? Math.round(ms * scale) : ms;
}

/** Polls `fn` until it returns a truthy value or the deadline (stretched by `scaledTimeout`) passes. */
export async function waitFor<T>(fn: () => Promise<T> | T, { timeoutMs = 10_000, intervalMs = 25, what = 'condition' } = {}): Promise<T> {
  timeoutMs = scaledTimeout(timeoutMs);
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) { lastError = err; }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
