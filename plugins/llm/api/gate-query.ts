import { httpError, type Store } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import { LlmErrors } from '../errors.js';
import { DEFAULT_MIN_SAMPLES, judge, THRESHOLDS, type GateVerdict, type Thresholds } from './gate.js';
import { LATEST } from '../prompts/label-name.js';
import { callStats } from './version-stats.js';

/** The gate's query, the same for the public API (`/api/v1/gate`) and the dashboard. */
export const gateQuery = {
  type: 'object',
  required: ['template'],
  properties: {
    template: { type: 'string', minLength: 1, maxLength: 256 },
    baseline: { type: 'string', pattern: '^(previous|[1-9][0-9]{0,8})$', default: 'previous' },
    candidate: { type: 'string', pattern: '^(latest|[1-9][0-9]{0,8})$', default: 'latest' },
    baseline_label: { type: 'string', maxLength: 64, description: 'The version this label names is the baseline (instead of `baseline`), e.g. production.' },
    candidate_label: { type: 'string', maxLength: 64, description: 'The version this label names is the candidate (instead of `candidate`), e.g. staging.' },
    min_samples: { type: 'integer', minimum: 1, default: DEFAULT_MIN_SAMPLES },
    eval_definition_id: { type: 'string', maxLength: 200, description: 'min_score and max_score_drop use this eval definition\'s scores only.' },
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
  // Version numbers have no gaps (prompt-versions.ts): the newest number says which exist, in one row however many.
  const [{ latest }] = await store.query<{ latest: number | null }>(
    `SELECT MAX(version) AS latest FROM ${store.table('prompt_versions')} WHERE project_id = ? AND template = ?`, [projectId, template]);
  if (latest === null) throw httpError(LlmErrors.VERSION_NOT_FOUND, `the project has no prompt template ${JSON.stringify(template)}`);
  const newest = Number(latest);
  const exists = (v: number) => v >= 1 && v <= newest;
  const unknown = (v: number) => httpError(LlmErrors.GATE, `template "${template}" has no version ${v}; it has ${newest === 1 ? 'version 1' : `versions 1 to ${newest}`}`);
  const labelled = async (label: unknown) => {
    if (typeof label !== 'string') return undefined;
    if (label === LATEST) return newest;
    const rows = await store.query<{ version: number }>(
      `SELECT version FROM ${store.table('prompt_labels')} WHERE project_id = ? AND template = ? AND label = ?`, [projectId, template, label]);
    if (!rows.length) throw httpError(LlmErrors.GATE, `template "${template}" has no version labelled "${label}"`);
    return Number(rows[0].version);
  };
  const candidate = await labelled(q.candidate_label) ?? (q.candidate === undefined || q.candidate === 'latest' ? newest : Number(q.candidate));
  if (!exists(candidate)) throw unknown(candidate);
  const baseline = await labelled(q.baseline_label)
    ?? (q.baseline === undefined || q.baseline === 'previous' ? (candidate > 1 ? candidate - 1 : null) : Number(q.baseline));
  if (baseline !== null && !exists(baseline)) throw unknown(baseline);
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
