import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';
import type { TraceItem } from './trace-item.js';

/** Nesting an item's values may have (input, output, metadata): deeper items are refused one by one. */
export const MAX_ITEM_DEPTH = 48;

/**
 * Bounds past which a value cannot describe one real LLM call. They keep a project's sums finite (a cost of 1e308
 * made its stats read null; tokens near 2^53 overflow SQLite's integer SUM) and its lists in time order. Every ingest
 * path (native, OTLP, Langfuse) refuses what is past them, item by item, naming the field.
 */
/** USD, per call: far above the dearest call a provider bills. */
export const MAX_COST_USD = 1_000_000;
/** One day, in ms: no single call runs longer. */
export const MAX_LATENCY_MS = 86_400_000;
/** Each token count (input, output, cache_read, total): a thousand times the largest context window. */
export const MAX_TOKENS = 1_000_000_000;
/** How far ahead of this server's clock a time may be, in ms: client clocks drift, by seconds, not years. */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;
/** The earliest time a call can have started (epoch ms): no LLM API answered before; earlier is often seconds sent as ms. */
export const MIN_START_TIME_MS = Date.UTC(2000, 0, 1);

/** Why `ms` (epoch) cannot be the time of a call, for a message about `field`; undefined when it can. */
export function timeOutOfBounds(field: string, ms: number, now: number): string | undefined {
  if (ms > now + MAX_CLOCK_AHEAD_MS) {
    return `${field} ${new Date(ms).toISOString()} is more than ${MAX_CLOCK_AHEAD_MS / 60_000} minutes ahead of the server's clock `
      + `(${new Date(now).toISOString()}): send the call's real time, and check the sender's clock`;
  }
  if (ms < MIN_START_TIME_MS) {
    return `${field} ${new Date(ms).toISOString()} is before 2000-01-01, earlier than any LLM call: send the call's real time `
      + '(epoch seconds read as milliseconds land in 1970)';
  }
  return undefined;
}

const text = (maxLength: number) => ({ type: 'string', maxLength });
const count = { type: 'integer', minimum: 0, maximum: MAX_TOKENS };

/** The trace item (trace-item.ts) as JSON Schema: every key known, `model` required. */
export const traceItemSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['model'],
  properties: {
    model: { type: 'string', minLength: 1, maxLength: 256 },
    id: { type: 'string', format: 'uuid' },
    name: text(512),
    provider: text(128),
    status: { enum: ['ok', 'error'] },
    error: text(16_384),
    start_time: { type: 'string', format: 'date-time' },
    latency_ms: { type: 'number', minimum: 0, maximum: MAX_LATENCY_MS },
    tokens: {
      type: 'object',
      additionalProperties: false,
      properties: { input: count, output: count, cache_read: count, total: count },
    },
    cost_usd: { type: 'number', minimum: 0, maximum: MAX_COST_USD },
    input: {},
    output: {},
    prompt_template: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'raw'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 256 },
        raw: text(262_144),
        variables: { type: 'object' },
      },
    },
    user_id: text(256),
    session_id: text(256),
    tags: { type: 'array', maxItems: 64, items: { type: 'string', minLength: 1, maxLength: 128 } },
    metadata: { type: 'object' },
  },
};

export interface ItemError {
  /** The item's index in the batch. */
  index: number;
  code: string;
  message: string;
  /** Key path inside the item (`tokens.input`); empty for the item itself. */
  path: string;
}

const ajv = new Ajv2020({ strict: true, allErrors: false, logger: false });
ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
ajv.addFormat('date-time', { type: 'string', validate: (s: string) => DATE_TIME.test(s) && !Number.isNaN(Date.parse(s)) });
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
// Compiled on the first item, not at start-up: compiling it was a twentieth of a start (bench/startup.ts).
let compiled: ValidateFunction<TraceItem> | undefined;

/** `/tokens/input` → `tokens.input`; `/tags/2` → `tags[2]`. */
function keyPath(pointer: string, extra?: string): string {
  const parts = pointer === '' ? [] : pointer.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  let out = '';
  for (const p of parts) {
    if (/^\d+$/.test(p)) out += `[${p}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(p)) out += out ? `.${p}` : p;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}

function describe(error: ErrorObject): { path: string; message: string } {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    const path = keyPath(error.instancePath, String(params.additionalProperty));
    return { path, message: `${path} is not a field of a trace item` };
  }
  if (error.keyword === 'required') {
    const path = keyPath(error.instancePath, String(params.missingProperty));
    return { path, message: `${path} is required` };
  }
  const path = keyPath(error.instancePath);
  const allowed = error.keyword === 'enum' ? `: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` : '';
  return { path, message: `${path || 'the item'} ${error.message ?? 'is invalid'}${allowed}` };
}

/** Whether `value` nests arrays and objects deeper than `max` (the value itself is level 1). Stops as soon as it knows. */
export function deeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    for (const v of value) if (deeperThan(v, max - 1)) return true;
    return false;
  }
  for (const k in value) if (deeperThan((value as Record<string, unknown>)[k], max - 1)) return true;
  return false;
}

/**
 * The item as a `TraceItem`, or why not (the first problem found). `now` (epoch ms) is the clock `start_time` is held
 * to: a schema cannot say "not in the future".
 */
export function checkItem(item: unknown, index: number, now = Date.now()): { ok: true; item: TraceItem } | { ok: false; error: ItemError } {
  const validate = (compiled ??= ajv.compile<TraceItem>(traceItemSchema));
  if (!validate(item)) {
    const { path, message } = describe(validate.errors![0]);
    return { ok: false, error: { index, code: LlmErrors.ITEM_INVALID, message, path } };
  }
  if (item.start_time !== undefined) {
    const late = timeOutOfBounds('start_time', Date.parse(item.start_time), now);
    if (late) return { ok: false, error: { index, code: LlmErrors.ITEM_INVALID, message: late, path: 'start_time' } };
  }
  if (deeperThan(item, MAX_ITEM_DEPTH + 1)) {
    return { ok: false, error: { index, code: LlmErrors.ITEM_INVALID, message: `the item nests deeper than ${MAX_ITEM_DEPTH} levels`, path: '' } };
  }
  return { ok: true, item };
}
