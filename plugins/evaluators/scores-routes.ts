import { httpError, LLM_PROJECT_KEY_AUTH, tryParseSince, type HttpRoutes, type LlmService, type RouteContext } from '@vigil/plugin-sdk';
import { EvaluatorsErrors, projectNotFound } from './errors.js';
import type { ReceivedScores } from './received-scores.js';
import { scorePageSchema } from './api-schemas.js';

const MAX_LIMIT = 200;
const DEFAULT_LIMIT = 50;

const page = (q: Record<string, unknown>) => ({ limit: Math.min(Number(q.limit ?? DEFAULT_LIMIT), MAX_LIMIT), offset: Number(q.offset ?? 0) });
/** Rows a list skips by `offset` at most (the database reads each skipped row). */
const MAX_OFFSET = 10_000;
const pageProperties = {
  limit: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT, description: `Page size; at most ${MAX_LIMIT} (a larger value is answered with ${MAX_LIMIT}).` },
  offset: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0, description: `Items to skip, at most ${MAX_OFFSET.toLocaleString('en-US')}.` },
};

/** The Langfuse trace a stored trace item came from (the llm plugin keeps it in `metadata.langfuse.trace_id`). */
function senderTraceOf(trace: Record<string, unknown>): string | undefined {
  const langfuse = (trace.metadata as { langfuse?: { trace_id?: unknown } } | undefined)?.langfuse;
  return typeof langfuse?.trace_id === 'string' ? langfuse.trace_id : undefined;
}

/**
 * The scores applications sent with their traces: the public list under the project key (the `llm` plugin's scheme,
 * named through the SDK: the principal's subject is the key's project, so a key reads its own project's scores only),
 * and a trace's scores for its page in the dashboard.
 */
export function registerScoreRoutes(http: HttpRoutes, llm: LlmService, scores: ReceivedScores): void {
  http.route({
    method: 'GET', path: '/api/v1/scores', auth: LLM_PROJECT_KEY_AUTH, tags: ['evaluators'],
    summary: 'Scores sent with the key\'s project\'s traces (Langfuse score-create), newest first, on the sender\'s scale; never part of eval scores',
    response: scorePageSchema,
    query: {
      type: 'object',
      properties: {
        trace_id: { type: 'string', maxLength: 64, description: 'The scores naming this trace item (the id Vigil gave it).' },
        sender_trace_id: { type: 'string', maxLength: 1024, description: 'The scores of the sender\'s trace (its Langfuse trace id).' },
        name: { type: 'string', maxLength: 1024 },
        since: { type: 'string', description: 'Epoch ms, an ISO 8601 date-time (UTC without an offset), or a duration back from now (15m, 24h, 7d).' },
        ...pageProperties,
      },
    },
    async handler(ctx) {
      const projectId = ctx.state.auth?.subject;
      if (typeof projectId !== 'string') throw new Error('/api/v1/scores: the llm-project-key scheme gave no project');
      const q = ctx.query as Record<string, string | undefined>;
      let since: number | undefined;
      if (q.since !== undefined) {
        since = tryParseSince(q.since);
        if (since === undefined) {
          throw httpError(EvaluatorsErrors.SINCE, `since must be epoch milliseconds, an ISO 8601 date-time (2024-05-01T12:00:00Z) or a duration back from now (15m, 2h, 7d); got ${JSON.stringify(q.since)}`);
        }
      }
      const p = page(ctx.query);
      const data = await scores.list(projectId, {
        ...p,
        ...(q.trace_id !== undefined ? { trace_id: q.trace_id.toLowerCase() } : {}),
        ...(q.sender_trace_id !== undefined ? { sender_trace_id: q.sender_trace_id } : {}),
        ...(q.name !== undefined ? { name: q.name } : {}),
        ...(since !== undefined ? { since } : {}),
      });
      return { data, ...p };
    },
  });

  http.route({
    method: 'GET', path: '/api/llm/projects/:project/traces/:id/scores', tags: ['evaluators'],
    summary: 'The scores sent with a trace: those naming it, and those of its sender\'s trace that name no item',
    response: scorePageSchema,
    query: { type: 'object', properties: { ...pageProperties } },
    async handler(ctx: RouteContext) {
      const project = await llm.project(ctx.params.project);
      if (!project) throw projectNotFound(ctx.params.project);
      const traceId = ctx.params.id.toLowerCase();
      const stored = await llm.trace(project.id, traceId);
      const sender = stored ? senderTraceOf(stored.trace) : undefined;
      const p = page(ctx.query);
      const data = await scores.list(project.id, { ...p, trace_id: traceId, ...(sender !== undefined ? { or_sender_trace_id: sender } : {}) });
      return { data, ...p };
    },
  });
}
