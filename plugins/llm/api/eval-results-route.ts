import type { EvalStatus, HttpRoutes } from '@vigil/plugin-sdk';
import type { EvalScores } from '../eval-scores.js';
import { PROJECT_KEY_SCHEME, projectOf } from '../project-auth.js';
import { pageOf, pageProperties, parseSince, sinceProperty } from './query-params.js';
import { evalResultPageSchema } from './schemas.js';

/** Eval results of the key's project, from the evaluators plugin (an empty list while it is off). */
export function registerEvalResultsRoute(http: HttpRoutes, scores: EvalScores): void {
  http.route({
    method: 'GET', path: '/api/v1/eval-results', auth: PROJECT_KEY_SCHEME, tags: ['llm'],
    summary: 'Scored eval results of the key\'s project, newest first (score 0..1 or null, status, reason, method, cost, eval definition)',
    response: evalResultPageSchema,
    query: {
      type: 'object',
      properties: {
        eval_definition_id: { type: 'string', maxLength: 200 },
        trace_id: { type: 'string', maxLength: 64, description: 'The results of one trace.' },
        status: { enum: ['ok', 'failed', 'skipped'], description: 'skipped: the trace had no output (on_missing_output: skip).' },
        since: sinceProperty,
        ...pageProperties,
      },
    },
    async handler(ctx) {
      const project = projectOf(ctx);
      const q = ctx.query as Record<string, string | undefined>;
      const page = pageOf(ctx.query);
      const data = await scores.results(project.id, {
        ...page,
        ...(q.eval_definition_id !== undefined ? { eval_definition_id: q.eval_definition_id } : {}),
        ...(q.trace_id !== undefined ? { trace_id: q.trace_id.toLowerCase() } : {}),
        ...(q.status !== undefined ? { status: q.status as EvalStatus } : {}),
        ...(q.since !== undefined ? { since: parseSince(q.since) } : {}),
      });
      return { data, ...page };
    },
  });
}
