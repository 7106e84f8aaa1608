import { tagVector } from './cosine.js';
import type { GloveVectors } from './glove-file.js';
import { SIF_A, sifWeights } from './sif.js';
import type { Embedder, Embedding } from './types.js';
import { lookup, words } from './word-tokens.js';

/**
 * Sentence vectors from trimmed GloVe word vectors: the SIF-weighted sum of the known words' vectors, less its
 * projection on the common direction computed at conversion, L2-normalised. A text with no known word is the zero
 * vector (cosine 0 with anything). `tokens` is the text's word count, known or not.
 */
export class GloveEmbedder implements Embedder {
  readonly method = 'glove-sif' as const;
  readonly model: string;
  private readonly weights: Float32Array;
  /** Word → ranks, for the words seen so far (bounded), since the fallbacks in `lookup` allocate. */
  private readonly cache = new Map<string, number[]>();

  constructor(private readonly glove: GloveVectors) {
    this.weights = sifWeights(glove.count, glove.sourceSize);
    const removed = glove.common.some((x) => x !== 0) ? '-pc1' : '';
    this.model = `${glove.source}@${glove.sourceVersion}/${glove.count}w-int8/sif-${SIF_A}${removed}`;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Embedding[]> {
    signal?.throwIfAborted();
    return texts.map((text) => this.embedOne(text));
  }

  embedOne(text: string): Embedding {
    const { dims, scales, values, common } = this.glove;
    const sum = new Float64Array(dims);
    const list = words(text);
    for (const word of list) {
      for (const r of this.ranks(word)) {
        const w = this.weights[r] * scales[r];
        const base = r * dims;
        for (let d = 0; d < dims; d++) sum[d] += w * values[base + d];
      }
    }
    let projection = 0;
    for (let d = 0; d < dims; d++) projection += sum[d] * common[d];
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      sum[d] -= projection * common[d];
      norm += sum[d] * sum[d];
    }
    const vector = new Float32Array(dims);
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let d = 0; d < dims; d++) vector[d] = sum[d] * inv;
    }
    return { vector: tagVector(vector, this.method, this.model), method: this.method, model: this.model, tokens: list.length };
  }

  private ranks(word: string): number[] {
    let ranks = this.cache.get(word);
    if (ranks === undefined) {
      ranks = lookup(word, this.glove.index);
      if (this.cache.size >= 100_000) this.cache.clear();
      this.cache.set(word, ranks);
    }
    return ranks;
  }
}
