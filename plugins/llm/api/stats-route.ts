import type { HttpRoutes, Store } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { callStats, iso } from './version-stats.js';

/** Each range with the bucket of its series: 60, 96, 168 and 120 points. */
export const STATS_RANGES = {
  '1h': { ms: 3_600_000, step: 60_000 },
  '24h': { ms: 86_400_000, step: 900_000 },
  '7d': { ms: 604_800_000, step: 3_600_000 },
  '30d': { ms: 2_592_000_000, step: 21_600_000 },
} as const;

type SeriesRow = Record<string, number | string | null>;

export function registerStatsRoute(http: HttpRoutes, store: Store, scores: EvalScores): void {
  const traces = store.table('traces');
  http.route({
    method: 'GET', path: '/api/v1/stats', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'Aggregate statistics of the key\'s project over a range: requests, errors, latency percentiles, tokens, cost, eval score, and a time series',
    description: 'Eval scores are of the traces made in the range; `eval` holds the evals\' own cost (judge and embedding tokens), never part of `cost_usd`.',
    query: {
      type: 'object',
      properties: {
        range: { enum: Object.keys(STATS_RANGES), default: '24h', description: 'Ending now; the series step is 1 min, 15 min, 1 h or 6 h.' },
        eval_definition_id: { type: 'string', description: 'Eval scores of this definition only.' },
      },
    },
    async handler(ctx) {
      const project = projectOf(ctx);
      const name = String(ctx.query.range ?? '24h') as keyof typeof STATS_RANGES;
      const { ms, step } = STATS_RANGES[name];
      const to = Date.now();
      const from = to - ms;
      const where = 'project_id = ? AND created_at >= ? AND created_at < ?';
      const params = [project.id, from, to];
      const scope = { project_id: project.id, from, to, ...(typeof ctx.query.eval_definition_id === 'string' ? { eval_definition_id: ctx.query.eval_definition_id } : {}) };
      const [total, evals] = await Promise.all([callStats(store, where, params), scores.summary(scope)]);
      const first = from - (from % step);
      const rows = await store.query<SeriesRow>(
        // Integer literals, not parameters: a bound JavaScript number past 32 bits is a REAL to SQLite, and the
        // division would not truncate. Both are computed here, never taken from the request.
        `SELECT (created_at - ${first}) / ${step} AS slot, COUNT(*) AS requests, SUM(CASE WHEN status = 'error' THEN 1 ELSE 0 END) AS errors,
           SUM(total_tokens) AS tokens, SUM(cost_usd) AS cost, AVG(latency_ms) AS avg_latency
         FROM ${traces} WHERE ${where} GROUP BY (created_at - ${first}) / ${step}`, params);
      const bySlot = new Map(rows.map((r) => [Math.floor(Number(r.slot)), r]));
      const scoreBySlot = await scores.series({ ...scope, from: first }, step);
      const series = [];
      for (let t = first, slot = 0; t < to; t += step, slot++) {
        const r = bySlot.get(slot);
        const requests = Number(r?.requests ?? 0);
        const errors = Number(r?.errors ?? 0);
        series.push({
          time: iso(t), requests, errors, error_rate: requests ? errors / requests : 0, tokens: Number(r?.tokens ?? 0),
          cost_usd: Number(r?.cost ?? 0), avg_latency_ms: r?.avg_latency == null ? null : Number(r.avg_latency), avg_score: scoreBySlot.get(slot) ?? null,
        });
      }
      return {
        range: name, from: iso(from), to: iso(to), step_ms: step,
        requests: total.requests, errors: total.errors, error_rate: total.error_rate,
        latency_ms: { p50: total.p50_latency_ms, p95: total.p95_latency_ms, p99: total.p99_latency_ms },
        tokens: { input: total.input_tokens, output: total.output_tokens, total: total.total_tokens },
        cost_usd: total.cost_usd,
        eval_score_avg: evals.avg_score,
        eval: { score_avg: evals.avg_score, samples: evals.samples, failed: evals.failed, cost: evals.cost, by_definition: evals.by_definition },
        series,
      };
    },
  });
}
