import { HttpError, httpError, type RouteContext, type Store } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import { LlmErrors } from '../errors.js';
import { pageProperties } from './query-params.js';
import { DIFF_LIMITS } from './unified-diff.js';
import { VersionDiffs } from './version-diff.js';
import { callStats, iso, versionCallStats, type CallStats } from './version-stats.js';

type VersionRow = { template: string; version: number; hash: string; text: string; created_at: number };

const definitionProperty = { eval_definition_id: { type: 'string', maxLength: 200, description: 'avg_score of this eval definition only.' } };

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

/** The diffs of this process: the public API's and the dashboard's share them, and their cache. */
const sharedDiffs = new VersionDiffs();

/** What the version route says of its diff's bounds, for the API listing. */
export const VERSION_DESCRIPTION = 'The diff is bounded: two versions too different or too long to diff inline (more than '
  + `${DIFF_LIMITS.maxEdits.toLocaleString('en-US')} lines changed, a text over ${DIFF_LIMITS.maxChars.toLocaleString('en-US')} characters, `
  + 'or past the diff\'s work budget) are answered with `diff: null`, `too_large: true`, and `diff_omitted` (code '
  + `${LlmErrors.DIFF_TOO_LARGE}, the reason, and the paths of both texts to download).`;

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
 * Versions of each template a list shows, the newest; `version_count` says how many it has, and any version is read
 * by number (`…/versions/:n`). A page costs at most four reads per template (the versions, their sums, their latency
 * quantiles, their eval scores), whatever the number of versions.
 */
export const MAX_LISTED_VERSIONS = 20;

/**
 * A page of the project's prompt templates by name, each with its newest MAX_LISTED_VERSIONS versions (oldest first)
 * and their stats (avg_score of `eval_definition_id` only when given).
 */
export async function listTemplates(store: Store, scores: EvalScores, projectId: string,
  page: { limit: number; offset: number }, definition?: unknown) {
  const versions = store.table('prompt_versions');
  const names = await store.query<{ template: string; n: number | string }>(
    `SELECT template, COUNT(*) AS n FROM ${versions} WHERE project_id = ? GROUP BY template ORDER BY template LIMIT ? OFFSET ?`,
    [projectId, page.limit, page.offset]);
  const data = [];
  for (const { template, n } of names) {
    const rows = (await store.query<VersionRow>(
      `SELECT version, hash, created_at FROM ${versions} WHERE project_id = ? AND template = ? ORDER BY version DESC LIMIT ${MAX_LISTED_VERSIONS}`,
      [projectId, template])).reverse();
    const numbers = rows.map((r) => Number(r.version));
    const [stats, evals] = await Promise.all([
      versionCallStats(store, projectId, template, numbers),
      scores.summaryByVersion({ project_id: projectId, template, versions: numbers, ...(typeof definition === 'string' ? { eval_definition_id: definition } : {}) }),
    ]);
    const list = rows.map((r) => {
      const v = Number(r.version);
      const e = evals.get(v);
      return { version: v, hash: r.hash, created_at: iso(Number(r.created_at)), ...shown({ ...stats.get(v)!, avg_score: e?.avg_score ?? null, eval_samples: e?.samples ?? 0 }) };
    });
    data.push({ name: template, latest_version: list.length ? list[list.length - 1].version : null, version_count: Number(n), versions: list });
  }
  return { data, ...page };
}

/**
 * One version of a template: its normalised text, its stats (with eval scores per definition), and a unified diff
 * from version `against` (default the one before it; null for the first version), or, for versions too different to
 * diff inline, `too_large` with the paths (`textPath`) of both texts. 404 when the project has no such template,
 * version or `against`.
 */
export async function versionDetail(store: Store, scores: EvalScores, projectId: string, template: string, param: string,
  query: { against?: unknown; eval_definition_id?: unknown } = {},
  textPath: (version: number) => string = (v) => publicTextPath(template, v), diffs: VersionDiffs = sharedDiffs) {
  const n = Number(param);
  const against = query.against === undefined ? undefined : Number(query.against);
  if (!/^[1-9][0-9]{0,8}$/.test(param)) throw versionNotFound(template, JSON.stringify(param));
  const from = against ?? n - 1;
  const rows = await store.query<VersionRow>(
    `SELECT version, hash, text, created_at FROM ${store.table('prompt_versions')} WHERE project_id = ? AND template = ? AND version IN (?, ?)`,
    [projectId, template, n, from]);
  const current = rows.find((r) => Number(r.version) === n);
  if (!current) throw versionNotFound(template, String(n));
  const base = rows.find((r) => Number(r.version) === from);
  if (against !== undefined && !base) throw versionNotFound(template, `${against} (against)`);
  const { stats, evals } = await statsOf(store, scores, projectId, template, n, query.eval_definition_id);
  const side = (r: VersionRow) => ({ version: Number(r.version), hash: r.hash, text: r.text });
  return {
    template,
    version: n,
    hash: current.hash,
    created_at: iso(Number(current.created_at)),
    text: current.text,
    previous_version: n > 1 ? n - 1 : null,
    against: base ? from : null,
    ...(base ? diffs.answer(projectId, template, side(base), side(current), textPath) : { diff: null, too_large: false, diff_omitted: null }),
    stats: shown(stats),
    eval_scores: evals.by_definition,
  };
}

/** The public API's path of a version's text (`GET …/versions/:n/text`). */
export const publicTextPath = (template: string, version: number): string =>
  `/api/v1/prompt-templates/${encodeURIComponent(template)}/versions/${version}/text`;

function versionNotFound(template: string, what: string): HttpError {
  return httpError(LlmErrors.VERSION_NOT_FOUND, `the project has no version ${what} of prompt template ${JSON.stringify(template)}`);
}

/**
 * A version's normalised text as a download (`text/plain`, attachment named after the template and version): what a
 * diff too large to show inline points to. 404 when the project has no such version.
 */
export async function versionText(store: Store, projectId: string, template: string, param: string, ctx: RouteContext): Promise<Buffer> {
  if (!/^[1-9][0-9]{0,8}$/.test(param)) throw versionNotFound(template, JSON.stringify(param));
  const rows = await store.query<{ text: string }>(
    `SELECT text FROM ${store.table('prompt_versions')} WHERE project_id = ? AND template = ? AND version = ?`, [projectId, template, Number(param)]);
  if (!rows.length) throw versionNotFound(template, param);
  const file = `${template}-v${param}.txt`;
  // An ASCII fallback name, and the exact one in RFC 5987's encoding for clients that read it.
  ctx.set('Content-Disposition', `attachment; filename="${file.replace(/[^A-Za-z0-9._-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file)}`);
  ctx.type = 'text/plain; charset=utf-8';
  return Buffer.from(rows[0].text);
}
