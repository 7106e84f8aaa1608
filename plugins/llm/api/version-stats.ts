import type { SqlValue, Store } from '@vigil/plugin-sdk';

/** What the prompts page, the gate and the stats compare, for any set of traces (a version, a time range). */
export interface CallStats {
  requests: number;
  errors: number;
  /** errors / requests; 0 without requests. */
  error_rate: number;
  /** Average eval score (0..1): null here; the routes fill it from the evaluators' scores (eval-scores.ts). */
  avg_score: number | null;
  p50_latency_ms: number | null;
  p95_latency_ms: number | null;
  p99_latency_ms: number | null;
  /** USD, summed over the calls with a known cost. */
  cost_usd: number;
  /** USD per call with a known cost; null when none has one. */
  avg_cost_usd: number | null;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** Epoch ms of the first and last call; null without calls. */
  first_seen: number | null;
  last_seen: number | null;
}

type Sums = Record<string, number | string | null>;

/** The quantiles the stats show, in percent. */
const QUANTILES = [50, 95, 99] as const;

/**
 * The 1-based rank of quantile `pct` % among `n` sorted values (nearest rank: ceil(pct·n/100)), in integers, so that
 * this and the SQL of `versionCallStats` agree for every n.
 */
const rankOf = (pct: number, n: number): number => Math.max(1, Math.floor((pct * n + 99) / 100));

/**
 * The latency at quantile `pct` % (nearest rank) of the traces matching `where`, exact: the database sorts and hands
 * back one row. `latency_ms` is null for calls that reported none; they are not counted.
 */
export async function latencyQuantile(store: Store, where: string, params: readonly SqlValue[], timed: number, pct: number): Promise<number | null> {
  if (timed === 0) return null;
  const rows = await store.query<{ latency_ms: number }>(
    `SELECT latency_ms FROM ${store.table('traces')} WHERE ${where} AND latency_ms IS NOT NULL ORDER BY latency_ms LIMIT 1 OFFSET ?`, [...params, rankOf(pct, timed) - 1]);
  return rows.length ? Number(rows[0].latency_ms) : null;
}

const SUMS = `COUNT(*) AS requests, SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS errors, COUNT(latency_ms) AS timed,
       SUM(cost_usd) AS cost, COUNT(cost_usd) AS priced, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
       SUM(total_tokens) AS total_tokens, MIN(created_at) AS first_seen, MAX(created_at) AS last_seen`;

/** Stats from one row of SUMS, with the latencies at QUANTILES. */
function statsOf(s: Sums, latencies: readonly (number | null)[]): CallStats {
  const n = (v: unknown) => Number(v ?? 0);
  const requests = n(s.requests);
  const priced = n(s.priced);
  return {
    requests,
    errors: n(s.errors),
    error_rate: requests ? n(s.errors) / requests : 0,
    avg_score: null,
    p50_latency_ms: latencies[0],
    p95_latency_ms: latencies[1],
    p99_latency_ms: latencies[2],
    cost_usd: n(s.cost),
    avg_cost_usd: priced ? n(s.cost) / priced : null,
    input_tokens: n(s.input_tokens),
    output_tokens: n(s.output_tokens),
    total_tokens: n(s.total_tokens),
    first_seen: s.first_seen === null || s.first_seen === undefined ? null : n(s.first_seen),
    last_seen: s.last_seen === null || s.last_seen === undefined ? null : n(s.last_seen),
  };
}

/** Stats of the traces matching `where` (which must name the project). */
export async function callStats(store: Store, where: string, params: readonly SqlValue[]): Promise<CallStats> {
  const [s] = await store.query<Sums>(`SELECT ${SUMS} FROM ${store.table('traces')} WHERE ${where}`, params);
  const timed = Number(s.timed ?? 0);
  return statsOf(s, await Promise.all(QUANTILES.map((q) => latencyQuantile(store, where, params, timed, q))));
}

/**
 * Stats of each of `versions` of one template, in two reads whatever their number: the sums grouped by version, and
 * the quantiles from one ranking of the latencies per version (a window function). A version without traces gets
 * the stats of none.
 */
export async function versionCallStats(store: Store, projectId: string, template: string, versions: readonly number[]): Promise<Map<number, CallStats>> {
  const out = new Map<number, CallStats>();
  if (!versions.length) return out;
  const traces = store.table('traces');
  const where = `project_id = ? AND template = ? AND version IN (${versions.map(() => '?').join(', ')})`;
  const params = [projectId, template, ...versions];
  const sums = await store.query<Sums & { version: number | string }>(`SELECT version, ${SUMS} FROM ${traces} WHERE ${where} GROUP BY version`, params);
  const ranked = await store.query<{ version: number | string; rn: number | string; timed: number | string; latency_ms: number }>(
    `SELECT version, rn, timed, latency_ms FROM (
       SELECT version, latency_ms, ROW_NUMBER() OVER (PARTITION BY version ORDER BY latency_ms) AS rn, COUNT(*) OVER (PARTITION BY version) AS timed
       FROM ${traces} WHERE ${where} AND latency_ms IS NOT NULL) ranked
     WHERE ${QUANTILES.map((q) => `rn = (${q} * timed + 99) / 100`).join(' OR ')}`, params);
  const latencies = new Map<number, Map<number, number>>();
  for (const r of ranked) {
    const byRank = latencies.get(Number(r.version)) ?? new Map<number, number>();
    byRank.set(Number(r.rn), Number(r.latency_ms));
    latencies.set(Number(r.version), byRank);
  }
  const bySums = new Map(sums.map((s) => [Number(s.version), s]));
  for (const v of versions) {
    const s = bySums.get(v) ?? { requests: 0, timed: 0, first_seen: null, last_seen: null };
    const timed = Number(s.timed ?? 0);
    out.set(v, statsOf(s, QUANTILES.map((q) => (timed ? latencies.get(v)?.get(rankOf(q, timed)) ?? null : null))));
  }
  return out;
}

/**
 * P95 and P99 latency (nearest rank, as `callStats`) of each time slot of the traces matching `where`: slot n holds
 * `first + n·step ≤ created_at < first + (n+1)·step`. One read: the database ranks the latencies per slot and hands
 * back the two rows of each. `first` and `step` are the server's own integers, never the request's.
 */
export async function slotQuantiles(store: Store, where: string, params: readonly SqlValue[], first: number, step: number): Promise<Map<number, { p95: number; p99: number }>> {
  const slot = `(created_at - ${Math.trunc(first)}) / ${Math.trunc(step)}`;
  const rows = await store.query<{ slot: number | string; rn: number | string; timed: number | string; latency_ms: number }>(
    `SELECT slot, rn, timed, latency_ms FROM (
       SELECT ${slot} AS slot, latency_ms, ROW_NUMBER() OVER (PARTITION BY ${slot} ORDER BY latency_ms) AS rn, COUNT(*) OVER (PARTITION BY ${slot}) AS timed
       FROM ${store.table('traces')} WHERE ${where} AND latency_ms IS NOT NULL) ranked
     WHERE rn = (95 * timed + 99) / 100 OR rn = (99 * timed + 99) / 100`, params);
  const out = new Map<number, { p95: number; p99: number }>();
  for (const r of rows) {
    const n = Math.floor(Number(r.slot));
    const timed = Number(r.timed);
    const q = out.get(n) ?? { p95: 0, p99: 0 };
    if (Number(r.rn) === rankOf(95, timed)) q.p95 = Number(r.latency_ms);
    if (Number(r.rn) === rankOf(99, timed)) q.p99 = Number(r.latency_ms);
    out.set(n, q);
  }
  return out;
}

/** A time as the API writes it: ISO 8601, or null. */
export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
