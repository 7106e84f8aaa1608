import type { PersistedTrace } from '@vigil/plugin-sdk';
import type { Embedder } from './embedder-contract.js';
import type { EmbeddingCache } from './embedding-cache.js';
import { textHash } from './embedding-cache.js';
import { ProviderUnavailable } from './errors.js';
import { plainText } from './trace-text.js';
import type { EvalDefinition, EvalOutcome } from './types.js';

export interface SimilarityDeps {
  /** The embedder (created once); rejects when none can be made. */
  embedder(): Promise<Embedder>;
  cosine(a: Float32Array, b: Float32Array): number;
  cache: EmbeddingCache;
  /** USD for provider embedding tokens; local methods cost nothing. */
  price(model: string, tokens: number): number | null;
}

const cut = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/** A failed embedding call: retried when the provider may recover (EmbeddingError's `retryable`), else a failed result. */
function embeddingFailure(err: unknown, method: string, model: string): EvalOutcome {
  const e = err as { retryable?: boolean; retryAfterMs?: number; reason?: string; message?: string };
  if (e?.retryable) throw new ProviderUnavailable(`embeddings: ${e.message}`, { retryAfterMs: e.retryAfterMs, cause: err });
  return { status: 'failed', score: null, reason: `embedding failed: ${e?.message ?? String(err)}`, method, model, tokens_in: 0, tokens_out: 0, usd: null, details: { kind: e?.reason ?? 'embedding' } };
}

/**
 * semantic_similarity: the best cosine similarity between the embedding of the trace's output text and the
 * embeddings of the golden outputs (the definition's, else the golden set of the trace's template), floored at 0.
 * Golden embeddings come from the cache when it has them for this method and model; only the misses are embedded,
 * and their tokens are this result's with the output's. The method (openai, glove-sif, lexical) is recorded, so that
 * scores of different methods are never averaged together.
 */
export async function similarity(deps: SimilarityDeps, definition: EvalDefinition, trace: PersistedTrace, golden: readonly string[] | undefined): Promise<EvalOutcome> {
  let embedder: Embedder;
  try {
    embedder = await deps.embedder();
  } catch (err) {
    return { status: 'failed', score: null, reason: `no embedder: ${(err as Error).message}`, method: 'none', model: null, tokens_in: 0, tokens_out: 0, usd: null, details: { kind: 'no_embedder' } };
  }
  const { method, model } = embedder;
  const base = { method, model, tokens_out: 0 };
  if (!golden?.length) {
    const where = trace.template ? `template "${trace.template}" has no golden set` : 'the trace has no prompt template';
    return { ...base, status: 'failed', score: null, reason: `no golden outputs: the definition has none and ${where}`, tokens_in: 0, usd: 0, details: { kind: 'no_golden_set' } };
  }
  const output = plainText(trace.trace.output);
  if (output.trim() === '') return { ...base, status: 'failed', score: null, reason: 'the trace has no output text to compare', tokens_in: 0, usd: 0, details: { kind: 'no_output' } };

  let tokens: number;
  let vectors: Float32Array[];
  let outVector: Float32Array;
  try {
    // The golden set first (cached, or embedded once however many evals need it now), then the output.
    const gold = await deps.cache.resolve(golden, method, model, (texts) => embedder.embed(texts));
    const [out] = await embedder.embed([output]);
    outVector = out.vector;
    tokens = gold.tokens + out.tokens;
    vectors = golden.map((g) => gold.byHash.get(textHash(g))!.vector);
  } catch (err) {
    if (err instanceof ProviderUnavailable) throw err;
    return embeddingFailure(err, method, model);
  }
  let best = -1;
  let closest = 0;
  for (const [i, v] of vectors.entries()) {
    const c = deps.cosine(outVector, v);
    if (c > best) { best = c; closest = i; }
  }
  const usd = method === 'openai' ? deps.price(model, tokens) : 0;
  return {
    ...base, status: 'ok', score: Math.max(0, best), tokens_in: tokens, usd,
    reason: `closest golden output #${closest + 1} (cosine ${best.toFixed(3)}, ${method})`,
    details: { cosine: best, closest: closest, closest_text: cut(golden[closest], 300), golden: golden.length },
  };
}
