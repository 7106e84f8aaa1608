/** Which tier produced a vector. Scores of different methods are never comparable, so every result records it. */
export type EmbeddingMethod = 'openai' | 'glove-sif' | 'lexical';

export interface Embedding {
  vector: Float32Array;
  method: EmbeddingMethod;
  /** The model within the method (provider model name, or the local vectors' identity): part of any cache key. */
  model: string;
  /** Provider tokens (apportioned from the request's usage), or the text's word count for the local tiers. */
  tokens: number;
}

export interface Embedder {
  readonly method: EmbeddingMethod;
  readonly model: string;
  /** Why a better tier was not used (a missing package, a failed conversion); undefined when nothing fell back. */
  readonly reason?: string;
  /** One embedding per text, in order. Rejects with an EmbeddingError; `signal` aborts provider calls and waits. */
  embed(texts: string[], signal?: AbortSignal): Promise<Embedding[]>;
}

/** An OpenAI-compatible provider: `base_url` ends where `/embeddings` is appended (…/v1). */
export interface EmbeddingProvider {
  base_url: string;
  model: string;
  api_key?: string;
}
