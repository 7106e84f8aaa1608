// The answers of the llm plugin's routes: the public API (/api/v1), the dashboard's twins, projects and ingestion.
import { ALERT_EVENT_SCHEMA, closedObject, nonJsonBody, type JsonSchema } from '@vigil/plugin-sdk';
import { DETECTOR_KINDS } from '../../../policies/detectors/types.js';
import { projectSettingsSchema } from '../config-schema.js';
import { THRESHOLDS } from './gate.js';

const count: JsonSchema = { type: 'integer', minimum: 0 };
const isoTime: JsonSchema = { type: 'string', format: 'date-time' };
const nullableIso: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const nullableNumber: JsonSchema = { type: ['number', 'null'] };
const text: JsonSchema = { type: 'string' };
const paged = (items: JsonSchema, title: string): JsonSchema => closedObject({ data: { type: 'array', items }, limit: count, offset: count }, { title });

const nullableText: JsonSchema = { type: ['string', 'null'] };
const anyJson: JsonSchema = {};

/** A stored trace as the API answers it (trace-record.ts `storedTrace`): every key present, null when the item had none. */
const traceItem: JsonSchema = closedObject({
  id: text,
  created_at: isoTime,
  model: text,
  provider: nullableText,
  name: nullableText,
  status: { enum: ['ok', 'error'] },
  error: { ...anyJson, description: 'The error the item sent, redacted; null when it sent none.' },
  start_time: nullableIso,
  latency_ms: nullableNumber,
  tokens: {
    anyOf: [{ type: 'null' }, closedObject({ input: count, output: count, cache_read: count, total: count }, { optional: ['input', 'output', 'cache_read', 'total'] })],
  },
  cost_usd: nullableNumber,
  cost_estimated: { type: 'boolean', description: 'True when Vigil priced the call from its model (the item sent no cost).' },
  input: anyJson,
  output: anyJson,
  prompt_template: {
    anyOf: [{ type: 'null' }, closedObject({ name: text, version: { type: 'integer' }, hash: text, variables: anyJson }, { optional: ['variables'] })],
  },
  user_id: nullableText,
  session_id: nullableText,
  tags: { type: 'array', items: text },
  metadata: anyJson,
  incomplete: {
    enum: ['never_ended'],
    description: 'Present only on a trace stored before its call ended: a Langfuse generation idle without an end for llm.langfuse.unended_after. Its end, when it comes, replaces the trace and removes this.',
  },
}, { title: 'StoredTrace', description: 'The trace as stored: its sender\'s fields, redacted by the project\'s settings, with the id Vigil gave it.', optional: ['incomplete'] });

export const tracePageSchema = closedObject({
  data: { type: 'array', items: traceItem },
  limit: count,
  offset: count,
  next: { type: ['string', 'null'], description: 'Cursor of the next page; null on the last.' },
  truncated: { type: 'boolean', description: 'The page holds fewer items than `limit` because of their size.' },
}, { title: 'TracePage' });

export const traceSchema = traceItem;

export const tracedProjectSchema = closedObject({ project: text, trace: traceItem }, { title: 'TraceWithProject' });

const evalCost = closedObject({ tokens_in: count, tokens_out: count, usd: { type: 'number' } });

const definitionScore = closedObject({
  eval_definition_id: text,
  name: text,
  type: text,
  method: text,
  avg_score: nullableNumber,
  samples: count,
  failed: count,
  skipped: count,
  other_methods: {
    type: 'array',
    items: closedObject({ method: text, avg_score: { type: 'number' }, samples: count }),
    description: 'Ok results of other methods, not averaged with these.',
  },
}, { title: 'DefinitionScore' });

const versionStatsProperties = {
  requests: count,
  errors: count,
  error_rate: { type: 'number' },
  avg_score: nullableNumber,
  eval_samples: count,
  p50_latency_ms: nullableNumber,
  p95_latency_ms: nullableNumber,
  p99_latency_ms: nullableNumber,
  cost_usd: { type: 'number' },
  avg_cost_usd: nullableNumber,
  input_tokens: count,
  output_tokens: count,
  total_tokens: count,
  first_seen: nullableIso,
  last_seen: nullableIso,
};
const versionStats = closedObject(versionStatsProperties, { title: 'PromptVersionStats' });

export const templatePageSchema = paged(closedObject({
  name: text,
  latest_version: { type: ['integer', 'null'] },
  version_count: count,
  versions: {
    type: 'array',
    items: closedObject({ version: { type: 'integer' }, hash: text, created_at: isoTime, ...versionStatsProperties }, { title: 'PromptVersionSummary' }),
    description: 'The newest versions, oldest first.',
  },
}, { title: 'PromptTemplate' }), 'PromptTemplatePage');

export const versionSchema = closedObject({
  template: text,
  version: { type: 'integer' },
  hash: text,
  created_at: isoTime,
  text,
  previous_version: { type: ['integer', 'null'] },
  against: { type: ['integer', 'null'] },
  diff: { type: ['string', 'null'], description: '`diff -u` text; empty for equal texts; null without a version to compare with, or when too_large.' },
  too_large: { type: 'boolean', description: 'True when the two versions are too different or too long to diff inline.' },
  diff_omitted: {
    anyOf: [{ type: 'null' }, closedObject({
      code: text,
      reason: { enum: ['size', 'edits', 'work'] },
      message: text,
      downloads: closedObject({ from: text, to: text }, { description: 'Paths of both texts (GET …/versions/:n/text).' }),
    })],
  },
  stats: versionStats,
  eval_scores: { type: 'array', items: definitionScore },
}, { title: 'PromptVersion' });

export const versionTextBody = nonJsonBody('text/plain', 'The version\'s normalised text, as an attachment.');

export const statsSchema = closedObject({
  range: text,
  from: isoTime,
  to: isoTime,
  step_ms: count,
  requests: count,
  errors: count,
  error_rate: { type: 'number' },
  latency_ms: closedObject({ p50: nullableNumber, p95: nullableNumber, p99: nullableNumber }),
  tokens: closedObject({ input: count, output: count, total: count }),
  cost_usd: { type: 'number' },
  eval_score_avg: nullableNumber,
  eval: closedObject({ score_avg: nullableNumber, samples: count, failed: count, skipped: count, cost: evalCost, by_definition: { type: 'array', items: definitionScore } }),
  series: {
    type: 'array',
    items: closedObject({
      time: isoTime, requests: count, errors: count, error_rate: { type: 'number' }, tokens: count, input_tokens: count, output_tokens: count,
      cost_usd: { type: 'number' }, avg_latency_ms: nullableNumber, p95_latency_ms: nullableNumber, p99_latency_ms: nullableNumber,
      avg_score: nullableNumber,
    }, { title: 'ProjectStatsPoint' }),
  },
}, { title: 'ProjectStats' });

const gateSide = closedObject({
  version: { type: 'integer' },
  samples: count,
  stats: closedObject({
    requests: count, errors: count, error_rate: { type: 'number' }, avg_score: nullableNumber, p95_latency_ms: nullableNumber,
    avg_cost_usd: nullableNumber, cost_usd: { type: 'number' },
  }),
}, { title: 'GateSide' });

export const gateSchema = closedObject({
  pass: { type: ['boolean', 'null'], description: 'Null with too few samples, or when a check cannot be computed yet.' },
  reason: text,
  template: text,
  baseline: { anyOf: [{ type: 'null' }, gateSide] },
  candidate: gateSide,
  min_samples: count,
  checks: {
    type: 'array',
    items: closedObject({
      metric: { enum: [...THRESHOLDS] }, baseline: nullableNumber, candidate: nullableNumber, threshold: { type: 'number' }, value: nullableNumber,
      pass: { type: ['boolean', 'null'] },
    }, { title: 'GateCheck' }),
  },
}, { title: 'GateVerdict' });

export const evalResultPageSchema = paged({
  type: 'object',
  required: ['id', 'eval_definition_id', 'trace_id', 'score', 'status', 'reason', 'method', 'cost', 'latency_ms', 'created_at'],
  properties: {
    id: text, eval_definition_id: text, trace_id: text, score: nullableNumber, status: { enum: ['ok', 'failed', 'skipped'] }, reason: { type: ['string', 'null'] },
    method: text, cost: closedObject({ tokens_in: count, tokens_out: count, usd: nullableNumber }), latency_ms: { type: 'number' }, created_at: isoTime,
  },
}, 'ScoredEvalResultPage');

export const alertEventPageSchema = paged(ALERT_EVENT_SCHEMA, 'AlertEventPage');

const origin: JsonSchema = { enum: ['config', 'store'] };

/** effective-settings.ts `effectiveSettings`: each setting from the project, else `llm.defaults`, else built in. */
const effectiveSettings = closedObject({
  plan: { type: ['string', 'null'], description: 'The plan of llm.plans in force; null: none.' },
  monthlyBudgetUsd: { ...nullableNumber, description: 'USD; null: no cap.' },
  overBudgetSampleRate: { type: 'number' },
  itemsPerMonth: { type: ['integer', 'null'], description: 'Null: no limit.' },
  itemsPerBatch: count,
  bodyBytes: count,
  itemKeys: count,
  itemBytes: count,
  redact: closedObject({ json_fields: { type: 'array', items: text }, detect: { type: 'array', items: { enum: [...DETECTOR_KINDS] } } }),
  retentionMs: count,
}, { title: 'EffectiveProjectSettings', description: 'The settings in force: its own over the plugin\'s defaults.' });

const projectView = {
  name: text,
  source: origin,
  settings: { ...projectSettingsSchema, title: 'ProjectSettings', description: 'The project\'s own settings, as set.' },
  effective: effectiveSettings,
  created_at: isoTime,
  updated_at: isoTime,
};

export const projectSchema = closedObject(projectView, { title: 'LlmProject' });

export const projectListSchema = closedObject({
  data: {
    type: 'array',
    items: closedObject({
      ...projectView,
      keys: {
        type: 'array',
        items: closedObject({ hint: text, source: origin, created_at: isoTime, expires_at: nullableIso }, { title: 'ProjectKeyHint' }),
      },
      usage: closedObject({ month: text, items: count, cost_usd: { type: 'number' }, sampled_out: count }, { title: 'ProjectMonthUsage' }),
    }, { title: 'LlmProjectWithKeys' }),
  },
}, { title: 'LlmProjectList' });

export const createdProjectSchema = closedObject({ project: projectSchema, key: { type: 'string', description: 'The project key, shown this once.' } }, { title: 'CreatedLlmProject' });
export const rotatedKeySchema = closedObject({ key: text, previous_keys_expire_at: isoTime }, { title: 'RotatedProjectKey' });
export const deletedProjectSchema = closedObject({ deleted: text, traces: count });

export const langfuseHealthSchema = closedObject({ status: { const: 'OK' }, version: text });

export const langfuseIngestionSchema = closedObject({
  successes: { type: 'array', items: closedObject({ id: text, status: { type: 'integer' } }) },
  errors: { type: 'array', items: { type: 'object', required: ['id', 'status'], properties: { id: text, status: { type: 'integer' }, message: text } } },
}, { title: 'LangfuseIngestionResponse' });

/** ExportTraceServiceResponse or ExportLogsServiceResponse, in the request's encoding. */
export const otlpAnswerBody = nonJsonBody('application/x-protobuf', 'The OTLP export response in the request\'s encoding (protobuf, or JSON).', {
  title: 'OtlpExportResponse',
  type: 'object',
  additionalProperties: false,
  properties: { partialSuccess: { type: 'object', description: 'Rejected spans or log records, and why.' } },
});
