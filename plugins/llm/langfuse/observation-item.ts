/**
 * A complete Langfuse generation (entity-reducer.ts), and its trace when Vigil has seen it, → one trace item.
 *
 * The trace contributes what Langfuse keeps at trace level: user, session, tags and metadata (the observation's
 * own metadata wins on a shared key), and its name under `metadata.langfuse.trace_name`. Trace input and output
 * are not copied to each generation: they are the app's, not the LLM call's. A trace that arrives after its
 * generation was handed on is kept in the state store only (see README.md).
 */
import type { TraceItem } from '../trace-item.js';
import { uuidFor } from '../otlp/item-id.js';
import { registryPromptRaw } from '../otlp/span-fields.js';
import type { LangfuseEntity } from './entity-reducer.js';
import type { Body } from './ingestion-event.js';
import { costFromDetails, mergeTokens, tokensFromUsage } from './usage-details.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const isObj = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);
const metadataOf = (v: unknown): Body | undefined => (isObj(v) ? v : v === undefined || v === null ? undefined : { value: v });

/** The trace item id of a Langfuse observation: its id when a UUID (the SDKs make them), derived otherwise. */
export const observationItemId = (observationId: string): string => uuidFor(observationId, 'langfuse');

export function observationToItem(observation: LangfuseEntity, trace?: LangfuseEntity, extra?: Body): TraceItem {
  const b = observation.body;
  const t = trace?.body ?? {};
  const model = str(b.model);
  const item: TraceItem = { model: model ?? 'unknown', id: observationItemId(observation.id) };
  const name = str(b.name);
  if (name) item.name = name;
  const level = str(b.level);
  item.status = level === 'ERROR' ? 'error' : 'ok';
  if (level === 'ERROR') item.error = str(b.statusMessage) ?? 'error';
  const start = Date.parse(String(b.startTime ?? ''));
  const end = Date.parse(String(b.endTime ?? ''));
  if (!Number.isNaN(start)) item.start_time = new Date(start).toISOString();
  if (!Number.isNaN(start) && !Number.isNaN(end) && end >= start) item.latency_ms = end - start;
  const tokens = mergeTokens(tokensFromUsage(b.usageDetails), tokensFromUsage(b.usage));
  if (tokens) item.tokens = tokens;
  const cost = costFromDetails(b.costDetails, b.usage);
  if (cost !== undefined) item.cost_usd = cost;
  if (b.input !== undefined && b.input !== null) item.input = b.input;
  if (b.output !== undefined && b.output !== null) item.output = b.output;
  const promptName = str(b.promptName);
  if (promptName) {
    const version = typeof b.promptVersion === 'number' || typeof b.promptVersion === 'string' ? String(b.promptVersion) : undefined;
    item.prompt_template = { name: promptName, raw: registryPromptRaw(promptName, version) };
  }
  const user = str(b.userId) ?? str(t.userId);
  if (user) item.user_id = user;
  const session = str(b.sessionId) ?? str(t.sessionId);
  if (session) item.session_id = session;
  const tags = Array.isArray(t.tags) ? t.tags.filter((x): x is string => typeof x === 'string') : [];
  if (tags.length > 0) item.tags = tags;

  const langfuse: Body = { observation_id: observation.id };
  const set = (key: string, v: unknown) => { if (v !== undefined && v !== null && v !== '') langfuse[key] = v; };
  set('trace_id', str(b.traceId));
  set('parent_observation_id', str(b.parentObservationId));
  set('trace_name', str(t.name));
  set('type', observation.type);
  set('level', level);
  set('status_message', level === 'ERROR' ? undefined : str(b.statusMessage));
  set('model_parameters', isObj(b.modelParameters) ? b.modelParameters : undefined);
  set('environment', str(b.environment) ?? str(t.environment));
  set('release', str(t.release));
  set('version', str(b.version) ?? str(t.version));
  set('completion_start_time', str(b.completionStartTime));
  const firstToken = Date.parse(String(b.completionStartTime ?? ''));
  if (!Number.isNaN(firstToken) && !Number.isNaN(start)) langfuse.time_to_first_token_ms = Math.max(0, firstToken - start);
  if (isObj(b.usage) && typeof b.usage.unit === 'string' && b.usage.unit.toUpperCase() !== 'TOKENS') langfuse.usage = b.usage;
  item.metadata = {
    ...metadataOf(t.metadata),
    ...metadataOf(b.metadata),
    langfuse: { ...langfuse, ...extra },
    ...(tokens === undefined ? { usage_missing: true } : {}),
    ...(model === undefined ? { model_missing: true } : {}),
  };
  return item;
}
