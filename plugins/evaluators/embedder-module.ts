import type { EmbedderModule } from './embedder-contract.js';

/**
 * The embeddings module (./embeddings/index.js), loaded when the first semantic_similarity eval runs: the local word
 * vectors take memory and time to open, and a deployment without similarity evals never pays for them. Undefined
 * when this build has no such module.
 */
export async function loadEmbedderModule(): Promise<EmbedderModule | undefined> {
  const url = new URL('./embeddings/index.js', import.meta.url);
  try {
    return (await import(url.href)) as EmbedderModule;
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String((err as Error).message).includes(url.pathname.split('/').slice(-2).join('/'))) return undefined;
    throw err;
  }
}
