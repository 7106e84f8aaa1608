/**
 * What a trace records of one openai call, read from the request the application made and the response (or error)
 * openai returned: the shapes of chat completions, the Responses API and embeddings, as openai v4 to v6 return them.
 * Nothing here changes those objects; it only reads them.
 */
import type { TraceTokens } from './trace-item.js';

export type Operation = 'chat.completions' | 'responses' | 'embeddings';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** What the trace keeps of the request, read when the call is made (later changes by the application do not count). */
export interface CallRequest {
  model?: string;
  stream: boolean;
  input?: unknown;
  /** The other request fields (temperature, max_tokens, tools, …), kept in metadata. */
  parameters?: Obj;
}

/** What the trace keeps of the answer. */
export interface CallResult {
  model?: string;
  status?: 'ok' | 'error';
  error?: string;
  tokens?: TraceTokens;
  output?: unknown;
  metadata?: Obj;
}

const INPUT_FIELDS: Record<Operation, string[]> = {
  'chat.completions': ['messages'],
  responses: ['input', 'instructions'],
  embeddings: ['input'],
};

export function describeRequest(operation: Operation, body: unknown): CallRequest {
  if (!isObj(body)) return { stream: false };
  const parameters: Obj = {};
  for (const key of Object.keys(body)) {
    if (key !== 'model' && key !== 'stream' && !INPUT_FIELDS[operation].includes(key)) parameters[key] = body[key];
  }
  const input = operation === 'responses' && body.instructions !== undefined
    ? { instructions: body.instructions, input: body.input }
    : body[INPUT_FIELDS[operation][0]];
  return {
    model: typeof body.model === 'string' ? body.model : undefined,
    stream: body.stream === true,
    input,
    parameters: Object.keys(parameters).length ? parameters : undefined,
  };
}

/** Chat completions' usage: `prompt_tokens`, `completion_tokens`, `prompt_tokens_details.cached_tokens`, `total_tokens`. */
export function chatTokens(usage: unknown): TraceTokens | undefined {
  if (!isObj(usage)) return undefined;
  const details = isObj(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  return compactTokens({ input: num(usage.prompt_tokens), output: num(usage.completion_tokens), cache_read: num(details.cached_tokens), total: num(usage.total_tokens) });
}

/** The Responses API's usage: `input_tokens`, `output_tokens`, `input_tokens_details.cached_tokens`, `total_tokens`. */
export function responsesTokens(usage: unknown): TraceTokens | undefined {
  if (!isObj(usage)) return undefined;
  const details = isObj(usage.input_tokens_details) ? usage.input_tokens_details : {};
  return compactTokens({ input: num(usage.input_tokens), output: num(usage.output_tokens), cache_read: num(details.cached_tokens), total: num(usage.total_tokens) });
}

function compactTokens(t: TraceTokens): TraceTokens | undefined {
  const out: TraceTokens = {};
  for (const k of ['input', 'output', 'cache_read', 'total'] as const) if (t[k] !== undefined) out[k] = t[k];
  return Object.keys(out).length ? out : undefined;
}

/** One message, or the list of them when the call asked for several choices (`n` > 1). */
function chatOutput(messages: unknown[]): unknown {
  return messages.length === 1 ? messages[0] : messages;
}

export function describeChatCompletion(value: Obj): CallResult {
  const choices = Array.isArray(value.choices) ? value.choices.filter(isObj) : [];
  const reasons = choices.map((c) => c.finish_reason).filter((r) => typeof r === 'string');
  const tokens = chatTokens(value.usage);
  const metadata: Obj = {};
  if (reasons.length) metadata.finish_reason = reasons.length === 1 ? reasons[0] : reasons;
  if (!tokens) metadata.usage_missing = true;
  return {
    model: typeof value.model === 'string' ? value.model : undefined,
    tokens,
    output: chatOutput(choices.map((c) => c.message)),
    metadata,
  };
}

export function describeResponse(value: Obj): CallResult {
  const output = Array.isArray(value.output) ? value.output : [];
  const onlyMessages = output.every((o) => isObj(o) && o.type === 'message');
  const tokens = responsesTokens(value.usage);
  const metadata: Obj = {};
  if (typeof value.status === 'string') metadata.response_status = value.status;
  if (isObj(value.incomplete_details)) metadata.incomplete_details = value.incomplete_details;
  if (!tokens) metadata.usage_missing = true;
  const failed = value.status === 'failed';
  const err = isObj(value.error) ? value.error : undefined;
  return {
    model: typeof value.model === 'string' ? value.model : undefined,
    tokens,
    // Text is what a reader wants to see; tool calls and other items only survive in the full output list.
    output: onlyMessages && typeof value.output_text === 'string' ? value.output_text : output,
    status: failed ? 'error' : undefined,
    error: failed ? String(err?.message ?? 'the response failed') : undefined,
    metadata,
  };
}

export function describeEmbeddings(value: Obj): CallResult {
  const data = Array.isArray(value.data) ? value.data.filter(isObj) : [];
  const first = data[0]?.embedding as { length?: unknown } | string | undefined;
  const usage = isObj(value.usage) ? value.usage : {};
  const tokens = compactTokens({ input: num(usage.prompt_tokens), total: num(usage.total_tokens) });
  return {
    model: typeof value.model === 'string' ? value.model : undefined,
    tokens,
    // Vectors are not worth storing as trace output: their count and size say what came back.
    output: { embeddings: data.length, dimensions: typeof first === 'object' && first ? num(first.length) : undefined },
    metadata: tokens ? {} : { usage_missing: true },
  };
}

export function describeResult(operation: Operation, value: unknown): CallResult {
  if (!isObj(value)) return { metadata: { usage_missing: true } };
  if (operation === 'chat.completions') return describeChatCompletion(value);
  if (operation === 'responses') return describeResponse(value);
  return describeEmbeddings(value);
}

/** An openai error (APIError and its subclasses, a connection error, an abort) as trace fields. */
export function describeError(err: unknown): CallResult {
  const e = isObj(err) ? err : {};
  const metadata: Obj = {};
  if (num(e.status) !== undefined) metadata.http_status = e.status;
  if (typeof e.type === 'string') metadata.error_type = e.type;
  if (typeof e.code === 'string') metadata.error_code = e.code;
  if (typeof e.request_id === 'string') metadata.request_id = e.request_id;
  // openai's error classes (BadRequestError, RateLimitError, …) leave `name` as 'Error': the class says more.
  const ctor = (e as { constructor?: { name?: unknown } }).constructor?.name;
  const name = typeof e.name === 'string' && e.name !== 'Error' ? e.name : typeof ctor === 'string' && ctor !== 'Object' ? ctor : 'Error';
  const message = typeof e.message === 'string' ? e.message : String(err);
  return { status: 'error', error: message ? `${name}: ${message}` : name, metadata };
}
