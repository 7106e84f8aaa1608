import { httpError, NO_BODY, type HttpRoutes, type RouteContext } from '@vigil/plugin-sdk';
import { LlmErrors, projectNotFound } from '../errors.js';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import type { ProjectDirectory } from '../project-directory.js';
import type { LlmProject } from '../types.js';
import { DEFAULT_LABEL } from './label-name.js';
import { actorOf } from './prompt-actor.js';
import { withEtag } from './prompt-etag.js';
import type { CreateRequest, KeptPrompt, PromptRegistry, VersionPick } from './prompt-registry.js';
import { createBody, createdPromptSchema, keptPromptSchema, labelMoveSchema, moveBody, pickQuery, promptLabelsSchema } from './schemas.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A version as the API answers it: times as ISO 8601. */
export const shownPrompt = (p: KeptPrompt) => ({ ...p, created_at: iso(p.created_at) });

/** `?label=` or `?version=` (not both); neither is the `production` label, as Langfuse's SDKs expect. */
export function pickOf(query: Record<string, unknown>): VersionPick {
  if (query.version !== undefined && query.label !== undefined) throw httpError(LlmErrors.PROMPT_INVALID, 'ask for a version or a label, not both');
  if (query.version !== undefined) return { version: Number(query.version) };
  return { label: typeof query.label === 'string' ? query.label : DEFAULT_LABEL };
}

const FETCH_DESCRIPTION = 'Answers the version a label names (default `production`; `latest` is the newest) or a version by number, with an '
  + 'ETag: send it back in If-None-Match and an unchanged answer is 304 with no body. A label moved, or a new newest version, changes it.';

/**
 * The registry's routes, twice: under `/api/v1/prompts` with the project key (what applications and CI use), and
 * under `/api/llm/projects/:project/prompts` with the dashboard's credentials (the prompt page).
 */
export function registerPromptRoutes(http: HttpRoutes, registry: PromptRegistry, projects: ProjectDirectory): void {
  const byName = async (ctx: RouteContext): Promise<LlmProject> => {
    const row = await projects.store.get(ctx.params.project);
    if (!row) throw projectNotFound(ctx.params.project);
    return projects.toProject(row);
  };
  const sides = [
    { base: '/api/v1/prompts', auth: PROJECT_KEY_SCHEME, project: async (ctx: RouteContext) => projectOf(ctx), whose: 'the key\'s project' },
    { base: '/api/llm/projects/:project/prompts', auth: undefined, project: byName, whose: 'a project (by name)' },
  ];
  for (const side of sides) {
    const auth = side.auth ? { auth: side.auth } : {};
    http.route({
      method: 'GET', path: `${side.base}/:name`, ...auth, tags: ['llm'],
      summary: `A prompt version of ${side.whose} by label or number, for applications to fetch (ETag, 304)`,
      description: FETCH_DESCRIPTION,
      query: pickQuery,
      responses: { 200: keptPromptSchema, 304: NO_BODY },
      handler: async (ctx) => {
        const project = await side.project(ctx);
        return withEtag(ctx, shownPrompt(await registry.read(project.id, ctx.params.name, pickOf(ctx.query))));
      },
    });
    http.route({
      method: 'POST', path: side.base, ...auth, tags: ['llm'],
      summary: `Keep a prompt version in ${side.whose}: 201 for a new text, 200 with the existing version for a text it has (detected or created); labels are moved to it`,
      body: createBody,
      responses: { 200: createdPromptSchema, 201: createdPromptSchema },
      handler: async (ctx) => {
        const { prompt, created } = await registry.create(await side.project(ctx), ctx.request.body as CreateRequest, actorOf(ctx));
        ctx.status = created ? 201 : 200;
        return { created, prompt: shownPrompt(prompt) };
      },
    });
    http.route({
      method: 'GET', path: `${side.base}/:name/labels`, ...auth, tags: ['llm'],
      summary: `A prompt's labels in ${side.whose}, and their history (which version each named when, and who moved it)`,
      response: promptLabelsSchema,
      handler: async (ctx) => {
        const project = await side.project(ctx);
        const name = ctx.params.name;
        const newest = await registry.newest(project.id, name);
        if (newest === null) throw httpError(LlmErrors.VERSION_NOT_FOUND, `the project has no prompt ${JSON.stringify(name)}`);
        const [labels, moves] = await Promise.all([registry.labels.list(project.id, name), registry.labels.moves(project.id, name)]);
        return {
          name, newest,
          labels: labels.map((l) => ({ ...l, updated_at: iso(l.updated_at) })),
          history: moves.map((m) => ({ ...m, at: iso(m.at) })),
        };
      },
    });
    http.route({
      method: 'PUT', path: `${side.base}/:name/labels/:label`, ...auth, tags: ['llm'],
      summary: `Point a label of a prompt in ${side.whose} at a version (attach, or move it from the version it named)`,
      body: moveBody,
      response: labelMoveSchema,
      handler: async (ctx) => {
        const project = await side.project(ctx);
        const { name, label } = ctx.params;
        const version = (ctx.request.body as { version: number }).version;
        const move = await registry.moveLabel(project.id, name, label, version, actorOf(ctx));
        return { name, label, version, previous_version: move ? move.previous_version : version, changed: move !== null };
      },
    });
    http.route({
      method: 'DELETE', path: `${side.base}/:name/labels/:label`, ...auth, tags: ['llm'],
      summary: `Remove a label of a prompt in ${side.whose}; applications fetching it get 404 (the Node client its cache or fallback)`,
      response: labelMoveSchema,
      handler: async (ctx) => {
        const project = await side.project(ctx);
        const { name, label } = ctx.params;
        const move = await registry.moveLabel(project.id, name, label, null, actorOf(ctx));
        return { name, label, version: null, previous_version: move?.previous_version ?? null, changed: move !== null };
      },
    });
  }
}
