/**
 * The embedder the semantic_similarity evaluator uses, as agreed with plugins/evaluators/embeddings/index.ts (built
 * beside this plugin): an OpenAI-compatible client, local GloVe word vectors with SIF weighting, or a lexical vector,
 * the best available. Loaded at run time (embedder-module.ts) so the evaluator works against this contract alone.
 */
export type EmbeddingMethod = 'openai' | 'glove-sif' | 'lexical';

export interface Embedding {
  vector: Float32Array;
  method: EmbeddingMethod;
  model: string;
  tokens: number;
}

export interface Embedder {
  readonly method: EmbeddingMethod;
  readonly model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<Embedding[]>;
}

export interface EmbedderModule {
  /** Picks the best available tier. */
  createEmbedder(options: { provider?: { base_url: string; model: string; api_key?: string }; dataDir: string; log?: (msg: string) => void }): Promise<Embedder>;
  cosine(a: Float32Array, b: Float32Array): number;
}
