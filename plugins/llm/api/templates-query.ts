import { HttpError, type Store } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import { LlmErrors } from '../errors.js';
import { pageProperties } from './query-params.js';
import { unifiedDiff } from './unified-diff.js';
import { callStats, iso, type CallStats } from './version-stats.js';

type VersionRow = { template: string; version: number; hash: string; text: string; created_at: number };

const definitionProperty = { eval_definition_id: { type: 'string', description: 'avg_score of this eval definition only.' } };

/** The query of a template list, the same for the public API and the dashboard. */
export const templateListQuery = {
  type: 'object',
  properties: { ...pageProperties, ...definitionProperty },
};

/**
 * The query of one version: which version its diff is against (default: the one before it), and whose eval scores
 * its avg_score is.
 */
export const versionQuery = {
  type: 'object',
  properties: {
    against: { type: 'integer', minimum: 1, description: 'The version the diff is from; default n−1.' },
    ...definitionProperty,
  },
};

/** One version's stats as the API shows them: times as ISO 8601. */
function shown(stats: CallStats & { eval_samples: number }) {
  return { ...stats, first_seen: iso(stats.first_seen), last_seen: iso(stats.last_seen) };
}

/** A version's call stats with its average eval score (of one definition when `definition` is a string). */
async function statsOf(store: Store, scores: EvalScores, projectId: string, template: string, version: number, definition: unknown) {
  const [stats, evals] = await Promise.all([
    callStats(store, 'project_id = ? AND template = ? AND version = ?', [projectId, template, version]),
    scores.summary({ project_id: projectId, template, version, ...(typeof definition === 'string' ? { eval_definition_id: definition } : {}) }),
  ]);
  return { stats: { ...stats, avg_score: evals.avg_score, eval_samples: evals.samples }, evals };
}

/**
 * A page of the project's prompt templates by name, each with every version and its stats (avg_score of
 * `eval_definition_id` only when given).
 */
export async function listTemplates(store: Store, scores: EvalScores, projectId: string,
  page: { limit: number; offset: number }, definition?: unknown) {
  const versions = store.table('prompt_versions');
  const names = await store.query<{ template: string }>(
    `SELECT DISTINCT template FROM ${versions} WHERE project_id = ? ORDER BY template LIMIT ? OFFSET ?`, [projectId, page.limit, page.offset]);
  const data = [];
  for (const { template } of names) {
    const rows = await store.query<VersionRow>(
      `SELECT version, hash, created_at FROM ${versions} WHERE project_id = ? AND template = ? ORDER BY version`, [projectId, template]);
    const list = [];
    for (const r of rows) {
      const { stats } = await statsOf(store, scores, projectId, template, Number(r.version), definition);
      list.push({ version: Number(r.version), hash: r.hash, created_at: iso(Number(r.created_at)), ...shown(stats) });
    }
    data.push({ name: template, latest_version: list.length ? list[list.length - 1].version : null, versions: list });
  }
  return { data, ...page };
}

/**
 * One version of a template: its normalised text, its stats (with eval scores per definition), and a unified diff
 * from version `against` (default the one before it; null for the first version). 404 when the project has no such
 * template, version or `against`.
 */
export async function versionDetail(store: Store, scores: EvalScores, projectId: string, template: string, param: string,
  query: { against?: unknown; eval_definition_id?: unknown } = {}) {
  const n = Number(param);
  const against = query.against === undefined ? undefined : Number(query.against);
  const notFound = (what: string) => new HttpError(404, LlmErrors.VERSION_NOT_FOUND,
    `the project has no version ${what} of prompt template ${JSON.stringify(template)}`);
  if (!/^[1-9][0-9]{0,8}$/.test(param)) throw notFound(JSON.stringify(param));
  const from = against ?? n - 1;
  const rows = await store.query<VersionRow>(
    `SELECT version, hash, text, created_at FROM ${store.table('prompt_versions')} WHERE project_id = ? AND template = ? AND version IN (?, ?)`,
    [projectId, template, n, from]);
  const current = rows.find((r) => Number(r.version) === n);
  if (!current) throw notFound(String(n));
  const base = rows.find((r) => Number(r.version) === from);
  if (against !== undefined && !base) throw notFound(`${against} (against)`);
  const { stats, evals } = await statsOf(store, scores, projectId, template, n, query.eval_definition_id);
  return {
    template,
    version: n,
    hash: current.hash,
    created_at: iso(Number(current.created_at)),
    text: current.text,
    previous_version: n > 1 ? n - 1 : null,
    against: base ? from : null,
    diff: base ? unifiedDiff(base.text, current.text, { from: `${template} v${from}`, to: `${template} v${n}` }) : null,
    stats: shown(stats),
    eval_scores: evals.by_definition,
  };
}
