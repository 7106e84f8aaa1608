// The answers of the evaluators' routes: definitions, trials, results, golden sets and received scores.
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { settingsSchema } from './config-schema.js';
import { EVAL_TYPES, MISSING_OUTPUT } from './types.js';

const count: JsonSchema = { type: 'integer', minimum: 0 };
const isoTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableText: JsonSchema = { type: ['string', 'null'] };
const paged = (items: JsonSchema, title: string): JsonSchema => closedObject({ data: { type: 'array', items }, limit: count, offset: count }, { title });

const evalCost = closedObject({ tokens_in: count, tokens_out: count, usd: { type: ['number', 'null'] } }, {
  title: 'EvalCost', description: 'The eval\'s own cost (judge or embedding tokens), never part of the application\'s cost.',
});
const details: JsonSchema = { type: ['object', 'null'], description: 'Type-specific facts: the failure\'s kind, the closest golden output, the function\'s logs.' };

export const providersSchema = closedObject({
  data: {
    type: 'array',
    items: closedObject({
      name: { type: 'string' },
      base_url: { type: 'string' },
      model: { type: 'string' },
      has_key: { type: 'boolean' },
      key_env: { ...nullableText, description: 'The environment variable the key comes from (never its value).' },
    }, { title: 'JudgeProvider' }),
  },
}, { title: 'JudgeProviderList' });

export const definitionViewSchema = closedObject({
  id: { type: 'string' },
  name: { type: 'string' },
  type: { enum: [...EVAL_TYPES] },
  sample_rate: { type: 'number', minimum: 0, maximum: 1 },
  template: nullableText,
  versions: {
    anyOf: [{ type: 'null' }, closedObject({ min: { type: 'integer' }, max: { type: 'integer' } }, { optional: ['min', 'max'] })],
  },
  on_missing_output: { enum: [...MISSING_OUTPUT], description: 'A trace without output: skip (a skipped result) or score it.' },
  settings: settingsSchema,
  source: { enum: ['config', 'store'], description: 'config when declared in evaluators.definitions (the file wins).' },
  rate_per_minute: { type: 'number' },
  created_at: { type: ['string', 'null'], format: 'date-time' },
  updated_at: { type: ['string', 'null'], format: 'date-time' },
  stats: closedObject({
    results: count,
    failed: count,
    skipped: { ...count, description: 'Traces without output, not scored (on_missing_output: skip).' },
    avg_score: { type: ['number', 'null'] },
    method: nullableText,
    cost_usd: { type: 'number' },
    last_result_at: { type: ['string', 'null'], format: 'date-time' },
  }, { title: 'EvalDefinitionStats' }),
}, { title: 'EvalDefinition' });

export const definitionListSchema = closedObject({ data: { type: 'array', items: definitionViewSchema } }, { title: 'EvalDefinitionList' });

export const trialSchema = closedObject({
  trace_id: { ...nullableText, description: 'Null when the trial ran on the built-in sample trace.' },
  sample_trace: { type: 'boolean' },
  status: { enum: ['ok', 'failed', 'skipped'] },
  score: { type: ['number', 'null'] },
  reason: nullableText,
  method: { type: 'string' },
  model: nullableText,
  cost: evalCost,
  latency_ms: { type: 'number', description: 'The eval\'s own time, without any one-time preparation.' },
  preparation_ms: { type: 'number', description: 'Waiting for the embedder\'s one-time preparation before the eval ran (0 once it is ready).' },
  details,
}, { title: 'EvalTrial', optional: ['preparation_ms'] });

export const savedDefinitionSchema = closedObject({
  definition: definitionViewSchema,
  validation: { anyOf: [{ type: 'null' }, trialSchema], description: 'The trial of a custom_function; null for other types.' },
}, { title: 'SavedEvalDefinition' });

export const deletedDefinitionSchema = closedObject({ deleted: { type: 'string' }, results: { ...count, description: 'Results deleted with it.' } });

export const rerunSchema = closedObject({
  eval_definition_id: { type: 'string' },
  template: nullableText,
  traces: count,
  enqueued: count,
  rate_per_minute: { type: 'number' },
}, { title: 'EvalRerun' });

export const evalResultSchema = closedObject({
  id: { type: 'string' },
  eval_definition_id: { type: 'string' },
  trace_id: { type: 'string' },
  score: { type: ['number', 'null'], description: '0..1; null when the eval failed or was skipped.' },
  status: { enum: ['ok', 'failed', 'skipped'] },
  reason: nullableText,
  method: { type: 'string' },
  model: nullableText,
  cost: evalCost,
  latency_ms: { type: 'number' },
  created_at: isoTime,
  details,
}, { title: 'EvalResult' });

export const evalResultPageSchema = paged(evalResultSchema, 'EvalResultPage');

export const goldenSetPageSchema = paged(
  closedObject({ template: { type: 'string' }, outputs: { type: 'array', items: { type: 'string' } }, updated_at: isoTime }, { title: 'GoldenSet' }),
  'GoldenSetPage');

export const goldenSetSavedSchema = closedObject({ template: { type: 'string' }, outputs: { type: 'array', items: { type: 'string' } } });
export const goldenSetDeletedSchema = closedObject({ deleted: { type: 'string', description: 'The template whose set was removed.' } });

export const scorePageSchema = paged(closedObject({
  id: { type: 'string' },
  trace_id: { ...nullableText, description: 'The Vigil trace item the score names, or null when it names only the sender\'s trace.' },
  sender_trace_id: nullableText,
  observation_id: nullableText,
  name: { type: 'string' },
  source: { type: 'string' },
  data_type: { type: 'string' },
  value: { type: ['number', 'string', 'null'], description: 'On the sender\'s scale.' },
  comment: nullableText,
  created_at: isoTime,
  received_at: isoTime,
}, { title: 'ReceivedScore' }), 'ReceivedScorePage');
