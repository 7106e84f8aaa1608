/**
 * What `client.trace()` accepts is lenient (a Date for `start_time`, an Error for `error`, any value for metadata);
 * what goes on the wire is the strict TraceItem the server validates field by field. This is the one place where the
 * first becomes the second: unknown keys are left out (the server refuses them), numbers must be finite, and every
 * free-form value is copied to plain JSON data at the moment of the call, so a later mutation by the application
 * changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { toSafeJson } from './safe-json.js';
import type { PromptTemplateRef, TraceItem, TraceTokens } from './trace-item.js';

/** A trace as the application gives it to `client.trace()`. */
export interface TraceInput extends Omit<TraceItem, 'start_time' | 'error' | 'status'> {
  status?: 'ok' | 'error';
  /** An Error (its name and message are kept) or a string; implies `status: 'error'` when status is absent. */
  error?: unknown;
  start_time?: string | number | Date;
}

/** What applies to every trace made inside `client.withTrace(attributes, fn)`. */
export interface TraceAttributes {
  name?: string;
  user_id?: string;
  session_id?: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
  prompt_template?: PromptTemplateRef;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

function isoTime(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  const d = v instanceof Date ? v : typeof v === 'number' ? new Date(v) : undefined;
  return d && !Number.isNaN(d.getTime()) ? d.toISOString() : undefined;
}

/** Error text is capped: a provider's error can quote the whole request back. */
const MAX_ERROR_CHARS = 8192;

function errorText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  let text: string;
  try {
    text = v instanceof Error ? (v.message ? `${v.name}: ${v.message}` : v.name)
      : typeof v === 'string' ? v : JSON.stringify(toSafeJson(v)) ?? String(v);
  } catch { text = '[unreadable error]'; }
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…[truncated ${text.length - MAX_ERROR_CHARS} chars]` : text;
}

function tokensOf(v: unknown): TraceTokens | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const t = v as Record<string, unknown>;
  const out: TraceTokens = {};
  for (const k of ['input', 'output', 'cache_read', 'total'] as const) {
    const n = count(t[k]);
    if (n !== undefined) out[k] = Math.round(n);
  }
  return Object.keys(out).length ? out : undefined;
}

function templateOf(v: unknown): PromptTemplateRef | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const t = v as Record<string, unknown>;
  if (!str(t.name) || typeof t.raw !== 'string') return undefined;
  const out: PromptTemplateRef = { name: t.name as string, raw: t.raw };
  const vars = toSafeJson(t.variables);
  if (vars && typeof vars === 'object' && !Array.isArray(vars)) out.variables = vars as Record<string, unknown>;
  return out;
}

function objectOf(v: unknown): Record<string, unknown> | undefined {
  const c = toSafeJson(v);
  if (c === undefined || c === null) return undefined;
  return typeof c === 'object' && !Array.isArray(c) ? c as Record<string, unknown> : { value: c };
}

function tagsOf(...lists: unknown[]): string[] | undefined {
  const tags = new Set<string>();
  for (const list of lists) if (Array.isArray(list)) for (const t of list) if (str(t)) tags.add(t);
  return tags.size ? [...tags] : undefined;
}

/**
 * The wire item for `input`, with the attributes of the enclosing `withTrace` underneath (the trace's own fields win,
 * tags add up, metadata merges key by key). Undefined when there is no model: the server would refuse the item.
 */
export function normaliseItem(input: TraceInput, context?: TraceAttributes): TraceItem | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const model = str(input.model);
  if (!model) return undefined;
  const item: TraceItem = { id: str(input.id) ?? randomUUID(), model };
  const name = str(input.name) ?? str(context?.name);
  if (name) item.name = name;
  const provider = str(input.provider);
  if (provider) item.provider = provider;
  const error = errorText(input.error);
  const status = input.status === 'ok' || input.status === 'error' ? input.status : error !== undefined ? 'error' : undefined;
  if (status) item.status = status;
  if (error !== undefined) item.error = error;
  const start = isoTime(input.start_time);
  if (start) item.start_time = start;
  const latency = count(input.latency_ms);
  if (latency !== undefined) item.latency_ms = latency;
  const tokens = tokensOf(input.tokens);
  if (tokens) item.tokens = tokens;
  const cost = count(input.cost_usd);
  if (cost !== undefined) item.cost_usd = cost;
  if (input.input !== undefined) item.input = toSafeJson(input.input);
  if (input.output !== undefined) item.output = toSafeJson(input.output);
  const template = templateOf(input.prompt_template) ?? templateOf(context?.prompt_template);
  if (template) item.prompt_template = template;
  const user = str(input.user_id) ?? str(context?.user_id);
  if (user) item.user_id = user;
  const session = str(input.session_id) ?? str(context?.session_id);
  if (session) item.session_id = session;
  const tags = tagsOf(context?.tags, input.tags);
  if (tags) item.tags = tags;
  const metadata = objectOf(context?.metadata || input.metadata ? { ...objectOf(context?.metadata), ...objectOf(input.metadata) } : undefined);
  if (metadata && Object.keys(metadata).length) item.metadata = metadata;
  return item;
}
