import { HttpError, type Store } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import { LlmErrors } from '../errors.js';
import { DEFAULT_MIN_SAMPLES, judge, THRESHOLDS, type GateVerdict, type Thresholds } from './gate.js';
import { callStats } from './version-stats.js';

/** The gate's query, the same for the public API (`/api/v1/gate`) and the dashboard. */
export const gateQuery = {
  type: 'object',
  required: ['template'],
  properties: {
    template: { type: 'string', minLength: 1 },
    baseline: { type: 'string', pattern: '^(previous|[1-9][0-9]{0,8})$', default: 'previous' },
    candidate: { type: 'string', pattern: '^(latest|[1-9][0-9]{0,8})$', default: 'latest' },
    min_samples: { type: 'integer', minimum: 1, default: DEFAULT_MIN_SAMPLES },
    eval_definition_id: { type: 'string', description: 'min_score and max_score_drop use this eval definition\'s scores only.' },
    ...Object.fromEntries(THRESHOLDS.map((t) => [t, { type: 'number' }])),
  },
};

/**
 * The gate's verdict for the project, from a query validated against `gateQuery`; each version's avg_score comes from
 * the evaluators' scores (of `eval_definition_id` only when given).
 */
export async function gateVerdict(store: Store, scores: EvalScores, projectId: string, query: Record<string, unknown>): Promise<GateVerdict> {
  const q = query as Record<string, string | number | undefined>;
  const template = String(q.template);
  const known = (await store.query<{ version: number }>(
    `SELECT version FROM ${store.table('prompt_versions')} WHERE project_id = ? AND template = ? ORDER BY version`, [projectId, template])).map((r) => Number(r.version));
  if (!known.length) throw new HttpError(404, LlmErrors.VERSION_NOT_FOUND, `the project has no prompt template ${JSON.stringify(template)}`);
  const candidate = q.candidate === undefined || q.candidate === 'latest' ? known[known.length - 1] : Number(q.candidate);
  if (!known.includes(candidate)) throw new HttpError(400, LlmErrors.GATE, `template "${template}" has no version ${candidate}; it has ${known.join(', ')}`);
  const baseline = q.baseline === undefined || q.baseline === 'previous' ? known.filter((v) => v < candidate).pop() ?? null : Number(q.baseline);
  if (baseline !== null && !known.includes(baseline)) throw new HttpError(400, LlmErrors.GATE, `template "${template}" has no version ${baseline}; it has ${known.join(', ')}`);
  const definition = typeof q.eval_definition_id === 'string' ? { eval_definition_id: q.eval_definition_id } : {};
  const statsOf = async (v: number) => {
    const [stats, evals] = await Promise.all([
      callStats(store, 'project_id = ? AND template = ? AND version = ?', [projectId, template, v]),
      scores.summary({ project_id: projectId, template, version: v, ...definition }),
    ]);
    return { ...stats, avg_score: evals.avg_score };
  };
  const thresholds: Thresholds = {};
  for (const t of THRESHOLDS) if (q[t] !== undefined) thresholds[t] = Number(q[t]);
  return judge(template,
    baseline === null ? null : { version: baseline, stats: await statsOf(baseline) },
    { version: candidate, stats: await statsOf(candidate) },
    thresholds, Number(q.min_samples ?? DEFAULT_MIN_SAMPLES));
}
