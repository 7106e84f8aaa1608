import { HttpError, type HttpRoutes, type Store } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import { LlmErrors } from '../errors.js';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { pageOf, pageProperties } from './query-params.js';
import { unifiedDiff } from './unified-diff.js';
import { callStats, iso, type CallStats } from './version-stats.js';

type VersionRow = { template: string; version: number; hash: string; text: string; created_at: number };

/** One version's stats as the API shows them: times as ISO 8601. */
function shown(stats: CallStats & { eval_samples: number }) {
  return { ...stats, first_seen: iso(stats.first_seen), last_seen: iso(stats.last_seen) };
}

const definitionQuery = { eval_definition_id: { type: 'string', description: 'avg_score of this eval definition only.' } };

export function registerTemplateRoutes(http: HttpRoutes, store: Store, scores: EvalScores): void {
  const versions = store.table('prompt_versions');
  /** A version's call stats with its average eval score (of one definition when `definition` is given). */
  const statsOf = async (projectId: string, template: string, version: number, definition: unknown) => {
    const [stats, evals] = await Promise.all([
      callStats(store, 'project_id = ? AND template = ? AND version = ?', [projectId, template, version]),
      scores.summary({ project_id: projectId, template, version, ...(typeof definition === 'string' ? { eval_definition_id: definition } : {}) }),
    ]);
    return { stats: { ...stats, avg_score: evals.avg_score, eval_samples: evals.samples }, evals };
  };

  http.route({
    method: 'GET', path: '/api/v1/prompt-templates', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'Prompt templates of the key\'s project, each version with its stats (requests, eval score, p95, error rate, cost, first and last seen)',
    query: { type: 'object', properties: { ...pageProperties, ...definitionQuery } },
    async handler(ctx) {
      const project = projectOf(ctx);
      const { limit, offset } = pageOf(ctx.query);
      const names = await store.query<{ template: string }>(
        `SELECT DISTINCT template FROM ${versions} WHERE project_id = ? ORDER BY template LIMIT ? OFFSET ?`, [project.id, limit, offset]);
      const data = [];
      for (const { template } of names) {
        const rows = await store.query<VersionRow>(
          `SELECT version, hash, created_at FROM ${versions} WHERE project_id = ? AND template = ? ORDER BY version`, [project.id, template]);
        const list = [];
        for (const r of rows) {
          const { stats } = await statsOf(project.id, template, Number(r.version), ctx.query.eval_definition_id);
          list.push({ version: Number(r.version), hash: r.hash, created_at: iso(Number(r.created_at)), ...shown(stats) });
        }
        data.push({ name: template, latest_version: list.length ? list[list.length - 1].version : null, versions: list });
      }
      return { data, limit, offset };
    },
  });

  http.route({
    method: 'GET', path: '/api/v1/prompt-templates/:name/versions/:n', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'One prompt version: its normalised text, its stats (eval scores per definition too), and a unified diff against the version before it',
    query: { type: 'object', properties: { ...definitionQuery } },
    async handler(ctx) {
      const project = projectOf(ctx);
      const n = Number(ctx.params.n);
      const notFound = () => new HttpError(404, LlmErrors.VERSION_NOT_FOUND,
        `the project has no version ${JSON.stringify(ctx.params.n)} of prompt template ${JSON.stringify(ctx.params.name)}`);
      if (!Number.isInteger(n) || n < 1) throw notFound();
      const rows = await store.query<VersionRow>(
        `SELECT version, hash, text, created_at FROM ${versions} WHERE project_id = ? AND template = ? AND version IN (?, ?)`,
        [project.id, ctx.params.name, n, n - 1]);
      const current = rows.find((r) => Number(r.version) === n);
      if (!current) throw notFound();
      const previous = rows.find((r) => Number(r.version) === n - 1);
      const { stats, evals } = await statsOf(project.id, ctx.params.name, n, ctx.query.eval_definition_id);
      return {
        template: ctx.params.name,
        version: n,
        hash: current.hash,
        created_at: iso(Number(current.created_at)),
        text: current.text,
        previous_version: previous ? n - 1 : null,
        diff: previous ? unifiedDiff(previous.text, current.text, { from: `${ctx.params.name} v${n - 1}`, to: `${ctx.params.name} v${n}` }) : null,
        stats: shown(stats),
        eval_scores: evals.by_definition,
      };
    },
  });
}
