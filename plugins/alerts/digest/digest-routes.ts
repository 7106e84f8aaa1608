import { httpError, type HttpRoutes, type JsonSchema } from '@vigil/plugin-sdk';
import { AlertsErrors } from '../errors.js';
import type { LlmDigests } from './llm-digests.js';
import type { PluginDigests } from './plugin-digests.js';

const obj = (title: string, properties: Record<string, JsonSchema>): JsonSchema => ({
  title, type: 'object', additionalProperties: false, required: Object.keys(properties), properties,
});
const isoTime = { type: 'string', format: 'date-time' };
const count = { type: 'integer', minimum: 0 };

const digestData = obj('LlmDigestData', {
  project: { type: 'string' }, from: isoTime, to: { ...isoTime, description: 'Exclusive.' },
  requests: count, previous_requests: count, cost_usd: { type: 'number' }, previous_cost_usd: { type: 'number' },
  scores: { type: 'array', items: obj('LlmDigestScore', { template: { type: 'string' }, avg_score: { type: 'number' }, samples: count }) },
  versions: { type: 'array', items: obj('LlmDigestVersion', { template: { type: 'string' }, version: { type: 'integer' }, created_at: isoTime }) },
  alerts: { type: 'array', items: obj('LlmDigestAlert', { rule_name: { type: 'string' }, fired: count }) },
});
const message = obj('DigestMessage', { title: { type: 'string' }, text: { type: 'string' }, html: { type: 'string' } });
const delivery = obj('DigestDelivery', {
  channel_id: { type: 'string' }, state: { enum: ['pending', 'delivered', 'failed'] }, attempts: count, last_error: { type: ['string', 'null'] },
});
const iso = (ms: number) => new Date(ms).toISOString();
const noProject = (name: string) => httpError(AlertsErrors.DIGEST, `there is no LLM project "${name}"`);

/** The weekly LLM digest's preview (the rendered message) and its send-now. */
export function registerDigestRoutes(http: HttpRoutes, digests: LlmDigests): void {
  http.route({
    method: 'GET', path: '/api/alerts/digests/llm/:project/preview', tags: ['alerts'],
    summary: 'Last week\'s LLM digest of a project, as the channels would send it: its figures and the rendered message',
    response: obj('LlmDigestPreview', { data: digestData, message }),
    async handler(ctx) {
      const built = await digests.build(ctx.params.project);
      if (!built) throw noProject(ctx.params.project);
      const d = built.data;
      return {
        data: { ...d, from: iso(d.from), to: iso(d.to), versions: d.versions.map((v) => ({ ...v, created_at: iso(v.created_at) })) },
        message: { title: built.message.title, text: built.message.text, html: built.message.html ?? '' },
      };
    },
  });

  http.route({
    method: 'POST', path: '/api/alerts/digests/llm/:project/send', tags: ['alerts'],
    summary: 'Send last week\'s LLM digest of a project now, through the durable delivery queue, to the digest\'s channels (every enabled one when none are set); a repeat within the minute sends nothing more',
    status: 202,
    response: obj('DigestSent', { event_id: { type: 'string' }, deliveries: { type: 'array', items: delivery } }),
    async handler(ctx) {
      const sent = await digests.sendNow(ctx.params.project);
      if (!sent) throw noProject(ctx.params.project);
      return {
        event_id: sent.event_id,
        deliveries: sent.deliveries.map((d) => ({ channel_id: d.channel_id, state: d.state, attempts: d.attempts, last_error: d.last_error })),
      };
    },
  });
}

/** Digests other plugins registered (the host digest): the list, each one's preview and its send-now. */
export function registerPluginDigestRoutes(http: HttpRoutes, digests: PluginDigests): void {
  const unknown = (id: string) => httpError(AlertsErrors.DIGEST, `there is no digest "${id}" (${digests.list().map((d) => d.id).join(', ') || 'none is registered'})`);
  http.route({
    method: 'GET', path: '/api/alerts/digests', tags: ['alerts'], summary: 'The digests plugins registered (the host digest), besides the LLM digest of each project',
    response: obj('DigestList', { data: { type: 'array', items: obj('DigestInfo', { id: { type: 'string' }, summary: { type: 'string' }, plugin: { type: 'string' } }) } }),
    handler: () => ({ data: digests.list() }),
  });
  http.route({
    method: 'GET', path: '/api/alerts/digests/:digest/preview', tags: ['alerts'],
    summary: 'Last week\'s digest (the host digest, say), as the channels would send it: its figures and the rendered message',
    response: obj('DigestPreview', {
      from: isoTime, to: { ...isoTime, description: 'Exclusive.' },
      data: { type: 'object', description: 'The digest\'s figures, as its plugin gives them.' }, message,
    }),
    async handler(ctx) {
      const built = await digests.build(ctx.params.digest);
      if (!built) throw unknown(ctx.params.digest);
      return { from: iso(built.from), to: iso(built.to), data: built.data, message: { title: built.message.title, text: built.message.text, html: built.message.html ?? '' } };
    },
  });
  http.route({
    method: 'POST', path: '/api/alerts/digests/:digest/send', tags: ['alerts'], status: 202,
    summary: 'Send last week\'s digest now to the digest\'s channels (every enabled one when none are set); a repeat within the minute sends nothing more',
    response: obj('PluginDigestSent', { event_id: { type: 'string' }, deliveries: { type: 'array', items: delivery } }),
    async handler(ctx) {
      const sent = await digests.sendNow(ctx.params.digest);
      if (!sent) throw unknown(ctx.params.digest);
      return {
        event_id: sent.event_id,
        deliveries: sent.deliveries.map((d) => ({ channel_id: d.channel_id, state: d.state, attempts: d.attempts, last_error: d.last_error })),
      };
    },
  });
}
