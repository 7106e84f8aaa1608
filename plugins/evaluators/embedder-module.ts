import type { EmbedderModule } from './embedder-contract.js';

/**
 * The embeddings module, loaded when the first semantic_similarity eval runs: the local word vectors take memory and
 * time to open, and a deployment without similarity evals never pays for them.
 */
export function loadEmbedderModule(): Promise<EmbedderModule> {
  return import('./embeddings/index.js');
}
