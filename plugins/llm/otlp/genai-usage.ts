/**
 * Token counts and cost of an LLM span, taking for each count the first attribute present in the lists below (the
 * mapping table of otlp/README.md), then Langfuse's usage details. Per the GenAI conventions, `cache_read` is the
 * part of `input` served from the provider's cache (OpenAI's prompt_tokens_details.cached_tokens), not an addition
 * to it.
 */
import { costFromDetails, tokensFromUsage } from '../langfuse/usage-details.js';
import type { TraceTokens } from '../trace-item.js';
import { firstCount, jsonAttribute } from './attribute-values.js';
import type { OtlpAttributes } from './otlp-model.js';

const INPUT = ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens', 'llm.token_count.prompt', 'ai.usage.inputTokens', 'ai.usage.promptTokens', 'ai.usage.tokens'];
const OUTPUT = ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens', 'llm.token_count.completion', 'ai.usage.outputTokens', 'ai.usage.completionTokens'];
const CACHE_READ = [
  'gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.cache_read_input_tokens', 'llm.token_count.prompt_details.cache_read',
  'ai.usage.inputTokenDetails.cacheReadTokens', 'ai.usage.cachedInputTokens',
];
const TOTAL = ['gen_ai.usage.total_tokens', 'llm.usage.total_tokens', 'llm.token_count.total', 'ai.usage.totalTokens'];

export interface SpanUsage {
  tokens?: TraceTokens;
  cost_usd?: number;
  /** Usage attributes that were present but not counts (kept in metadata: a count is never dropped unseen). */
  invalid: string[];
}

export function spanUsage(attrs: OtlpAttributes): SpanUsage {
  const invalid: string[] = [];
  const langfuse = tokensFromUsage(jsonAttribute(attrs['langfuse.observation.usage_details']));
  const tokens: TraceTokens = {};
  const input = firstCount(attrs, INPUT, invalid) ?? langfuse?.input;
  const output = firstCount(attrs, OUTPUT, invalid) ?? langfuse?.output;
  const cacheRead = firstCount(attrs, CACHE_READ, invalid) ?? langfuse?.cache_read;
  const total = firstCount(attrs, TOTAL, invalid) ?? langfuse?.total;
  if (input !== undefined) tokens.input = input;
  if (output !== undefined) tokens.output = output;
  if (cacheRead !== undefined) tokens.cache_read = cacheRead;
  if (total !== undefined) tokens.total = total;
  const cost = costFromDetails(jsonAttribute(attrs['langfuse.observation.cost_details'])) ?? firstCount(attrs, ['llm.cost.total'], invalid);
  return {
    ...(Object.keys(tokens).length > 0 ? { tokens } : {}),
    ...(cost !== undefined ? { cost_usd: cost } : {}),
    invalid,
  };
}
