/**
 * Langfuse's usage and cost objects as Vigil token counts and a USD cost. Shared by the legacy ingestion mapping
 * and the OTLP mapping of `langfuse.observation.usage_details` / `.cost_details`.
 *
 * Langfuse accepts several spellings: `usage` as { input, output, total, unit } or OpenAI's { promptTokens,
 * completionTokens, totalTokens }, and `usageDetails` as a free map whose usual keys are input, output, total and a
 * cached-input key (`input_cached_tokens`, `cache_read_input_tokens`, `input_cache_read`).
 */
import type { TraceTokens } from '../trace-item.js';

type Obj = Record<string, unknown>;

const count = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};
const first = (o: Obj, keys: readonly string[]): number | undefined => {
  for (const k of keys) {
    const n = count(o[k]);
    if (n !== undefined) return n;
  }
  return undefined;
};

const INPUT = ['input', 'promptTokens', 'prompt_tokens', 'input_tokens'];
const OUTPUT = ['output', 'completionTokens', 'completion_tokens', 'output_tokens'];
const TOTAL = ['total', 'totalTokens', 'total_tokens'];
const CACHE_READ = ['input_cached_tokens', 'cache_read_input_tokens', 'input_cache_read', 'cached_tokens', 'cacheReadInputTokens'];

/** Tokens from one usage object; undefined when it holds none (or counts a unit other than tokens). */
export function tokensFromUsage(usage: unknown): TraceTokens | undefined {
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) return undefined;
  const o = usage as Obj;
  // Langfuse's `unit` can be CHARACTERS, IMAGES, SECONDS…: those are not tokens and are left to metadata.
  if (typeof o.unit === 'string' && o.unit.toUpperCase() !== 'TOKENS') return undefined;
  const tokens: TraceTokens = {};
  const input = first(o, INPUT);
  const output = first(o, OUTPUT);
  const total = first(o, TOTAL);
  const cacheRead = first(o, CACHE_READ);
  if (input !== undefined) tokens.input = input;
  if (output !== undefined) tokens.output = output;
  if (cacheRead !== undefined) tokens.cache_read = cacheRead;
  if (total !== undefined) tokens.total = total;
  return Object.keys(tokens).length > 0 ? tokens : undefined;
}

/** The first of several usage objects that has tokens, completed by the later ones field by field. */
export function mergeTokens(...candidates: (TraceTokens | undefined)[]): TraceTokens | undefined {
  let out: TraceTokens | undefined;
  for (const t of candidates) {
    if (!t) continue;
    out ??= {};
    for (const k of ['input', 'output', 'cache_read', 'total'] as const) if (out[k] === undefined && t[k] !== undefined) out[k] = t[k];
  }
  return out;
}

/** USD cost from `costDetails` ({ input, output, total }: the total, else the sum) or legacy `usage.totalCost`. */
export function costFromDetails(details: unknown, usage?: unknown): number | undefined {
  if (typeof details === 'object' && details !== null && !Array.isArray(details)) {
    const o = details as Obj;
    const total = count(o.total);
    if (total !== undefined) return total;
    let sum = 0;
    let any = false;
    for (const v of Object.values(o)) {
      const n = count(v);
      if (n !== undefined) { sum += n; any = true; }
    }
    if (any) return sum;
  }
  if (typeof usage === 'object' && usage !== null) {
    const u = usage as Obj;
    const total = count(u.totalCost);
    if (total !== undefined) return total;
    const input = count(u.inputCost);
    const output = count(u.outputCost);
    if (input !== undefined || output !== undefined) return (input ?? 0) + (output ?? 0);
  }
  return undefined;
}
