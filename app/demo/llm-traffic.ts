/**
 * The demo's LLM traffic: the support team's calls (llm-calls.ts) sent to the control plane's `POST /v1/traces`, as an
 * application's client does: batched once a second, gzip-encoded, with the project key, one request at a time, a
 * batch that got no answer sent again with the same ids. First the history: the day before the demo, by the daily
 * curve of daily-load.ts, each call dated by its `start_time` (the server dates a trace by its call's time within a
 * week), in three eras as the team shipped the versions: v1 alone, then v2 rolled out, then v3 as a canary. An era is
 * sent once the server made the last one's versions (it numbers a template's versions in the order it first stores
 * them). Then a steady rate.
 *
 * It speaks the wire contract rather than using @vigil/llm-client: the server's layers (app/ included) never import a
 * client SDK (eslint.config.js), and the contract is what every client speaks.
 */
import { gzipSync } from 'node:zlib';
import { Pool } from 'undici';
import { loadAt } from './daily-load.js';
import { llmCall, TEMPLATES, type TemplateName, type TraceItem } from './llm-calls.js';
import { chance, pick, type Random } from './random.js';

export interface LlmTrafficOptions {
  /** The control plane's URL. */
  controlPlane: string;
  /** The project key, sent as X-Service-Project-Key. */
  key: string;
  /** LLM calls per second, on average, after the history (0: the history only). */
  rate: number;
  /** Called once the history (a day of calls) is accepted. */
  onHistory?(summary: { traces: number; ms: number }): void;
}

export interface LlmTrafficStats {
  /** Traces the server accepted (202). */
  accepted: number;
  /** Traces given up on: refused, or dropped when the queue was full. */
  dropped: number;
}

export interface LlmTraffic {
  stats(): LlmTrafficStats;
  /** Stops making calls, sends what waits (for a second at most), and closes the connection. */
  stop(): Promise<void>;
}

const FLUSH_MS = 1_000;
const TICK_MS = 250;
/** Calls held while the server does not answer; beyond it the oldest are dropped, as a client's bounded buffer does. */
const MAX_QUEUED = 5_000;
const BATCH = 200;
/** LLM calls a minute at the busiest hour of the history: about 1,300 over the day. */
const HISTORY_PEAK_PER_MINUTE = 2;
const HOUR_MS = 3_600_000;
export const LLM_HISTORY_MS = 24 * HOUR_MS;
/** How long the history waits for the server to have made a round's versions before it sends the next round. */
const VERSION_WAIT_MS = 5_000;

/** Which versions still run once the history is told: the newest mostly, the previous one still deployed here and there. */
const LIVE_VERSIONS: Record<TemplateName, readonly { version: number; weight: number }[]> = {
  'support-reply': [{ version: 1, weight: 0.05 }, { version: 2, weight: 0.45 }, { version: 3, weight: 0.5 }],
  'summarise-ticket': [{ version: 1, weight: 0.05 }, { version: 2, weight: 0.25 }, { version: 3, weight: 0.7 }],
};

type VersionMix = Record<TemplateName, readonly { version: number; weight: number }[]>;

/**
 * The eras of the history, oldest first, by how long before the demo each began: v1 alone, then v2 rolled out (v1
 * still deployed here and there), then v3 as a canary, mixed as the live traffic is.
 */
export const HISTORY_ERAS: readonly { since: number; mix: VersionMix }[] = [
  { since: 24 * HOUR_MS, mix: { 'support-reply': [{ version: 1, weight: 1 }], 'summarise-ticket': [{ version: 1, weight: 1 }] } },
  {
    since: 16 * HOUR_MS,
    mix: { 'support-reply': [{ version: 1, weight: 0.25 }, { version: 2, weight: 0.75 }], 'summarise-ticket': [{ version: 1, weight: 0.2 }, { version: 2, weight: 0.8 }] },
  },
  { since: 4 * HOUR_MS, mix: LIVE_VERSIONS },
];

const TEMPLATE_NAMES = Object.keys(TEMPLATES) as TemplateName[];
const templateOf = (random: Random): TemplateName => (chance(0.65, random) ? 'support-reply' : 'summarise-ticket');

/**
 * The calls of one era of the history, oldest first: per minute from `from` to `to`, the daily curve's share of
 * `peakPerMinute`. It opens with one call of each template in the era's newest version that succeeds, so that the
 * server makes the version even in a quiet hour.
 */
export function historyEra(mix: VersionMix, from: number, to: number, peakPerMinute = HISTORY_PEAK_PER_MINUTE, random: Random = Math.random): TraceItem[] {
  const calls = TEMPLATE_NAMES.map((t, i) => llmCall(t, Math.max(...mix[t].map((v) => v.version)), from + 5_000 * (i + 1), random, false));
  for (let minute = from; minute < to; minute += 60_000) {
    const mean = peakPerMinute * loadAt(minute);
    const n = Math.floor(mean) + (random() < mean % 1 ? 1 : 0);
    const slot = Math.min(60_000, to - minute);
    for (const at of Array.from({ length: n }, () => minute + Math.floor(random() * slot)).sort((a, b) => a - b)) {
      const template = templateOf(random);
      calls.push(llmCall(template, pick(mix[template], (v) => v.weight, random).version, at, random));
    }
  }
  return calls;
}

/** One call of the steady mix. */
export function liveCall(now: number): TraceItem {
  const template = templateOf(Math.random);
  return llmCall(template, pick(LIVE_VERSIONS[template], (v) => v.weight).version, now);
}

export function startLlmTraffic(options: LlmTrafficOptions): LlmTraffic {
  const pool = new Pool(options.controlPlane, { connections: 1, keepAliveTimeout: 10_000 });
  const stats: LlmTrafficStats = { accepted: 0, dropped: 0 };
  const queue: TraceItem[] = [];
  let sending: Promise<void> | undefined;
  let stopped = false;
  const startedAt = Date.now();

  const enqueue = (items: TraceItem[]): void => {
    queue.push(...items);
    if (queue.length > MAX_QUEUED) stats.dropped += queue.splice(0, queue.length - MAX_QUEUED).length;
  };

  /** Sends the queue in batches; a batch without an answer stays at the front and goes again next time. */
  async function send(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, BATCH);
      let status: number;
      try {
        const res = await pool.request({
          method: 'POST', path: '/v1/traces',
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-service-project-key': options.key, 'user-agent': 'vigil-demo/llm' },
          body: gzipSync(JSON.stringify({ traces: batch })),
        });
        status = res.statusCode;
        await res.body.dump();
      } catch {
        return;
      }
      if (status === 429 || status >= 500) return;
      queue.splice(0, batch.length);
      if (status === 202) stats.accepted += batch.length;
      else stats.dropped += batch.length;
    }
  }
  const flush = (): Promise<void> => (sending ??= send().finally(() => { sending = undefined; }));

  let owed = 0;
  const tick = (): void => {
    owed += options.rate * TICK_MS / 1000;
    const now = Date.now();
    const calls: TraceItem[] = [];
    for (; owed >= 1; owed--) calls.push(liveCall(now));
    if (calls.length) enqueue(calls);
  };

  let ticker: NodeJS.Timeout | undefined;
  let flusher: NodeJS.Timeout | undefined;
  /** Whether every template has at least `version` versions on the server, asked until it has or `VERSION_WAIT_MS` passed. */
  async function versionsMade(version: number): Promise<boolean> {
    const until = Date.now() + VERSION_WAIT_MS;
    while (!stopped && Date.now() < until) {
      try {
        const res = await pool.request({ method: 'GET', path: '/api/v1/prompt-templates', headers: { 'x-service-project-key': options.key } });
        const body = res.statusCode === 200 ? await res.body.json() as { data: { name: string; latest_version: number }[] } : (await res.body.dump(), undefined);
        const made = (Object.keys(TEMPLATES) as TemplateName[]).every((t) => (body?.data.find((d) => d.name === t)?.latest_version ?? 0) >= version);
        if (made) return true;
      } catch { /* asked again below */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  }

  const done = (async () => {
    let told = 0;
    let era = 0;
    for (; era < HISTORY_ERAS.length && !stopped; era++) {
      const { since, mix } = HISTORY_ERAS[era];
      const until = era + 1 < HISTORY_ERAS.length ? startedAt - HISTORY_ERAS[era + 1].since : startedAt;
      const calls = historyEra(mix, startedAt - since, until);
      told += calls.length;
      enqueue(calls);
      await flush();
      // Unanswered (the server is not there) or too slow to version: the steady traffic starts all the same.
      const newest = Math.max(...TEMPLATE_NAMES.flatMap((t) => mix[t].map((v) => v.version)));
      if (queue.length > 0 || !(await versionsMade(newest))) break;
    }
    if (stopped) return;
    if (era === HISTORY_ERAS.length) options.onHistory?.({ traces: told, ms: Date.now() - startedAt });
    if (options.rate > 0) ticker = setInterval(tick, TICK_MS);
    flusher = setInterval(() => { void flush(); }, FLUSH_MS);
  })();

  return {
    stats: () => ({ ...stats }),
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(ticker);
      clearInterval(flusher);
      await done;
      await Promise.race([flush(), new Promise((r) => setTimeout(r, 1_000).unref())]);
      await pool.destroy().catch(() => {});
    },
  };
}
