/**
 * The fields of an LLM span other than tokens and messages: what makes it an LLM call (its model), who served it,
 * whether it failed, its prompt template, and the trace-level fields (user, session, tags, metadata) wherever the
 * convention put them. Each list is in order of precedence: the first present wins.
 */
import type { PromptTemplateRef } from '../trace-item.js';
import { attributesUnder, firstCount, firstString, jsonAttribute } from './attribute-values.js';
import type { OtlpAttributes, OtlpSpan } from './otlp-model.js';

export const MODEL_KEYS = [
  'gen_ai.response.model', 'gen_ai.request.model', 'llm.model_name', 'ai.model.id',
  // Besides the GenAI, OpenInference and Vercel spellings: OpenInference embeddings and Langfuse's own generations
  // name the model here (the mapping table: otlp/README.md).
  'embedding.model_name', 'langfuse.observation.model.name',
];
const PROVIDER_KEYS = ['gen_ai.provider.name', 'gen_ai.system', 'llm.provider', 'llm.system', 'ai.model.provider'];
// The Vercel AI SDK names providers `openai.chat`, `openai.responses`…: the suffix is the API, not the provider.
const VERCEL_API_SUFFIX = /\.(chat|responses|completion|embedding|image|transcription|speech)$/;

/** Lowercased, without the Vercel API suffix (`OpenAI` → `openai`, `openai.chat` → `openai`; `aws.bedrock` stays). */
export function spanProvider(attrs: OtlpAttributes): string | undefined {
  const p = firstString(attrs, PROVIDER_KEYS);
  return p?.toLowerCase().replace(VERCEL_API_SUFFIX, '');
}

/** The Vercel AI SDK's outer spans (`ai.generateText`…) repeat their inner provider call's model and usage. */
export function isVercelWrapper(attrs: OtlpAttributes): boolean {
  const op = attrs['ai.operationId'];
  return typeof op === 'string' && !/\.do(Generate|Stream|Embed)$/.test(op);
}

/** What kind of call: the convention's own word, lowercased (`chat`, `embeddings`, `llm`, `generation`…). */
export function spanOperation(attrs: OtlpAttributes): string | undefined {
  return firstString(attrs, ['openinference.span.kind', 'gen_ai.operation.name', 'langfuse.observation.type', 'llm.request.type'])?.toLowerCase();
}

/** Error status and message: the span's status, then Langfuse's level; the message from the status, an exception event, `error.type`. */
export function spanError(span: OtlpSpan): { status: 'ok' | 'error'; error?: string } {
  const a = span.attributes;
  const level = typeof a['langfuse.observation.level'] === 'string' ? a['langfuse.observation.level'].toUpperCase() : '';
  if (span.status.code !== 2 && level !== 'ERROR') return { status: 'ok' };
  const exception = span.events.find((e) => e.name === 'exception');
  const fromException = exception ? firstString(exception.attributes, ['exception.message', 'exception.type']) : undefined;
  const error = span.status.message || firstString(a, ['langfuse.observation.status_message']) || fromException || firstString(a, ['error.type']) || 'error';
  return { status: 'error', error };
}

/**
 * The prompt template, when the span names one. OpenInference carries the text; `gen_ai.prompt.name` and Langfuse
 * carry only a name and version (the text lives in a prompt registry): then `raw` is a reference naming both, so
 * that each version of the template still hashes to a version of its own in Vigil.
 */
export function spanPromptTemplate(attrs: OtlpAttributes, spanName: string): PromptTemplateRef | undefined {
  const raw = firstString(attrs, ['llm.prompt_template.template']);
  const name = firstString(attrs, ['langfuse.observation.prompt.name', 'gen_ai.prompt.name', 'llm.prompt_template.name']);
  if (raw === undefined && name === undefined) return undefined;
  const versionValue = attrs['langfuse.observation.prompt.version'] ?? attrs['llm.prompt_template.version'] ?? attrs['gen_ai.prompt.version'];
  const version = typeof versionValue === 'string' || typeof versionValue === 'number' ? String(versionValue) : undefined;
  const variables = jsonAttribute(attrs['llm.prompt_template.variables']);
  return {
    name: name ?? spanName,
    raw: raw ?? registryPromptRaw(name!, version),
    ...(typeof variables === 'object' && variables !== null && !Array.isArray(variables) ? { variables: variables as Record<string, unknown> } : {}),
  };
}

/**
 * The `raw` of a template known only by name and version (its text lives in the sender's prompt registry): a
 * reference, so each version still hashes to a Vigil version of its own.
 */
export const registryPromptRaw = (name: string, version: string | undefined): string =>
  `prompt "${name}" version ${version ?? 'unknown'} (text kept by the sender's prompt registry)`;

export interface TraceFields {
  user_id?: string;
  session_id?: string;
  tags?: string[];
  /** User metadata from the span (Langfuse, Vercel `ai.telemetry.metadata.*`, OpenInference `metadata`). */
  metadata?: Record<string, unknown>;
  /** Langfuse's trace-level fields, which the SDK sets on whichever span the app chose. */
  trace_name?: string;
  trace_metadata?: Record<string, unknown>;
}

function tagList(v: unknown): string[] | undefined {
  const list = typeof v === 'string' ? jsonAttribute(v) : v;
  if (Array.isArray(list)) return list.filter((t): t is string => typeof t === 'string');
  return typeof list === 'string' && list !== '' ? list.split(',').map((t) => t.trim()).filter(Boolean) : undefined;
}

const objectOf = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** Langfuse writes metadata either as one JSON attribute or flattened under the same name. */
const langfuseMetadata = (attrs: OtlpAttributes, name: string): Record<string, unknown> | undefined =>
  objectOf(jsonAttribute(attrs[name])) ?? attributesUnder(attrs, name);

export function traceFields(attrs: OtlpAttributes): TraceFields {
  const vercel = attributesUnder(attrs, 'ai.telemetry.metadata');
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const user = firstString(attrs, ['langfuse.user.id', 'user.id', 'enduser.id']) ?? str(vercel?.userId);
  const session = firstString(attrs, ['langfuse.session.id', 'session.id', 'gen_ai.conversation.id']) ?? str(vercel?.sessionId);
  const tags = tagList(attrs['langfuse.trace.tags']) ?? tagList(attrs['tag.tags']);
  const metadata = {
    ...objectOf(jsonAttribute(attrs.metadata)),
    ...vercel,
    ...langfuseMetadata(attrs, 'langfuse.observation.metadata'),
  };
  const fields: TraceFields = {};
  if (user) fields.user_id = user;
  if (session) fields.session_id = session;
  if (tags && tags.length > 0) fields.tags = tags;
  if (Object.keys(metadata).length > 0) fields.metadata = metadata;
  const traceName = firstString(attrs, ['langfuse.trace.name']);
  if (traceName) fields.trace_name = traceName;
  const traceMetadata = langfuseMetadata(attrs, 'langfuse.trace.metadata');
  if (traceMetadata) fields.trace_metadata = traceMetadata;
  return fields;
}

/** Request parameters (temperature, max tokens…) wherever the convention put them. */
export function requestParameters(attrs: OtlpAttributes): Record<string, unknown> | undefined {
  const params: Record<string, unknown> = {
    ...objectOf(jsonAttribute(attrs['llm.invocation_parameters'])),
    ...objectOf(jsonAttribute(attrs['langfuse.observation.model.parameters'])),
    ...attributesUnder(attrs, 'ai.settings'),
  };
  for (const key of Object.keys(attrs)) {
    if (key.startsWith('gen_ai.request.') && key !== 'gen_ai.request.model') params[key.slice('gen_ai.request.'.length)] = jsonAttribute(attrs[key]);
  }
  delete params.model;
  return Object.keys(params).length > 0 ? params : undefined;
}

/** Time to the first token, in ms, when the span says (Vercel's msToFirstChunk, Langfuse's completion start). */
export function timeToFirstTokenMs(attrs: OtlpAttributes, startTimeUnixNano: number): number | undefined {
  const ms = firstCount(attrs, ['ai.response.msToFirstChunk']);
  if (ms !== undefined) return ms;
  const completionStart = firstString(attrs, ['langfuse.observation.completion_start_time']);
  const at = completionStart ? Date.parse(completionStart.replace(/^"|"$/g, '')) : NaN;
  return Number.isFinite(at) && startTimeUnixNano > 0 ? Math.max(0, at - startTimeUnixNano / 1e6) : undefined;
}
