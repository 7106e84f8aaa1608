import { ALERT_SCOPE_KEYS, type JsonSchema } from '@vigil/plugin-sdk';

const duration = { type: ['string', 'integer'], description: 'A duration (30s, 5m, 1h) or milliseconds.' };

export const conditionSchema: JsonSchema = {
  title: 'AlertCondition',
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  description: 'gt/lt {threshold} (strictly past it), gte/lte {threshold} (at it or past); pct_change {direction: up|down|either, pct}; anomaly {z, default 3}; budget {pct of the cap, default 100}; prompt_version_change.',
  properties: {
    type: { enum: ['gt', 'lt', 'gte', 'lte', 'pct_change', 'anomaly', 'budget', 'prompt_version_change'] },
    threshold: { type: 'number' },
    direction: { enum: ['up', 'down', 'either'] },
    pct: { type: 'number', exclusiveMinimum: 0 },
    z: { type: 'number', exclusiveMinimum: 0 },
  },
};

export const scopeSchema: JsonSchema = {
  title: 'AlertScope',
  type: 'object',
  additionalProperties: false,
  properties: {
    project: { type: 'string', minLength: 1, maxLength: 200 },
    template: { type: 'string', minLength: 1, maxLength: 200 },
    version: { type: 'integer', minimum: 1 },
    model: { type: 'string', minLength: 1, maxLength: 200 },
    route: { type: 'string', minLength: 1, maxLength: 500 },
    label: { type: 'string', pattern: '^[^=]+=.*$', maxLength: 500 },
    target: { type: 'string', minLength: 1, maxLength: 1000, description: 'What a host rule watches: a unit, a port, a process, a path, a log watcher.' },
  },
  description: `Keys the rule's source takes, among ${ALERT_SCOPE_KEYS.join(', ')}.`,
};

const channelsSchema = {
  oneOf: [{ const: 'all' }, { type: 'array', items: { type: 'string', minLength: 1, maxLength: 200 }, maxItems: 50 }],
  description: 'Channel ids, or `all` (every enabled channel).',
};

export const ruleSchema: JsonSchema = {
  type: 'object',
  required: ['name', 'source', 'condition'],
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$' },
    name: { type: 'string', minLength: 1, maxLength: 200 },
    enabled: { type: 'boolean', default: true },
    source: { type: 'string', maxLength: 100, description: 'A registered source: llm.eval_score, llm.error_rate, gateway.p95_latency_ms, …' },
    scope: scopeSchema,
    condition: conditionSchema,
    window: { ...duration, default: '5m' },
    cooldown: { ...duration, default: '15m' },
    min_samples: { type: 'integer', minimum: 0, default: 1 },
    channels: { ...channelsSchema, default: 'all' },
    notify_resolved: { type: 'boolean', default: true },
    severity: { enum: ['info', 'warning', 'critical'], default: 'warning' },
  },
};

export const alertsConfigSchema: JsonSchema = {
  type: 'object',
  properties: {
    interval: { ...duration, default: '60s', description: 'How often every rule is evaluated (once per interval across processes).' },
    flapping_transitions: { type: 'integer', minimum: 2, default: 6, description: 'More fire/resolve transitions than this within an hour mark a rule flapping.' },
    history_retention: { ...duration, default: '90d' },
    dashboard_url: { type: 'string', format: 'uri', description: 'The dashboard\'s address in notifications; default the control plane\'s.' },
    rules: { type: 'array', default: [], maxItems: 1000, items: { ...ruleSchema, required: ['id', 'name', 'source', 'condition'] } },
    digests: {
      type: 'object', additionalProperties: false, default: {},
      description: 'The weekly LLM digest of each project (requests, cost against the week before, eval score per template, new prompt versions, alerts fired), sent once a UTC week has ended.',
      properties: { channels: { ...channelsSchema, default: [], description: 'Channel ids, or `all`; none (the default) sends no weekly digest, while the preview and send-now work.' } },
    },
  },
};
