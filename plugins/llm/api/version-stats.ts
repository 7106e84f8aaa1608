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

/**
 * The latency at quantile `q` (nearest rank) of the traces matching `where`, exact: the database sorts and hands back
 * one row. `latency_ms` is null for calls that reported none; they are not counted.
 */
export async function latencyQuantile(store: Store, where: string, params: readonly SqlValue[], timed: number, q: number): Promise<number | null> {
  if (timed === 0) return null;
  const rank = Math.max(0, Math.ceil(q * timed) - 1);
  const rows = await store.query<{ latency_ms: number }>(
    `SELECT latency_ms FROM ${store.table('traces')} WHERE ${where} AND latency_ms IS NOT NULL ORDER BY latency_ms LIMIT 1 OFFSET ?`, [...params, rank]);
  return rows.length ? Number(rows[0].latency_ms) : null;
}

/** Stats of the traces matching `where` (which must name the project). */
export async function callStats(store: Store, where: string, params: readonly SqlValue[]): Promise<CallStats> {
  const [s] = await store.query<Sums>(
    `SELECT COUNT(*) AS requests, SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS errors, COUNT(latency_ms) AS timed,
       SUM(cost_usd) AS cost, COUNT(cost_usd) AS priced, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
       SUM(total_tokens) AS total_tokens, MIN(created_at) AS first_seen, MAX(created_at) AS last_seen
     FROM ${store.table('traces')} WHERE ${where}`, params);
  const n = (v: unknown) => Number(v ?? 0);
  const requests = n(s.requests);
  const timed = n(s.timed);
  const [p50, p95, p99] = await Promise.all([0.5, 0.95, 0.99].map((q) => latencyQuantile(store, where, params, timed, q)));
  const priced = n(s.priced);
  return {
    requests,
    errors: n(s.errors),
    error_rate: requests ? n(s.errors) / requests : 0,
    avg_score: null,
    p50_latency_ms: p50,
    p95_latency_ms: p95,
    p99_latency_ms: p99,
    cost_usd: n(s.cost),
    avg_cost_usd: priced ? n(s.cost) / priced : null,
    input_tokens: n(s.input_tokens),
    output_tokens: n(s.output_tokens),
    total_tokens: n(s.total_tokens),
    first_seen: s.first_seen === null ? null : n(s.first_seen),
    last_seen: s.last_seen === null ? null : n(s.last_seen),
  };
}

/** A time as the API writes it: ISO 8601, or null. */
export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
