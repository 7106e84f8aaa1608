import type { HttpRoutes } from '@vigil/plugin-sdk';
import { LANGFUSE_SCHEME } from '../langfuse-auth.js';
import { projectOf } from '../project-auth.js';
import { DEFAULT_LABEL, LATEST } from './label-name.js';
import { actorOf } from './prompt-actor.js';
import type { KeptPrompt, PromptRegistry } from './prompt-registry.js';
import { pickOf } from './prompt-routes.js';
import { langfuseCreateBody, langfusePromptSchema, pickQuery } from './schemas.js';

/**
 * A version in Langfuse's shape. A chat prompt's messages carry `type: "chatmessage"` as Langfuse answers them; a
 * chat text that redaction made unreadable is answered as text. `id` is stable per version (its hash's start).
 */
export function langfusePrompt(projectId: string, p: KeptPrompt) {
  const chat = p.type === 'chat' && p.messages !== null;
  const at = new Date(p.created_at).toISOString();
  return {
    id: p.hash.slice(0, 25),
    name: p.name,
    version: p.version,
    type: chat ? 'chat' : 'text',
    prompt: chat ? p.messages!.map((m) => ('role' in m ? { type: 'chatmessage', role: m.role, content: m.content } : m)) : p.text,
    config: p.config ?? {},
    labels: p.labels,
    tags: [],
    commitMessage: p.commit_message,
    createdAt: at,
    updatedAt: at,
    createdBy: p.created_by,
    projectId,
    isActive: p.labels.includes(DEFAULT_LABEL),
    resolutionGraph: null,
  };
}

/**
 * Langfuse's prompt management API (v2), so `langfuse.getPrompt()` / `createPrompt()` (the `langfuse` v3 SDK) and
 * `@langfuse/client`'s `prompt.get()` / `prompt.create()` work against Vigil with only their base URL and secret
 * key changed. Unlike Langfuse, a create of a text the prompt has already answers that version (and moves the labels
 * to it): a version is its text.
 */
export function registerLangfusePromptRoutes(http: HttpRoutes, registry: PromptRegistry): void {
  http.route({
    method: 'GET', path: '/api/public/v2/prompts/:name', auth: LANGFUSE_SCHEME, tags: ['llm'],
    summary: 'Langfuse-compatible prompt fetch: by `label` (default `production`) or `version`',
    query: { ...pickQuery, properties: { ...(pickQuery.properties as object), resolve: { type: 'boolean', description: 'Accepted; Vigil prompts have no dependencies.' } } },
    response: langfusePromptSchema,
    handler: async (ctx) => {
      const project = projectOf(ctx);
      return langfusePrompt(project.id, await registry.read(project.id, ctx.params.name, pickOf(ctx.query)));
    },
  });
  http.route({
    method: 'POST', path: '/api/public/v2/prompts', auth: LANGFUSE_SCHEME, tags: ['llm'],
    summary: 'Langfuse-compatible prompt create (text or chat, with labels); a text the prompt has already answers its version',
    body: langfuseCreateBody,
    status: 201,
    response: langfusePromptSchema,
    handler: async (ctx) => {
      const project = projectOf(ctx);
      const b = ctx.request.body as { name: string; type?: 'text' | 'chat'; prompt: unknown; config?: unknown; labels?: string[]; commitMessage?: string | null; isActive?: boolean };
      // `latest` is always the newest version in Vigil as in Langfuse: asking for it changes nothing.
      const labels = [...(b.labels ?? []), ...(b.isActive ? [DEFAULT_LABEL] : [])].filter((l) => l !== LATEST);
      const { prompt } = await registry.create(project, {
        name: b.name, type: b.type ?? 'text', prompt: b.prompt, config: b.config, labels, commit_message: b.commitMessage ?? null,
      }, actorOf(ctx));
      return langfusePrompt(project.id, prompt);
    },
  });
}
