import type { JsonSchema } from '@vigil/plugin-sdk';
import { DETECTOR_KINDS } from '../../policies/detectors/types.js';
import { spanBoundsSchema } from './spans/span-bounds.js';

const duration = { type: ['string', 'integer'], format: 'duration', formatMinimum: 0 };
const byteSize = { type: ['string', 'integer'], format: 'byte-size' };

/**
 * A project's own settings: what it sets, over `llm.defaults`. The same schema serves a project in the config file and
 * the settings the CLI and the dashboard store, so both are checked by the same rules.
 */
export const projectSettingsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    plan: { type: 'string', minLength: 1, description: 'A plan of llm.plans: its limits, budget and retention apply where the project sets none of its own.' },
    budget: {
      type: 'object',
      additionalProperties: false,
      description: 'Month-to-date spend (UTC calendar month) against a cap; over the cap, ingest keeps a sample.',
      properties: {
        monthly_usd: { type: 'number', minimum: 0, description: 'The cap in USD. Absent: no cap.' },
        over_budget_sample_rate: { type: 'number', minimum: 0, maximum: 1, description: 'Share of items kept once the cap is reached (0 keeps none). Default 0.1.' },
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      description: 'Plan limits.',
      properties: {
        items_per_month: { type: 'integer', minimum: 0, description: 'Items accepted per calendar month (UTC); past it, 429. Absent: no limit.' },
        items_per_batch: { type: 'integer', minimum: 1, maximum: 100000, description: 'Items per request; more is 413. Default 1,000.' },
        body_bytes: { ...byteSize, description: 'Request body size, compressed and decompressed; more is 413. Default 5mb, at most llm.max_body_bytes.' },
        item_keys: { type: 'integer', minimum: 1, maximum: 10000000, description: 'Object keys and array elements in one item, at every level; an item with more is rejected (VIGIL_ERR_LLM_ITEM_TOO_LARGE). Default 10,000.' },
        item_bytes: { ...byteSize, description: 'UTF-8 bytes of all strings of one item (keys included); an item with more is rejected (VIGIL_ERR_LLM_ITEM_TOO_LARGE). Default 1mb, at most the body limit.' },
      },
    },
    redact: {
      type: 'object',
      additionalProperties: false,
      description: 'What is redacted before anything is stored (the governance policy\'s governJson).',
      properties: {
        json_fields: {
          type: 'array', items: { type: 'string', minLength: 2 },
          description: 'JSON paths over the item ($.input.**.email, $.metadata.user.phone); their values become the marker.',
        },
        detect: {
          type: 'array', items: { enum: [...DETECTOR_KINDS] }, uniqueItems: true,
          description: `Detectors masked in every string of input, output and metadata. Default: all (${DETECTOR_KINDS.join(', ')}); [] turns them off.`,
        },
      },
    },
    retention: { ...duration, description: 'Traces older than this are deleted. Default llm.defaults.retention (30d).' },
  },
};

const projectSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$', description: 'The project\'s name.' },
    key: { type: 'string', minLength: 16, description: 'The project key clients send, usually ${ENV}. Only its SHA-256 is kept.' },
    key_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Instead of key: the hex SHA-256 of the key, so the file holds no secret.' },
    ...(projectSettingsSchema.properties as Record<string, JsonSchema>),
  },
};

const settingsProperties = projectSettingsSchema.properties as Record<string, JsonSchema>;

/** A plan: a named set of limits, a budget cap and a retention, which projects take by naming it (`plan: pro`). */
const planSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    description: { type: 'string', maxLength: 200, description: 'One line for the billing page.' },
    limits: settingsProperties.limits,
    budget: settingsProperties.budget,
    retention: settingsProperties.retention,
  },
};

/** Dollars per million tokens. */
const priceSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['input', 'output'],
  properties: {
    input: { type: 'number', minimum: 0, description: 'USD per 1M input tokens.' },
    output: { type: 'number', minimum: 0, description: 'USD per 1M output tokens.' },
    cached_input: { type: 'number', minimum: 0, description: 'USD per 1M input tokens read from the prompt cache. Default: the input price.' },
  },
};

/** The `llm:` section. Every key is optional; `llm: {}` enables the plugin with its defaults. */
export const llmConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'LLM observability: trace ingest, prompt versions, the public REST API and the CI gate.',
  properties: {
    projects: {
      type: 'array', items: projectSchema, default: [],
      description: 'Projects declared here win over the store: their settings and keys are set from this file at each start and reload.',
    },
    plans: {
      type: 'object', default: {},
      propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' },
      additionalProperties: planSchema,
      description: 'Named sets of limits (items per month, batch and body size, retention, budget cap) that projects take with `plan: NAME`; a project\'s own settings win over its plan\'s, its plan\'s over llm.defaults.',
    },
    defaults: {
      ...projectSettingsSchema,
      default: {},
      description: 'Settings of every project that does not set its own.',
    },
    prices: {
      type: 'object', default: {},
      additionalProperties: priceSchema,
      description: 'Price overrides by model name or prefix (`gpt-4o`, `my-finetune-`), over the shipped table; the longest match wins.',
    },
    max_body_bytes: { ...byteSize, default: '5mb', description: 'Largest ingest body any project may send (compressed and decompressed).' },
    persist: {
      type: 'object', additionalProperties: false, default: {},
      description: 'The persist stage: the LLM lane\'s worker threads, which decode, check, redact and store every ingest request.',
      properties: {
        concurrency: { type: 'integer', minimum: 1, maximum: 64, description: 'Worker threads of the LLM lane in this process. Default: the cores less one (at least one); at most twice the cores.' },
        max_attempts: { type: 'integer', minimum: 1, maximum: 100, default: 8, description: 'Attempts of a batch an earlier version left queued, when storing it fails transiently (store down).' },
        backoff: { ...duration, formatMinimum: '1ms', default: '1s', description: 'Base of the exponential backoff between those attempts.' },
        timeout: { ...duration, formatMinimum: '1s', default: '5m', description: 'A queued batch not stored within this returns to the queue for another process.' },
      },
    },
    retention_interval: { ...duration, formatMinimum: '1ms', default: '10m', description: 'How often expired traces are deleted.' },
    langfuse: {
      type: 'object', additionalProperties: false, default: {},
      description: 'The Langfuse-compatible ingestion (/api/public/ingestion).',
      properties: {
        unended_after: {
          ...duration, formatMinimum: '100ms', formatMaximum: '12h', default: '30s',
          description: 'A generation created and never ended is stored, marked incomplete, once no event touched it for this long; its end, if it comes later, replaces it.',
        },
      },
    },
    spans: spanBoundsSchema as unknown as JsonSchema,
  },
};
