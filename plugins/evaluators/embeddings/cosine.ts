import { EmbeddingError } from './embedding-error.js';
import type { Embedding, EmbeddingMethod } from './types.js';

// Every vector an embedder returns is tagged with its method and model. The tag lives beside the vector (a WeakMap,
// so it costs the vector nothing and goes when the vector does); a vector rebuilt from storage carries none, and
// then only the dimensions are checked: callers that store vectors store `method` and `model` with them.
const origin = new WeakMap<Float32Array, string>();

/** Marks a vector as produced by `method`/`model`, so that `cosine` refuses to compare it with another kind. */
export function tagVector(vector: Float32Array, method: EmbeddingMethod, model: string): Float32Array {
  origin.set(vector, `${method}\u0000${model}`);
  return vector;
}

/** The method and model a vector was tagged with, if it came from an embedder in this process. */
export function vectorOrigin(vector: Float32Array): { method: EmbeddingMethod; model: string } | undefined {
  const tag = origin.get(vector);
  if (tag === undefined) return undefined;
  const [method, model] = tag.split('\u0000');
  return { method: method as EmbeddingMethod, model };
}

/**
 * Cosine similarity in [-1, 1]; 0 when either vector is all zeros (a text with no known word). Throws an
 * EmbeddingError (`mixed_methods`) for vectors of different lengths, or tagged by different methods or models.
 */
export function cosine(a: Float32Array, b: Float32Array): number {
  const ta = origin.get(a);
  const tb = origin.get(b);
  if (ta !== undefined && tb !== undefined && ta !== tb) {
    const [ma, mb] = [ta, tb].map((t) => t.replace('\u0000', ' '));
    throw new EmbeddingError('mixed_methods', `cosine refused: the vectors come from different embedders (${ma} and ${mb}); their scores are not comparable`);
  }
  if (a.length !== b.length) {
    throw new EmbeddingError('mixed_methods', `cosine refused: vectors of ${a.length} and ${b.length} dimensions come from different embedders`);
  }
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  // Rounding can push the ratio of two parallel vectors a hair past 1.
  return Math.max(-1, Math.min(1, dot / Math.sqrt(na * nb)));
}

/** Cosine of two embeddings, refused (`mixed_methods`) unless both have the same method and model. */
export function similarity(a: Embedding, b: Embedding): number {
  if (a.method !== b.method || a.model !== b.model) {
    throw new EmbeddingError('mixed_methods', `similarity refused: ${a.method} ${a.model} against ${b.method} ${b.model}; scores of different methods are never compared`);
  }
  return cosine(a.vector, b.vector);
}
