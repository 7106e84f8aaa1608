import type { JsonSchema } from '@vigil/plugin-sdk';
import { EVAL_TYPES, MISSING_OUTPUT } from './types.js';

const duration = { type: ['string', 'integer'], format: 'duration', formatMinimum: 0 };

export const DEFINITION_ID = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';

/** Type settings: every key any type takes; definition-check.ts says which belong to which type. */
export const settingsSchema: JsonSchema = {
  title: 'EvalSettings',
  description: 'Type-specific settings: every key any type takes (definition-check.ts says which belong to which type).',
  type: 'object',
  additionalProperties: false,
  properties: {
    provider: { type: 'string', minLength: 1, description: 'llm_judge: a provider named in evaluators.providers.' },
    model: { type: 'string', minLength: 1, maxLength: 256, description: 'llm_judge: the judge model, over the provider\'s.' },
    rubric: { type: 'string', minLength: 1, maxLength: 20000, description: 'llm_judge: the rubric; {{input}}, {{output}}, {{expected}}, {{metadata.path}}.' },
    temperature: { type: 'number', minimum: 0, maximum: 2, description: 'llm_judge: default 0.' },
    golden: {
      type: 'array', minItems: 1, maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 20000 },
      description: 'semantic_similarity: expected outputs. Absent: the golden set of the trace\'s template.',
    },
    source: { type: 'string', minLength: 1, maxLength: 200000, description: 'custom_function: `export default (trace) => number | { score, reason }`.' },
  },
};

/** A definition as the API takes it (POST, PUT) and as the config file declares it (plus `project`). */
export const definitionProperties: Record<string, JsonSchema> = {
  id: { type: 'string', pattern: DEFINITION_ID, description: 'Stable id (eval_definition_id). Default on POST: a UUID.' },
  name: { type: 'string', minLength: 1, maxLength: 200 },
  type: { enum: [...EVAL_TYPES] },
  sample_rate: { type: 'number', minimum: 0, maximum: 1, description: 'Share of traces evaluated, deterministic per trace id. Default 1.' },
  template: { type: ['string', 'null'], minLength: 1, description: 'Only traces of this prompt template.' },
  versions: {
    type: ['object', 'null'], additionalProperties: false,
    properties: { min: { type: 'integer', minimum: 1 }, max: { type: 'integer', minimum: 1 } },
    description: 'With template: only these prompt versions, inclusive.',
  },
  on_missing_output: {
    enum: [...MISSING_OUTPUT],
    description: 'A trace with no output (a failed call): `skip` (default) stores a skipped result, left out of averages; `score` evaluates it like any other.',
  },
  settings: settingsSchema,
};

export const definitionSchema: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['name', 'type', 'settings'], properties: definitionProperties,
};

const priceSchema: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['input', 'output'],
  properties: { input: { type: 'number', minimum: 0 }, output: { type: 'number', minimum: 0 } },
  description: 'USD per 1M tokens. Absent: the llm plugin\'s price table (llm.prices over the shipped one).',
};

const providerSchema: JsonSchema = {
  type: 'object', additionalProperties: false, required: ['base_url', 'model'],
  properties: {
    base_url: { type: 'string', pattern: '^https?://', description: 'OpenAI-compatible, up to where /chat/completions is appended (https://api.openai.com/v1).' },
    model: { type: 'string', minLength: 1 },
    api_key: { type: 'string', minLength: 1, description: 'Usually ${ENV}. Never shown by any API.' },
    api_key_env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'Instead of api_key: the environment variable holding it.' },
    timeout: { ...duration, formatMinimum: '1ms', default: '60s', description: 'One request\'s deadline; past it the eval is retried like a 5xx.' },
    price: priceSchema,
  },
};

/** The `evaluators:` section. `evaluators: {}` turns the eval stage on with its defaults. */
export const evaluatorsConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'Evaluations of LLM traces: llm_judge, semantic_similarity and custom_function, sampled per definition and rate-limited per project.',
  properties: {
    rate_per_minute: { type: 'number', exclusiveMinimum: 0, maximum: 6000000, default: 60, description: 'Eval jobs started per minute and project, by every process together.' },
    project_rates: { type: 'object', default: {}, additionalProperties: { type: 'number', exclusiveMinimum: 0, maximum: 6000000 }, description: 'rate_per_minute of named projects.' },
    concurrency: { type: 'integer', minimum: 1, maximum: 256, default: 4, description: 'Eval jobs run at once in this process.' },
    project_concurrency: {
      type: 'integer', minimum: 1, maximum: 256,
      description: 'Eval jobs of one project run at once in this process, so that a slow judge leaves slots to other projects. Default: concurrency - 1 (at least 1); above concurrency, concurrency.',
    },
    max_attempts: { type: 'integer', minimum: 1, maximum: 100, default: 5, description: 'Attempts of an eval whose provider fails (429, 5xx, timeout) before it is a failed result.' },
    backoff: { ...duration, formatMinimum: '1ms', default: '5s', description: 'Base of the exponential backoff between attempts (a longer Retry-After wins).' },
    timeout: { ...duration, formatMinimum: '1s', default: '5m', description: 'An eval job not finished within this (its worker died) returns to the queue.' },
    messages_grace: {
      ...duration, default: '30s',
      description: 'How long the eval of a trace stored from an OTLP span without its messages waits for them (OTLP logs); messages later still redo the eval.',
    },
    providers: { type: 'object', default: {}, additionalProperties: providerSchema, description: 'Judge providers by name, for llm_judge definitions.' },
    embeddings: {
      type: 'object', additionalProperties: false, required: ['base_url', 'model'],
      description: 'An OpenAI-compatible /embeddings endpoint for semantic_similarity. Absent: the local word vectors, else a lexical vector.',
      properties: {
        base_url: { type: 'string', pattern: '^https?://' },
        model: { type: 'string', minLength: 1 },
        api_key: { type: 'string', minLength: 1 },
        api_key_env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
        price: { type: 'object', additionalProperties: false, required: ['input'], properties: { input: { type: 'number', minimum: 0 } } },
      },
    },
    definitions: {
      type: 'array', default: [],
      items: { type: 'object', additionalProperties: false, required: ['id', 'project', 'name', 'type', 'settings'], properties: { project: { type: 'string', minLength: 1 }, ...definitionProperties } },
      description: 'Definitions owned by this file: set at each start and reload; the API cannot change or delete them.',
    },
  },
};
