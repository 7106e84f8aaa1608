import { HttpError, type Store } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';
import { unifiedDiff } from './unified-diff.js';
import { callStats, iso, type CallStats } from './version-stats.js';

type VersionRow = { template: string; version: number; hash: string; text: string; created_at: number };

/** The query of one version: which version its diff is against (default: the one before it). */
export const versionQuery = {
  type: 'object',
  properties: { against: { type: 'integer', minimum: 1, description: 'The version the diff is from; default n−1.' } },
};

/** One version's stats as the API shows them: times as ISO 8601. */
function shown(stats: CallStats) {
  return { ...stats, first_seen: iso(stats.first_seen), last_seen: iso(stats.last_seen) };
}

const statsOf = (store: Store, projectId: string, template: string, version: number) =>
  callStats(store, 'project_id = ? AND template = ? AND version = ?', [projectId, template, version]);

/** A page of the project's prompt templates by name, each with every version and its stats. */
export async function listTemplates(store: Store, projectId: string, page: { limit: number; offset: number }) {
  const versions = store.table('prompt_versions');
  const names = await store.query<{ template: string }>(
    `SELECT DISTINCT template FROM ${versions} WHERE project_id = ? ORDER BY template LIMIT ? OFFSET ?`, [projectId, page.limit, page.offset]);
  const data = [];
  for (const { template } of names) {
    const rows = await store.query<VersionRow>(
      `SELECT version, hash, created_at FROM ${versions} WHERE project_id = ? AND template = ? ORDER BY version`, [projectId, template]);
    const list = [];
    for (const r of rows) {
      list.push({ version: Number(r.version), hash: r.hash, created_at: iso(Number(r.created_at)), ...shown(await statsOf(store, projectId, template, Number(r.version))) });
    }
    data.push({ name: template, latest_version: list.length ? list[list.length - 1].version : null, versions: list });
  }
  return { data, ...page };
}

/**
 * One version of a template: its normalised text, its stats, and a unified diff from version `against` (default the
 * one before it; null for the first version). 404 when the project has no such template, version or `against`.
 */
export async function versionDetail(store: Store, projectId: string, template: string, param: string, against?: number) {
  const n = Number(param);
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
  return {
    template,
    version: n,
    hash: current.hash,
    created_at: iso(Number(current.created_at)),
    text: current.text,
    previous_version: n > 1 ? n - 1 : null,
    against: base ? from : null,
    diff: base ? unifiedDiff(base.text, current.text, { from: `${template} v${from}`, to: `${template} v${n}` }) : null,
    stats: shown(await statsOf(store, projectId, template, n)),
  };
}
