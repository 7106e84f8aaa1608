/**
 * The demo's load: a first burst that fills the dashboard within seconds, then a steady rate that swells and ebbs
 * over a few minutes, with a rush now and then. Requests go through the gateway like any client's, on one
 * keep-alive pool; when too many are in flight, the next ones are skipped rather than queued, so a slow upstream
 * minute never piles up work.
 */
import { Pool } from 'undici';
import { nextRequest, showcase, type PlannedRequest } from './request-mix.js';
import { chance } from './random.js';
import { loadAt } from './daily-load.js';

export interface TrafficOptions {
  /** The gateway's URL. */
  target: string;
  /** Requests per second at the busiest hour of the day, after the burst. */
  rate: number;
  /** Requests in the first burst (0: none). */
  burst: number;
  /** Called once the burst has been answered. */
  onBurst?(summary: { requests: number; ms: number }): void;
}

export interface TrafficStats {
  sent: number;
  /** By status class (`2xx`…), and `failed` for requests that got no answer. */
  answers: Record<string, number>;
  /** Requests not sent because too many were in flight. */
  skipped: number;
}

export interface Traffic {
  stats(): TrafficStats;
  /** Stops sending and aborts the requests in flight. */
  stop(): Promise<void>;
}

const MAX_IN_FLIGHT = 48;
const BURST_CONCURRENCY = 16;
const TICK_MS = 200;

/**
 * How busy the shop is at `t` ms after start, as a share of the rate: the hour of the day (daily-load.ts, as the
 * history), a slow wave over four minutes and, now and then, a rush.
 */
function load(t: number, now: number, rush: boolean): number {
  return loadAt(now) * (1 + 0.4 * Math.sin((2 * Math.PI * t) / 240_000)) * (rush ? 3 : 1);
}

export function startTraffic(options: TrafficOptions): Traffic {
  const pool = new Pool(options.target, { connections: MAX_IN_FLIGHT, keepAliveTimeout: 10_000 });
  const stats: TrafficStats = { sent: 0, answers: {}, skipped: 0 };
  let inFlight = 0;
  let stopped = false;

  async function send(req: PlannedRequest): Promise<void> {
    inFlight++;
    stats.sent++;
    try {
      const res = await pool.request({ method: req.method, path: req.path, headers: req.headers, body: req.body });
      await res.body.dump();
      const cls = `${Math.floor(res.statusCode / 100)}xx`;
      stats.answers[cls] = (stats.answers[cls] ?? 0) + 1;
    } catch {
      if (!stopped) stats.answers.failed = (stats.answers.failed ?? 0) + 1;
    } finally {
      inFlight--;
    }
  }

  async function burst(): Promise<void> {
    const t0 = Date.now();
    // The showcase first, so that each of the policy's rules has a record within the first second.
    const queue = [...showcase(), ...Array.from({ length: Math.max(0, options.burst - 20) }, () => nextRequest())].slice(0, options.burst);
    const workers = Array.from({ length: BURST_CONCURRENCY }, async () => {
      for (let req = queue.shift(); req && !stopped; req = queue.shift()) await send(req);
    });
    await Promise.all(workers);
    if (!stopped) options.onBurst?.({ requests: options.burst, ms: Date.now() - t0 });
  }

  const startedAt = Date.now();
  let rushUntil = 0;
  let owed = 0;
  const tick = (): void => {
    const now = Date.now();
    // A rush every two minutes or so, lasting five to twelve seconds.
    if (now > rushUntil && chance(TICK_MS / 120_000)) rushUntil = now + 5_000 + Math.random() * 7_000;
    owed += (options.rate * TICK_MS / 1000) * load(now - startedAt, now, now < rushUntil);
    for (; owed >= 1; owed--) {
      if (inFlight >= MAX_IN_FLIGHT) { stats.skipped++; continue; }
      void send(nextRequest());
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const done = (options.burst > 0 ? burst() : Promise.resolve()).then(() => {
    if (!stopped && options.rate > 0) timer = setInterval(tick, TICK_MS);
  });

  return {
    stats: () => ({ ...stats, answers: { ...stats.answers } }),
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearInterval(timer);
      await pool.destroy().catch(() => {});
      await done;
    },
  };
}
