import { httpError, type DashboardUser, type HttpRoutes, type Store } from '@vigil/plugin-sdk';
import { planProblem, settingsProblem } from './check-settings.js';
import { projectSettingsSchema } from './config-schema.js';
import { LlmErrors } from './errors.js';
import { graceMs } from './grace-period.js';
import type { ProjectDirectory } from './project-directory.js';
import type { ProjectRow } from './project-store.js';
import type { ProjectSettings } from './types.js';
import { monthOf } from './usage-book.js';
import { createdProjectSchema, deletedProjectSchema, projectListSchema, projectSchema, rotatedKeySchema } from './api/schemas.js';

const graceSchema = { type: ['string', 'integer'], description: 'How long the old keys keep working: a duration (24h, 7d) or ms. Default 0: they stop now.' };

/** 400 unless the settings are usable; the schema's structure is already checked by the route. */
function checkSettings(settings: ProjectSettings, maxBodyBytes: number, projects: ProjectDirectory): void {
  const problem = settingsProblem(settings, maxBodyBytes) ?? planProblem(settings, projects.plans());
  if (problem) throw httpError(LlmErrors.PROJECT_SETTINGS, `settings.${problem.path.join('.')}: ${problem.message}`);
}

/**
 * The dashboard's project management, behind the dashboard token, under `/api/llm/projects`. State-changing requests
 * authenticated by the session cookie must come from the dashboard's own page (the control plane checks it).
 */
export function registerProjectRoutes(http: HttpRoutes, store: Store, projects: ProjectDirectory, maxBodyBytes: () => number): void {
  const usage = store.table('usage');
  const describe = (row: ProjectRow) => ({
    name: row.name, source: row.source, settings: row.settings, effective: projects.toProject(row).settings,
    created_at: new Date(row.created_at).toISOString(), updated_at: new Date(row.updated_at).toISOString(),
  });

  http.route({
    method: 'GET', path: '/api/llm/projects', tags: ['llm'],
    // Any signed-in user lists the projects they may read: all of them with an instance role, else those they hold a
    // role in (a user of one project finds it from the projects page).
    role: 'signed-in',
    summary: 'LLM projects with their keys (hints only), settings and this month\'s usage',
    description: 'All projects for a user with an instance role (and for the dashboard token); otherwise the projects the user holds a role in.',
    response: projectListSchema,
    async handler(ctx) {
      const rows = readableProjects(await projects.store.list(), ctx.state.auth?.user as DashboardUser | undefined);
      const month = monthOf(Date.now());
      const used = await store.query<{ project_id: string; items: number; cost_usd: number; sampled_out: number }>(
        `SELECT project_id, items, cost_usd, sampled_out FROM ${usage} WHERE month = ?`, [month]);
      const byProject = new Map(used.map((u) => [u.project_id, u]));
      return {
        data: rows.map((r) => {
          const u = byProject.get(r.id);
          return {
            ...describe(r),
            keys: r.keys.map((k) => ({ ...k, created_at: new Date(k.created_at).toISOString(), expires_at: k.expires_at === null ? null : new Date(k.expires_at).toISOString() })),
            usage: { month, items: Number(u?.items ?? 0), cost_usd: Number(u?.cost_usd ?? 0), sampled_out: Number(u?.sampled_out ?? 0) },
          };
        }),
      };
    },
  });

  http.route({
    method: 'POST', path: '/api/llm/projects', status: 201, tags: ['llm'],
    summary: 'Create an LLM project; the answer holds its key, shown this once',
    response: createdProjectSchema,
    body: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string' }, settings: projectSettingsSchema } },
    async handler(ctx) {
      const body = ctx.request.body as { name: string; settings?: ProjectSettings };
      checkSettings(body.settings ?? {}, maxBodyBytes(), projects);
      const { project, key } = await projects.store.create(body.name, body.settings ?? {});
      return { project: describe(project), key };
    },
  });

  http.route({
    method: 'POST', path: '/api/llm/projects/:name/rotate-key', tags: ['llm'],
    summary: 'Give a project a new key; its old keys work for the grace period, then stop',
    response: rotatedKeySchema,
    body: { type: 'object', additionalProperties: false, properties: { grace: graceSchema } },
    async handler(ctx) {
      const grace = graceMs((ctx.request.body as { grace?: unknown } | undefined)?.grace);
      const { key, previousExpireAt } = await projects.store.rotateKey(ctx.params.name, grace);
      projects.clear();
      return { key, previous_keys_expire_at: new Date(previousExpireAt).toISOString() };
    },
  });

  http.route({
    method: 'PUT', path: '/api/llm/projects/:name/settings', tags: ['llm'],
    summary: 'Replace a project\'s own settings (budget, limits, redaction, retention)',
    response: projectSchema,
    body: projectSettingsSchema,
    async handler(ctx) {
      const settings = ctx.request.body as ProjectSettings;
      checkSettings(settings, maxBodyBytes(), projects);
      const row = await projects.store.updateSettings(ctx.params.name, settings);
      projects.clear();
      return describe(row);
    },
  });

  http.route({
    method: 'DELETE', path: '/api/llm/projects/:name', role: 'owner', tags: ['llm'],
    summary: 'Delete a project, its keys and all its data',
    response: deletedProjectSchema,
    query: { type: 'object', properties: {} },
    async handler(ctx) {
      const { traces } = await projects.store.delete(ctx.params.name);
      projects.clear();
      return { deleted: ctx.params.name, traces };
    },
  });
}

/** The projects a dashboard user may read: every one with an instance role, else those granted to them. */
function readableProjects<P extends { name: string }>(rows: P[], user: DashboardUser | undefined): P[] {
  if (!user || user.instanceRole !== null) return rows;
  return rows.filter((p) => Object.hasOwn(user.projects, p.name));
}
