import type { Store } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import { callStats, iso, slotQuantiles } from './version-stats.js';

/** Each range with the bucket of its series: 60, 96, 168 and 120 points. */
export const STATS_RANGES = {
  '1h': { ms: 3_600_000, step: 60_000 },
  '24h': { ms: 86_400_000, step: 900_000 },
  '7d': { ms: 604_800_000, step: 3_600_000 },
  '30d': { ms: 2_592_000_000, step: 21_600_000 },
} as const;
export type StatsRange = keyof typeof STATS_RANGES;

export const STATS_DESCRIPTION = 'Eval scores are of the traces made in the range; `eval` holds the evals\' own cost (judge and embedding tokens), never part of `cost_usd`.';

/** The stats query, the same for the public API (`/api/v1/stats`) and the dashboard. */
export const statsQuery = {
  type: 'object',
  properties: {
    range: { enum: Object.keys(STATS_RANGES), default: '24h', description: 'Ending now; the series step is 1 min, 15 min, 1 h or 6 h.' },
    eval_definition_id: { type: 'string', maxLength: 200, description: 'Eval scores of this definition only.' },
  },
};

type SeriesRow = Record<string, number | string | null>;

/**
 * The project's figures over the range ending now, with a time series at the range's step, from a query validated
 * against `statsQuery`. Eval scores come from the evaluators' source (of `eval_definition_id` only when given).
 */
export async function projectStats(store: Store, scores: EvalScores, projectId: string, query: Record<string, unknown>, now = Date.now()) {
  const name = String(query.range ?? '24h') as StatsRange;
  const { ms, step } = STATS_RANGES[name];
  const to = now;
  const from = to - ms;
  const where = 'project_id = ? AND created_at >= ? AND created_at < ?';
  const params = [projectId, from, to];
  const scope = { project_id: projectId, from, to, ...(typeof query.eval_definition_id === 'string' ? { eval_definition_id: query.eval_definition_id } : {}) };
  const [total, evals] = await Promise.all([callStats(store, where, params), scores.summary(scope)]);
  const first = from - (from % step);
  const rows = await store.query<SeriesRow>(
    // Integer literals, not parameters: a bound JavaScript number past 32 bits is a REAL to SQLite, and the
    // division would not truncate. Both are computed here, never taken from the request.
    `SELECT (created_at - ${first}) / ${step} AS slot, COUNT(*) AS requests, SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS errors,
       SUM(total_tokens) AS tokens, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens, SUM(cost_usd) AS cost,
       AVG(latency_ms) AS avg_latency
     FROM ${store.table('traces')} WHERE ${where} GROUP BY (created_at - ${first}) / ${step}`, params);
  const bySlot = new Map(rows.map((r) => [Math.floor(Number(r.slot)), r]));
  const [scoreBySlot, quantiles] = await Promise.all([scores.series({ ...scope, from: first }, step), slotQuantiles(store, where, params, first, step)]);
  const series = [];
  for (let t = first, slot = 0; t < to; t += step, slot++) {
    const r = bySlot.get(slot);
    const requests = Number(r?.requests ?? 0);
    const errors = Number(r?.errors ?? 0);
    series.push({
      time: iso(t), requests, errors, error_rate: requests ? errors / requests : 0, tokens: Number(r?.tokens ?? 0),
      input_tokens: Number(r?.input_tokens ?? 0), output_tokens: Number(r?.output_tokens ?? 0),
      cost_usd: Number(r?.cost ?? 0), avg_latency_ms: r?.avg_latency == null ? null : Number(r.avg_latency),
      p95_latency_ms: quantiles.get(slot)?.p95 ?? null, p99_latency_ms: quantiles.get(slot)?.p99 ?? null, avg_score: scoreBySlot.get(slot) ?? null,
    });
  }
  return {
    range: name, from: iso(from), to: iso(to), step_ms: step,
    requests: total.requests, errors: total.errors, error_rate: total.error_rate,
    latency_ms: { p50: total.p50_latency_ms, p95: total.p95_latency_ms, p99: total.p99_latency_ms },
    tokens: { input: total.input_tokens, output: total.output_tokens, total: total.total_tokens },
    cost_usd: total.cost_usd,
    eval_score_avg: evals.avg_score,
    eval: { score_avg: evals.avg_score, samples: evals.samples, failed: evals.failed, skipped: evals.skipped, cost: evals.cost, by_definition: evals.by_definition },
    series,
  };
}
