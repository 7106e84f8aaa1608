import { httpError, isJsonContentType, type HttpRoutes, type RouteContext } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';
import type { LaneBody } from './lane/lane-types.js';
import type { LlmLane } from './lane/llm-lane.js';
import { PROJECT_KEY_SCHEME, projectOf } from './project-auth.js';

/** The 202 answer of `POST /v1/traces` (docs/llm-wire-contract.md is generated from it). */
export const ingestOutcomeSchema = {
  type: 'object',
  required: ['accepted', 'rejected', 'sampled_out', 'errors', 'ids'],
  properties: {
    accepted: { type: 'integer' },
    rejected: { type: 'integer' },
    sampled_out: { type: 'integer' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { index: { type: 'integer' }, code: { type: 'string' }, message: { type: 'string' }, path: { type: 'string' } } },
    },
    ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
  },
};

/** The raw body and its headers, as a lane task takes them. */
export function laneBody(ctx: RouteContext): LaneBody {
  const raw = ctx.request.body as Buffer;
  const type = ctx.headers['content-type'];
  const encoding = ctx.headers['content-encoding'];
  return {
    bytes: new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength),
    ...(typeof type === 'string' ? { contentType: type } : {}),
    ...(typeof encoding === 'string' ? { contentEncoding: encoding } : {}),
  };
}

/**
 * `POST /v1/traces`: `{ "traces": [item, …] }`, JSON, gzip or not. The body is read raw up to `maxBodyBytes` (the
 * largest any project may send); everything after that (inflating, parsing, validating, redacting, storing) is the
 * LLM lane's, in a worker thread (lane/).
 */
export function registerIngestRoute(http: HttpRoutes, lane: LlmLane, maxBodyBytes: number): void {
  http.route({
    method: 'POST', path: '/v1/traces', auth: PROJECT_KEY_SCHEME, rawBody: true, bodyLimit: maxBodyBytes, status: 202, tags: ['llm'],
    summary: 'Ingest a batch of LLM trace items',
    description: 'Body `{ "traces": [item, …] }` (application/json, optionally Content-Encoding: gzip). Each item is validated on its own: '
      + 'invalid ones are counted in `rejected` and described in `errors`; the others are accepted and stored, and `ids` holds their ids in order. '
      + 'The wire contract is in plugins/llm/README.md.',
    response: ingestOutcomeSchema,
    async handler(ctx) {
      const got = ctx.headers['content-type'];
      if (!isJsonContentType(got)) {
        throw httpError(LlmErrors.CONTENT_TYPE, `send the batch as "Content-Type: application/json"${got ? `, not ${JSON.stringify(got)}` : ''}`);
      }
      const result = await lane.run(projectOf(ctx), { kind: 'traces', body: laneBody(ctx) });
      return (result.answer as { json: unknown }).json;
    },
  });
}
