import type { ModelPrice } from './types.js';

/**
 * Public list prices in USD per 1M tokens (standard tier, text, prompts under any long-context threshold), as the
 * providers published them in 2025. `cached_input` is the price of input read from the prompt cache (OpenAI "cached
 * input", Anthropic "cache hits", Google "context caching"). Override or extend them in `llm.prices`.
 */
export const SHIPPED_PRICES: Readonly<Record<string, ModelPrice>> = {
  // OpenAI
  'gpt-5': { input: 1.25, cached_input: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cached_input: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cached_input: 0.005, output: 0.4 },
  'gpt-4.1': { input: 2, cached_input: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cached_input: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cached_input: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cached_input: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cached_input: 0.075, output: 0.6 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-4': { input: 30, output: 60 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  'o1': { input: 15, cached_input: 7.5, output: 60 },
  'o1-mini': { input: 1.1, cached_input: 0.55, output: 4.4 },
  'o3': { input: 2, cached_input: 0.5, output: 8 },
  'o3-pro': { input: 20, output: 80 },
  'o3-mini': { input: 1.1, cached_input: 0.55, output: 4.4 },
  'o4-mini': { input: 1.1, cached_input: 0.275, output: 4.4 },
  'text-embedding-3-small': { input: 0.02, output: 0 },
  'text-embedding-3-large': { input: 0.13, output: 0 },
  // Anthropic (cache reads are a tenth of the input price)
  'claude-opus-4-5': { input: 5, cached_input: 0.5, output: 25 },
  'claude-opus-4-1': { input: 15, cached_input: 1.5, output: 75 },
  'claude-opus-4': { input: 15, cached_input: 1.5, output: 75 },
  'claude-sonnet-4-5': { input: 3, cached_input: 0.3, output: 15 },
  'claude-sonnet-4': { input: 3, cached_input: 0.3, output: 15 },
  'claude-haiku-4-5': { input: 1, cached_input: 0.1, output: 5 },
  'claude-3-7-sonnet': { input: 3, cached_input: 0.3, output: 15 },
  'claude-3-5-sonnet': { input: 3, cached_input: 0.3, output: 15 },
  'claude-3-5-haiku': { input: 0.8, cached_input: 0.08, output: 4 },
  'claude-3-opus': { input: 15, cached_input: 1.5, output: 75 },
  'claude-3-haiku': { input: 0.25, cached_input: 0.03, output: 1.25 },
  // Google
  'gemini-2.5-pro': { input: 1.25, cached_input: 0.125, output: 10 },
  'gemini-2.5-flash': { input: 0.3, cached_input: 0.03, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, cached_input: 0.01, output: 0.4 },
  'gemini-2.0-flash': { input: 0.1, cached_input: 0.025, output: 0.4 },
  'gemini-2.0-flash-lite': { input: 0.075, output: 0.3 },
  'gemini-1.5-pro': { input: 1.25, cached_input: 0.3125, output: 5 },
  'gemini-1.5-flash': { input: 0.075, cached_input: 0.01875, output: 0.3 },
};

/**
 * Where a provider or a cloud puts a model name: `openai/gpt-4o` (routers), `models/gemini-2.5-pro` (Google's API),
 * `anthropic.claude-3-5-sonnet-20240620-v1:0` and `us.anthropic.…` (Bedrock). The prefix is dropped before matching.
 */
const VENDOR_PREFIX = /^(?:.*\/)?(?:(?:us|eu|apac|global)\.)?(?:anthropic\.|google\.|openai\.)?/;
/** What may follow a price's name in a model name: a date or variant (`-2024-08-06`), a Vertex `@date`, a Bedrock `:0`. */
const BOUNDARY = new Set(['-', '@', ':']);

/** Prices by model name: the shipped table under the configured overrides; the longest matching name wins. */
export class PriceTable {
  private readonly names: string[];
  private readonly prices: Map<string, ModelPrice>;
  private readonly memo = new Map<string, ModelPrice | null>();

  constructor(overrides: Readonly<Record<string, ModelPrice>> = {}) {
    this.prices = new Map(Object.entries({ ...SHIPPED_PRICES, ...overrides }).map(([k, v]) => [k.toLowerCase(), v]));
    this.names = [...this.prices.keys()].sort((a, b) => b.length - a.length);
  }

  /**
   * The price of `model`: an exact name, or the longest name that `model` starts with, followed by `-`, `@` or `:`
   * (so `gpt-4o-mini-2024-07-18` is `gpt-4o-mini`, and `gpt-4.5-preview` is not `gpt-4`). Null when none matches.
   */
  lookup(model: string): ModelPrice | null {
    const cached = this.memo.get(model);
    if (cached !== undefined) return cached;
    const name = model.toLowerCase().replace(VENDOR_PREFIX, '');
    let found: ModelPrice | null = null;
    for (const candidate of this.names) {
      if (name === candidate || (name.startsWith(candidate) && BOUNDARY.has(name[candidate.length]))) {
        found = this.prices.get(candidate)!;
        break;
      }
    }
    // Model names are few; a client sending random ones is bounded by the memo's size.
    if (this.memo.size < 10_000) this.memo.set(model, found);
    return found;
  }

  /**
   * USD for a call, or null when the model has no price or no tokens are known. `input` counts every input token,
   * those read from the cache included (OpenAI's convention; map Anthropic's separate count into it):
   * cost = (input − cache_read) × input price + cache_read × cached price + output × output price.
   */
  cost(model: string, tokens: { input?: number; output?: number; cache_read?: number; total?: number } | undefined): number | null {
    if (!tokens || (tokens.input === undefined && tokens.output === undefined)) return null;
    const price = this.lookup(model);
    if (!price) return null;
    const cached = Math.min(tokens.cache_read ?? 0, tokens.input ?? 0);
    const fresh = (tokens.input ?? 0) - cached;
    const usd = (fresh * price.input + cached * (price.cached_input ?? price.input) + (tokens.output ?? 0) * price.output) / 1e6;
    // Twelve decimals: sums of many small costs stay exact enough, and the float noise of the division goes.
    return Math.round(usd * 1e12) / 1e12;
  }
}
