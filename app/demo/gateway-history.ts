/**
 * The gateway's day before the demo started: the traffic of the last 24 hours, made up and fed to capture as the
 * proxy would have, so that the overview, usage and billing open on a day with its shape instead of one bar at the
 * right edge. Each request of the usual mix (request-mix.ts) gets the demo API's own answer (demo-api.ts, without
 * waiting out its latency) and the policy's decision for its route; the exchange goes on the bus under its past
 * time, and capture governs and stores it like any other: masked, labelled, metered, rolled up. A card
 * processor's bad twenty minutes in the afternoon shows as it would have.
 */
import { uuidv7 } from '@vigil/plugin-sdk';
import type { RawExchange } from '../../gateway/exchange/raw-exchange.js';
import type { CompiledPolicy } from '../../policies/compile.js';
import { extractLabels } from '../../policies/extract-labels.js';
import { receivedPath } from '../../policies/fold-path.js';
import { ProxyErrors } from '../../plugins/proxy/errors.js';
import { answerHeaders, answerRequest } from './demo-api.js';
import { loadAt } from './daily-load.js';
import { nextRequest, type PlannedRequest } from './request-mix.js';
import type { Random } from './random.js';

export const HISTORY_MS = 24 * 3_600_000;
/** Exchanges handed to capture at once. */
const CHUNK = 200;
/**
 * Exchanges handed over and not yet stored, at most: capture drops what passes its queue (capture.queue, 10,000), and
 * the live traffic shares that queue. Past it the history waits for capture to store.
 */
const IN_FLIGHT = 2_000;
/** How long the history waits for capture before it goes on all the same (a count that never catches up). */
const STALL_MS = 3_000;

export interface GatewayHistoryOptions {
  /** Decides each request, as the proxy does. */
  policy: Pick<CompiledPolicy, 'decide'>;
  /** Requests a second at the busiest hour of the day; the history follows the daily curve below it. */
  peakRate: number;
  /** Where the history ends: the demo's start (epoch ms). */
  now: number;
  /** Hands an exchange to capture (the runtime's bus, topic `gateway.exchange`). */
  publish(exchange: RawExchange): void;
  random?: Random;
  /** Records capture has stored since the history began (any traffic's): what paces the history. */
  stored(): number;
  /** Whether to stop (the demo is stopping). */
  stopped?: () => boolean;
}

/** Resolves once capture has stored all but IN_FLIGHT of `fed`, or has stored nothing more for STALL_MS. */
async function caughtUp(fed: number, stored: () => number, stopped: () => boolean): Promise<void> {
  let last = stored();
  let since = Date.now();
  while (fed - stored() > IN_FLIGHT && !stopped()) {
    await new Promise((r) => setTimeout(r, 25));
    const now = stored();
    if (now !== last) { last = now; since = Date.now(); } else if (Date.now() - since > STALL_MS) return;
  }
}

/** When the card processor had its bad twenty minutes: 14:20 local time, the last one before `now`. */
export function incidentWindow(now: number): { from: number; to: number } {
  const d = new Date(now);
  d.setHours(14, 20, 0, 0);
  const from = d.getTime() > now - 20 * 60_000 ? d.getTime() - 86_400_000 : d.getTime();
  return { from, to: from + 20 * 60_000 };
}

/** Request start times over the history, oldest first: per minute, the daily curve's share of `peakRate`, with noise. */
export function historyTimes(now: number, peakRate: number, random: Random = Math.random): number[] {
  const times: number[] = [];
  const start = now - HISTORY_MS;
  for (let minute = start; minute < now; minute += 60_000) {
    const mean = peakRate * 60 * loadAt(minute) * (0.8 + 0.4 * random());
    const n = Math.floor(mean) + (random() < mean % 1 ? 1 : 0);
    const slot = Math.min(60_000, now - minute);
    const inMinute = Array.from({ length: n }, () => minute + Math.floor(random() * slot)).sort((a, b) => a - b);
    times.push(...inMinute);
  }
  return times;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Node's rawHeaders (name, value, …) of a planned request, as a client would send them. */
function requestHeaders(req: PlannedRequest): string[] {
  const out = ['host', 'shop.example.com'];
  for (const [name, value] of Object.entries(req.headers)) out.push(name, value);
  if (req.body !== undefined) out.push('content-length', String(Buffer.byteLength(req.body)));
  return out;
}

/** The exchange the proxy would have published for `req` at `time`; undefined where the policy captures nothing. */
export function historyExchange(req: PlannedRequest, time: number, policy: Pick<CompiledPolicy, 'decide'>, incident: boolean): RawExchange | undefined {
  const decision = policy.decide(req.method, req.path);
  if (!decision.captureRequestBody && !decision.captureResponseBody && !decision.captureHeaders) return undefined;
  const answer = answerRequest({ method: req.method, target: req.path, authorization: req.headers.authorization, body: Buffer.from(req.body ?? '') }, incident);
  // A dropped connection is the gateway's 502, with its own error body, as the live traffic gets it.
  const reset = answer.reset === true;
  const status = reset ? 502 : answer.status;
  const error = reset ? ProxyErrors.UPSTREAM_UNREACHABLE : undefined;
  const body = reset
    ? JSON.stringify({ error: { code: ProxyErrors.UPSTREAM_UNREACHABLE, message: 'the upstream could not be reached (ECONNRESET)' } })
    : answer.body === undefined ? '' : JSON.stringify(answer.body);
  const headers = requestHeaders(req);
  const responseHeaders = Object.entries(reset ? { 'content-type': 'application/json' } : answerHeaders(answer)).flat();
  return {
    id: uuidv7(time),
    time,
    method: req.method,
    target: req.path,
    path: receivedPath(req.path),
    ruleIndexes: decision.ruleIndexes as number[],
    labels: extractLabels(decision, headers),
    requestHeaders: decision.captureHeaders ? headers : null,
    responseHeaders: decision.captureHeaders ? responseHeaders : null,
    status,
    durationMs: answer.delayMs + 1,
    requestBody: decision.captureRequestBody ? utf8(req.body ?? '') : null,
    requestTruncated: false,
    responseBody: decision.captureResponseBody ? utf8(body) : null,
    responseTruncated: false,
    error,
  };
}

/** Feeds the history to capture, oldest first, in paced chunks. Resolves with the number of exchanges handed over. */
export async function feedGatewayHistory(options: GatewayHistoryOptions): Promise<number> {
  const random = options.random ?? Math.random;
  const incident = incidentWindow(options.now);
  const times = historyTimes(options.now, options.peakRate, random);
  const stopped = options.stopped ?? (() => false);
  const base = options.stored();
  const stored = () => options.stored() - base;
  let fed = 0;
  for (let i = 0; i < times.length; i += CHUNK) {
    if (stopped()) break;
    for (const time of times.slice(i, i + CHUNK)) {
      const exchange = historyExchange(nextRequest(random), time, options.policy, time >= incident.from && time < incident.to);
      if (!exchange) continue;
      options.publish(exchange);
      fed++;
    }
    await new Promise((r) => setImmediate(r));
    await caughtUp(fed, stored, stopped);
  }
  return fed;
}
