import { tagVector } from './cosine.js';
import type { Embedder, Embedding } from './types.js';
import { words } from './word-tokens.js';

/** Dimensions of the lexical vector: 2^12 buckets keep hash collisions' noise on a cosine near 1/√4096 ≈ 0.016. */
export const LEXICAL_DIMS = 4096;
// Seeds keep a word and a character n-gram with the same letters apart.
const WORD_SEED = 0x9747b28c;
const GRAM_SEED = 0x811c9dc5;
/** A whole word counts as much as this many of its character n-grams. */
const WORD_WEIGHT = 3;

/** murmur3's finaliser: spreads FNV's weak low bits over the word. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Feature counts for one text: open addressing over 32-bit feature ids (0 is never a feature: word ids are odd, and
 * an n-gram id of 0 is bumped), grown when half full. One table per process, reused: embedding is synchronous.
 */
class FeatureCounts {
  keys = new Uint32Array(8192);
  counts = new Uint32Array(8192);
  /** Slots in insertion order, the first `used` of them. */
  order = new Uint32Array(4096);
  used = 0;

  clear(): void {
    for (let i = 0; i < this.used; i++) this.keys[this.order[i]] = 0;
    this.used = 0;
  }

  add(feature: number): void {
    const key = feature === 0 ? 2 : feature;
    const mask = this.keys.length - 1;
    let slot = (key ^ (key >>> 15)) & mask;
    for (;;) {
      const k = this.keys[slot];
      if (k === key) { this.counts[slot]++; return; }
      if (k === 0) break;
      slot = (slot + 1) & mask;
    }
    this.keys[slot] = key;
    this.counts[slot] = 1;
    this.order[this.used++] = slot;
    if (this.used * 2 >= this.keys.length) this.grow();
  }

  private grow(): void {
    const { keys, counts, order, used } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.counts = new Uint32Array(keys.length * 2);
    this.order = new Uint32Array(keys.length);
    this.used = 0;
    for (let i = 0; i < used; i++) {
      const slot = order[i];
      const key = keys[slot];
      const n = counts[slot];
      this.add(key);
      this.counts[this.order[this.used - 1]] = n;
    }
  }
}

const table = new FeatureCounts();
let codeUnits = new Uint16Array(64);

/**
 * The always-available baseline: signed feature hashing of each word's character 3- to 5-grams (with '<' and '>'
 * marking the word's edges, as fastText does) plus the words themselves, sublinear term frequency (1 + ln tf),
 * L2-normalised. It measures shared spelling, not meaning: "automobile" and "car" share nothing. Labelled
 * `lexical` and given its own thresholds; no IDF, so that a text's vector never depends on the other texts.
 */
export class LexicalEmbedder implements Embedder {
  readonly method = 'lexical' as const;
  readonly model = `hashed-char3-5+words/${LEXICAL_DIMS}/v1`;

  constructor(readonly reason?: string) {}

  async embed(texts: string[], signal?: AbortSignal): Promise<Embedding[]> {
    signal?.throwIfAborted();
    return texts.map((text) => this.embedOne(text));
  }

  embedOne(text: string): Embedding {
    const counts = table;
    counts.clear();
    const list = words(text);
    let units = codeUnits;
    for (const word of list) {
      let h = WORD_SEED;
      for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
      // The low bit marks a word feature, so that it gets WORD_WEIGHT below.
      counts.add((mix(h) | 1) >>> 0);
      const length = word.length + 2;
      if (units.length < length) units = codeUnits = new Uint16Array(length * 2);
      units[0] = 0x3c;
      for (let i = 0; i < word.length; i++) units[i + 1] = word.charCodeAt(i);
      units[length - 1] = 0x3e;
      for (let start = 0; start + 3 <= length; start++) {
        let g = GRAM_SEED;
        for (let k = 0; k < 5 && start + k < length; k++) {
          g = Math.imul(g ^ units[start + k], 0x01000193);
          if (k >= 2) counts.add((mix(g) & ~1) >>> 0);
        }
      }
    }
    const vector = new Float32Array(LEXICAL_DIMS);
    for (let slot = 0; slot < counts.used; slot++) {
      const feature = counts.keys[counts.order[slot]];
      const tf = counts.counts[counts.order[slot]];
      const weight = (1 + Math.log(tf)) * (feature & 1 ? WORD_WEIGHT : 1);
      const bucket = (feature >>> 1) & (LEXICAL_DIMS - 1);
      vector[bucket] += feature & 0x80000000 ? -weight : weight;
    }
    let norm = 0;
    for (let i = 0; i < LEXICAL_DIMS; i++) norm += vector[i] * vector[i];
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let i = 0; i < LEXICAL_DIMS; i++) vector[i] *= inv;
    }
    return { vector: tagVector(vector, this.method, this.model), method: this.method, model: this.model, tokens: list.length };
  }
}
