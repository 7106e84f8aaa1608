import type { JsonSchema } from '@vigil/plugin-sdk';
import { SECRET_KEYS } from './secret-fields.js';
import { CHANNEL_TYPES, type ChannelType } from './types.js';

export const CHANNEL_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{0,63}$';

const httpUrl: JsonSchema = { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 };

/** The keys each type adds to the common ones, and which of them it requires. */
const typeKeys: Record<ChannelType, { properties: Record<string, JsonSchema>; required: string[] }> = {
  ntfy: {
    properties: {
      url: { ...httpUrl, description: 'The topic URL, e.g. https://ntfy.sh/my-alerts (a secret: anyone with it can read the topic).' },
      token: { type: 'string', minLength: 1, maxLength: 512, description: 'An access token for a protected topic (Authorization: Bearer).' },
      priority: { type: 'integer', minimum: 1, maximum: 5, description: 'Every message\'s priority; default by severity (info 3, warning 4, critical 5).' },
      tags: { type: 'array', maxItems: 10, items: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[^,\\r\\n]+$' }, description: 'Tags added to the severity\'s.' },
    },
    required: ['url'],
  },
  slack: {
    properties: { url: { ...httpUrl, description: 'The incoming webhook URL (a secret).' } },
    required: ['url'],
  },
  discord: {
    properties: {
      url: { ...httpUrl, description: 'The webhook URL (a secret).' },
      username: { type: 'string', minLength: 1, maxLength: 80, description: 'The name messages appear under; default the webhook\'s.' },
    },
    required: ['url'],
  },
  webhook: {
    properties: {
      url: { ...httpUrl, description: 'Receives a JSON POST per notification.' },
      secret: { type: 'string', minLength: 16, maxLength: 512, description: 'Signs each request: X-Vigil-Signature: sha256=<hex HMAC of "<X-Vigil-Timestamp>.<body>">.' },
      headers: { type: 'object', maxProperties: 20, additionalProperties: { type: 'string', maxLength: 4096 }, description: 'Extra request headers; their values are kept secret.' },
    },
    required: ['url'],
  },
  email: {
    properties: {
      host: { type: 'string', minLength: 1, maxLength: 253, description: 'The SMTP server.' },
      port: { type: 'integer', minimum: 1, maximum: 65535, description: 'Default 587 with starttls, 465 with tls, 25 with none.' },
      security: { enum: ['starttls', 'tls', 'none'], description: 'starttls (required, not opportunistic), tls (implicit, port 465) or none. Default starttls.' },
      user: { type: 'string', minLength: 1, maxLength: 256, description: 'SMTP user name; with password, AUTH is used.' },
      password: { type: 'string', minLength: 1, maxLength: 1024, description: 'SMTP password (a secret): write ${SMTP_PASSWORD} in the file.' },
      from: { type: 'string', minLength: 3, maxLength: 320, description: 'The sender, e.g. "Vigil <alerts@example.com>".' },
      to: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', minLength: 3, maxLength: 320 }, description: 'Recipients.' },
      tls_verify: { type: 'boolean', description: 'Check the server\'s certificate. Default true.' },
    },
    required: ['host', 'from', 'to'],
  },
  desktop: { properties: {}, required: [] },
};

const allTypeKeys = Object.fromEntries(Object.values(typeKeys).flatMap((t) => Object.entries(t.properties)));

/** The keys a type takes besides the common ones. */
export const keysOfType = (type: ChannelType): string[] => Object.keys(typeKeys[type].properties);

/** The keys a type requires besides `type`. */
export const requiredKeysOfType = (type: ChannelType): string[] => typeKeys[type].required;

/**
 * One branch per type: its required keys, and every other type's keys forbidden, so a misplaced key is named.
 * `secrets: 'optional'` for an update, where a secret left out keeps its stored value.
 */
function typeBranch(type: ChannelType, secrets: 'required' | 'optional' = 'required'): JsonSchema {
  const own = new Set(keysOfType(type));
  const foreign = Object.keys(allTypeKeys).filter((k) => !own.has(k));
  const required = typeKeys[type].required.filter((k) => secrets === 'required' || !(SECRET_KEYS as readonly string[]).includes(k));
  return {
    if: { properties: { type: { const: type } }, required: ['type'], additionalProperties: true },
    then: { required, properties: Object.fromEntries(foreign.map((k) => [k, false])), additionalProperties: true },
  };
}

/** The settings every type shares, and each type's own. */
const commonKeys: Record<string, JsonSchema> = {
  type: { enum: [...CHANNEL_TYPES] },
  name: { type: 'string', minLength: 1, maxLength: 100, description: 'Shown in the dashboard; default the id.' },
  enabled: { type: 'boolean', description: 'A disabled channel is skipped by `all` and refuses deliveries. Default true.' },
};

/** A channel's new settings (PUT): a secret left out keeps its stored value, so the browser never needs to hold one. */
export const channelUpdateSchema: JsonSchema = {
  type: 'object',
  title: 'ChannelUpdate',
  additionalProperties: false,
  required: ['type'],
  properties: { id: { type: 'string', description: 'Optional; when given, the id in the path.' }, ...commonKeys, ...allTypeKeys },
  allOf: CHANNEL_TYPES.map((type) => typeBranch(type, 'optional')),
};

/** A channel with its id: an item of `targets`, and a channel created through the API. */
const channelWithId: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'type'],
  properties: { id: { type: 'string', pattern: CHANNEL_ID_PATTERN, description: 'Lower case, digits, _ and -; at most 64.' }, ...commonKeys, ...allTypeKeys },
  allOf: CHANNEL_TYPES.map((type) => typeBranch(type)),
};

export const channelCreateSchema: JsonSchema = { ...channelWithId, title: 'ChannelCreate' };

const duration: JsonSchema = { type: ['string', 'integer'], format: 'duration', minimum: 0 };

/** The `channels:` section. */
export const channelsConfigSchema: JsonSchema = {
  type: 'object',
  description: 'Outbound channels (ntfy, Slack, Discord, webhook, email, desktop) and their durable delivery queue.',
  properties: {
    max_attempts: { type: 'integer', minimum: 1, maximum: 100, default: 8, description: 'Attempts per delivery before it is failed.' },
    backoff: { ...duration, default: '5s', description: 'First retry delay; doubled per attempt, with jitter.' },
    max_backoff: { ...duration, default: '15m', description: 'Longest delay between two attempts.' },
    timeout: { ...duration, default: '15s', description: 'One send\'s deadline.' },
    concurrency: { type: 'integer', minimum: 1, maximum: 64, default: 4, description: 'Deliveries sent at once by each process.' },
    retention: { ...duration, default: '30d', description: 'How long settled deliveries and their messages are kept.' },
    key_file: { type: 'string', minLength: 1, description: 'The key of secrets entered in the dashboard (created with mode 0600); relative to the config file. Default <data_dir>/plugins/channels/secrets.key.' },
    targets: {
      type: 'array',
      default: [],
      maxItems: 200,
      description: 'Channels owned by this file (read-only in the dashboard). Write secrets as ${ENV_VAR}.',
      items: channelWithId,
    },
  },
};
