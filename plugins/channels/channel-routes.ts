import { httpError, type ChannelsService, type HttpRoutes, type JsonSchema } from '@vigil/plugin-sdk';
import type { ChannelRegistry } from './channel-registry.js';
import { channelCreateSchema, channelUpdateSchema } from './config-schema.js';
import { settingsProblem } from './check-settings.js';
import { ChannelsErrors } from './errors.js';
import { CHANNEL_TYPES, type ChannelSettings, type ConfiguredChannel } from './types.js';

const channelView: JsonSchema = {
  type: 'object',
  title: 'ChannelView',
  required: ['id', 'name', 'type', 'enabled', 'source', 'settings', 'secrets', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    type: { enum: [...CHANNEL_TYPES] },
    enabled: { type: 'boolean' },
    source: { enum: ['config', 'store'], description: 'config: declared in the config file, read-only here (409 on change).' },
    settings: { type: 'object', title: 'ChannelViewSettings', additionalProperties: true, description: 'The settings, each secret masked (a URL shows its scheme and host only).' },
    secrets: { type: 'array', items: { type: 'string' }, description: 'The secret settings that are set (url, token, secret, password, headers); leave them out of a PUT to keep them.' },
    created_at: { type: ['integer', 'null'], description: 'Epoch ms; null for the config file\'s channels.' },
    updated_at: { type: ['integer', 'null'] },
  },
};

const testResult: JsonSchema = {
  type: 'object',
  title: 'ChannelTestResult',
  required: ['channel_id', 'ok', 'error', 'retryable', 'duration_ms'],
  properties: {
    channel_id: { type: 'string' },
    ok: { type: 'boolean', description: 'The receiver accepted the test notification.' },
    error: { type: ['string', 'null'], description: 'What failed, in words (never a secret).' },
    retryable: { type: 'boolean', description: 'False when the receiver refused (a 4xx, a wrong password): retrying the same settings cannot help.' },
    duration_ms: { type: 'number' },
  },
};

const noQuery: JsonSchema = { type: 'object', properties: {} };

/** The settings beyond the schema, answered 400 with the key path. */
function check(settings: ChannelSettings): void {
  const problem = settingsProblem(settings);
  if (problem) throw httpError(ChannelsErrors.SETTINGS, `${problem.path.join('.')}: ${problem.message}`);
}

/**
 * The channels behind the dashboard session, under `/api/alerts/channels`: secrets go in, and only their masks come
 * out. Channels of the config file answer 409 to a change. Tests send at once, outside the queue, and answer with
 * the outcome.
 */
export function registerChannelRoutes(http: HttpRoutes, registry: ChannelRegistry, service: ChannelsService): void {
  http.route({
    method: 'GET', path: '/api/alerts/channels', tags: ['alerts'],
    summary: 'Every channel (the config file\'s and the dashboard\'s), secrets masked',
    query: noQuery,
    response: { type: 'object', title: 'ChannelList', required: ['data'], properties: { data: { type: 'array', items: channelView } } },
    handler: async () => ({ data: await registry.views() }),
  });

  http.route({
    method: 'GET', path: '/api/alerts/channels/:id', tags: ['alerts'],
    summary: 'One channel, secrets masked',
    query: noQuery,
    response: channelView,
    handler: (ctx) => registry.view(ctx.params.id),
  });

  http.route({
    method: 'POST', path: '/api/alerts/channels', status: 201, tags: ['alerts'],
    summary: 'Create a channel; its secrets are stored encrypted and never shown again',
    body: channelCreateSchema,
    response: channelView,
    handler(ctx) {
      const input = ctx.request.body as ConfiguredChannel;
      check(input);
      return registry.create(input);
    },
  });

  http.route({
    method: 'PUT', path: '/api/alerts/channels/:id', tags: ['alerts'],
    summary: 'Replace a channel\'s settings (not one the config file declares); a secret left out keeps its stored value',
    body: channelUpdateSchema,
    response: channelView,
    handler(ctx) {
      const input = ctx.request.body as ChannelSettings & { id?: string };
      if (input.id !== undefined && input.id !== ctx.params.id) {
        throw httpError(ChannelsErrors.SETTINGS, `id: the body says "${input.id}" but the path says "${ctx.params.id}"; ids do not change`);
      }
      check(input);
      return registry.update(ctx.params.id, input);
    },
  });

  http.route({
    method: 'DELETE', path: '/api/alerts/channels/:id', tags: ['alerts'],
    summary: 'Delete a channel (not one the config file declares); its pending deliveries fail',
    query: noQuery,
    response: { type: 'object', title: 'ChannelDeleted', required: ['deleted'], properties: { deleted: { type: 'string' } } },
    async handler(ctx) {
      await registry.delete(ctx.params.id);
      return { deleted: ctx.params.id };
    },
  });

  http.route({
    method: 'POST', path: '/api/alerts/channels/:id/test', tags: ['alerts'],
    summary: 'Send a test notification through one channel now (enabled or not) and answer with the outcome',
    query: noQuery,
    response: testResult,
    handler: (ctx) => service.test(ctx.params.id),
  });

  http.route({
    method: 'POST', path: '/api/alerts/channels/test-all', tags: ['alerts'],
    summary: 'Send a test notification through every enabled channel at once and answer with each outcome',
    query: noQuery,
    response: { type: 'object', title: 'ChannelTestResults', required: ['data'], properties: { data: { type: 'array', items: testResult } } },
    async handler() {
      const channels = (await service.channels()).filter((c) => c.enabled);
      return { data: await Promise.all(channels.map((c) => service.test(c.id))) };
    },
  });
}
