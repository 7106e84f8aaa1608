/**
 * The Langfuse legacy ingestion batch (`POST /api/public/ingestion`, used by the `langfuse` v3 JS SDK and the v2
 * Python SDK): `{ batch: [{ id, type, timestamp, body, metadata? }], metadata? }`. Each event is validated on its
 * own; the answer lists successes and errors per event id (ingestion-response.ts).
 *
 * Validation refuses only what is malformed (wrong types, unknown event types) or past any real call (a time more
 * than minutes ahead of the server's clock or before 2000, token counts or a cost past the trace item's bounds,
 * item-schema.ts): the SDK retries the whole batch when any event is refused, so anything Vigil merely does not use
 * is accepted. An event refused here never reaches the merged state, so it cannot make an item that the ingest
 * pipeline would then refuse out of sight of the 207.
 */
import { MAX_COST_USD, MAX_TOKENS, timeOutOfBounds } from '../item-schema.js';
import { costFromDetails, tokensFromUsage } from './usage-details.js';

export const EVENT_TYPES = [
  'trace-create', 'generation-create', 'generation-update', 'span-create', 'span-update', 'event-create',
  'observation-create', 'observation-update', 'score-create', 'sdk-log',
] as const;
export type LangfuseEventType = (typeof EVENT_TYPES)[number];

export type Body = Record<string, unknown>;

export interface LangfuseEvent {
  /** The envelope id: answered in successes/errors, and de-duplicates a retried batch. */
  id: string;
  type: LangfuseEventType;
  /** ISO 8601; when absent, the time the batch was parsed. */
  timestamp: string;
  body: Body;
}

export interface EventError {
  id: string;
  status: number;
  message: string;
  error: string;
}

export interface ParsedBatch {
  events: LangfuseEvent[];
  errors: EventError[];
}

/** The body as a whole is not a batch: the spine answers 400 with its own error code. */
export class LangfuseBatchError extends Error {
  override readonly name = 'LangfuseBatchError';
}

const isObj = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const LEVELS = new Set(['DEBUG', 'DEFAULT', 'WARNING', 'ERROR']);
const OBSERVATION_TYPES = new Set(['SPAN', 'GENERATION', 'EVENT', 'AGENT', 'TOOL', 'CHAIN', 'RETRIEVER', 'EVALUATOR', 'EMBEDDING', 'GUARDRAIL']);
const SCORE_TYPES = new Set(['NUMERIC', 'CATEGORICAL', 'BOOLEAN']);
const DATE_FIELDS = ['timestamp', 'startTime', 'endTime', 'completionStartTime'];

const optional = (body: Body, key: string, kind: 'string' | 'object' | 'number', problems: string[]) => {
  const v = body[key];
  if (v === undefined || v === null) return;
  if (kind === 'object' ? !isObj(v) : typeof v !== kind) problems.push(`body.${key} must be ${kind === 'object' ? 'an object' : `a ${kind}`}`);
};

/** Token counts and costs past what one call can have, as the trace item would carry them (usage-details.ts). */
function amountProblems(body: Body, problems: string[]): void {
  for (const key of ['usage', 'usageDetails']) {
    for (const [kind, n] of Object.entries(tokensFromUsage(body[key]) ?? {})) {
      if (n > MAX_TOKENS) problems.push(`body.${key}: ${n} ${kind} tokens, more than the ${MAX_TOKENS} of any call`);
    }
  }
  for (const [key, cost] of [['costDetails', costFromDetails(body.costDetails)], ['usage', costFromDetails(undefined, body.usage)]] as const) {
    if (cost !== undefined && cost > MAX_COST_USD) problems.push(`body.${key}: a cost of ${cost} USD, more than the ${MAX_COST_USD} USD of any call`);
  }
}

/** What is wrong with one event's body, per its type; empty when nothing is. `now` is epoch ms. */
function bodyProblems(type: LangfuseEventType, body: Body, now: number): string[] {
  const problems: string[] = [];
  if (type === 'sdk-log') return problems;
  const isUpdate = type.endsWith('-update');
  if (isUpdate && (typeof body.id !== 'string' || body.id === '')) problems.push('body.id is required on an update');
  optional(body, 'id', 'string', problems);
  for (const key of DATE_FIELDS) {
    const v = body[key];
    if (v === undefined || v === null) continue;
    const ms = typeof v === 'string' ? Date.parse(v) : NaN;
    const outOfBounds = Number.isNaN(ms) ? `body.${key} must be an ISO 8601 date-time` : timeOutOfBounds(`body.${key}`, ms, now);
    if (outOfBounds) problems.push(outOfBounds);
  }
  if (type === 'score-create') {
    if (typeof body.name !== 'string' || body.name === '') problems.push('body.name is required');
    const v = body.value;
    if (typeof v !== 'number' && typeof v !== 'string' && typeof v !== 'boolean') problems.push('body.value must be a number, a string or a boolean');
    if (body.dataType !== undefined && body.dataType !== null && !SCORE_TYPES.has(String(body.dataType))) problems.push('body.dataType must be NUMERIC, CATEGORICAL or BOOLEAN');
    for (const key of ['traceId', 'observationId', 'sessionId', 'comment', 'configId']) optional(body, key, 'string', problems);
    return problems;
  }
  for (const key of ['name', 'traceId', 'parentObservationId', 'model', 'statusMessage', 'version', 'environment', 'userId', 'sessionId', 'release', 'promptName']) {
    optional(body, key, 'string', problems);
  }
  for (const key of ['usage', 'usageDetails', 'costDetails', 'modelParameters']) optional(body, key, 'object', problems);
  amountProblems(body, problems);
  // metadata, input and output may be any JSON, as in Langfuse: never a reason to refuse.
  if (body.level !== undefined && body.level !== null && !LEVELS.has(String(body.level))) problems.push('body.level must be DEBUG, DEFAULT, WARNING or ERROR');
  if (type.startsWith('observation-') && body.type !== undefined && !OBSERVATION_TYPES.has(String(body.type))) problems.push(`body.type ${JSON.stringify(body.type)} is not an observation type`);
  if (body.tags !== undefined && body.tags !== null && !(Array.isArray(body.tags) && body.tags.every((t) => typeof t === 'string'))) problems.push('body.tags must be a list of strings');
  return problems;
}

/** Parses a batch body (already JSON.parse'd). Throws LangfuseBatchError when it is not `{ batch: [...] }`. */
export function parseIngestionBatch(payload: unknown, now: () => string = () => new Date().toISOString()): ParsedBatch {
  if (!isObj(payload) || !Array.isArray(payload.batch)) throw new LangfuseBatchError('the body must be a JSON object with a "batch" array');
  const events: LangfuseEvent[] = [];
  const errors: EventError[] = [];
  const at = now();
  const nowMs = Date.parse(at);
  payload.batch.forEach((raw: unknown, index: number) => {
    const id = isObj(raw) && typeof raw.id === 'string' && raw.id !== '' ? raw.id : `batch[${index}]`;
    const refuse = (message: string) => errors.push({ id, status: 400, message, error: 'invalid_event' });
    if (!isObj(raw)) return refuse('an event must be an object');
    if (typeof raw.id !== 'string' || raw.id === '') return refuse('the event id is required');
    if (typeof raw.type !== 'string' || !(EVENT_TYPES as readonly string[]).includes(raw.type)) {
      return refuse(`unknown event type ${JSON.stringify(raw.type)}; expected one of ${EVENT_TYPES.join(', ')}`);
    }
    if (raw.timestamp !== undefined && (typeof raw.timestamp !== 'string' || Number.isNaN(Date.parse(raw.timestamp)))) return refuse('timestamp must be an ISO 8601 date-time');
    const stampProblem = raw.timestamp === undefined ? undefined : timeOutOfBounds('timestamp', Date.parse(raw.timestamp), nowMs);
    if (stampProblem) return refuse(stampProblem);
    if (!isObj(raw.body)) return refuse('body must be an object');
    const type = raw.type as LangfuseEventType;
    const problems = bodyProblems(type, raw.body, nowMs);
    if (problems.length > 0) return refuse(problems.join('; '));
    events.push({ id: raw.id, type, timestamp: (raw.timestamp as string | undefined) ?? at, body: raw.body });
  });
  return { events, errors };
}
