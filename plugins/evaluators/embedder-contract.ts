/**
 * What the semantic_similarity evaluator uses of the embeddings module (./embeddings): its types, and the module's
 * shape for the lazy import in embedder-module.ts.
 */
export type { Embedder, Embedding, EmbeddingMethod, PreparationStep } from './embeddings/index.js';
export type EmbedderModule = typeof import('./embeddings/index.js');
