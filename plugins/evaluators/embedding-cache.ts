import { createHash } from 'node:crypto';
import type { Store } from '@vigil/plugin-sdk';
import type { EmbeddingMethod } from './embedder-contract.js';

export interface CachedEmbedding {
  vector: Float32Array;
  tokens: number;
}

/** Entries kept in memory in front of the store; golden sets are few and small. */
const MEMORY_ENTRIES = 5_000;

export const textHash = (text: string): string => createHash('sha256').update(text).digest('hex');

const encode = (v: Float32Array): string => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
function decode(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  // A copy: the Buffer may share a pool slab whose offset is not 4-aligned.
  const out = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/**
 * Golden-set embeddings, computed once and kept in the store by (SHA-256 of the text, method, model): a golden set
 * shared by definitions, processes and restarts is embedded once per model. Vectors are base64 of little-endian
 * float32.
 */
export class EmbeddingCache {
  private readonly table: string;
  private readonly memory = new Map<string, CachedEmbedding>();
  /** Golden texts being embedded now, so that evals running at once wait for one request instead of each making theirs. */
  private readonly inflight = new Map<string, { job: Promise<CachedEmbedding[]>; index: number }>();

  constructor(private readonly store: Store, private readonly now: () => number = Date.now) {
    this.table = store.table('embeddings');
  }

  private key(hash: string, method: EmbeddingMethod, model: string): string {
    return `${method}\u0000${model}\u0000${hash}`;
  }

  /** The cached embeddings of `texts` by text hash; texts not cached are absent. */
  async lookup(texts: readonly string[], method: EmbeddingMethod, model: string): Promise<Map<string, CachedEmbedding>> {
    const found = new Map<string, CachedEmbedding>();
    const missing: string[] = [];
    for (const hash of new Set(texts.map(textHash))) {
      const hit = this.memory.get(this.key(hash, method, model));
      if (hit) found.set(hash, hit); else missing.push(hash);
    }
    for (let i = 0; i < missing.length; i += 200) {
      const chunk = missing.slice(i, i + 200);
      const rows = await this.store.query<{ text_hash: string; vector: string; tokens: number }>(
        `SELECT text_hash, vector, tokens FROM ${this.table} WHERE method = ? AND model = ? AND text_hash IN (${chunk.map(() => '?').join(', ')})`,
        [method, model, ...chunk]);
      for (const r of rows) {
        const entry = { vector: decode(r.vector), tokens: Number(r.tokens) };
        found.set(r.text_hash, entry);
        this.remember(this.key(r.text_hash, method, model), entry);
      }
    }
    return found;
  }

  /**
   * The embeddings of `texts` by text hash: from memory or the store, else from `embed` (called once for the texts
   * no other eval is embedding at the moment), which are then saved. `tokens` counts what this call embedded.
   */
  async resolve(texts: readonly string[], method: EmbeddingMethod, model: string, embed: (texts: string[]) => Promise<CachedEmbedding[]>): Promise<{ byHash: Map<string, CachedEmbedding>; tokens: number }> {
    const found = await this.lookup(texts, method, model);
    const mine: string[] = [];
    const waits: Promise<void>[] = [];
    for (const text of new Set(texts)) {
      const hash = textHash(text);
      if (found.has(hash)) continue;
      const pending = this.inflight.get(this.key(hash, method, model));
      if (pending) waits.push(pending.job.then((all) => { found.set(hash, all[pending.index]); }));
      else mine.push(text);
    }
    let tokens = 0;
    if (mine.length) {
      const keys = mine.map((t) => this.key(textHash(t), method, model));
      const job = embed(mine).then(async (all) => {
        await this.save(mine.map((text, i) => ({ text, vector: all[i].vector, tokens: all[i].tokens })), method, model);
        return all;
      });
      keys.forEach((key, index) => this.inflight.set(key, { job, index }));
      try {
        const all = await job;
        mine.forEach((text, i) => found.set(textHash(text), all[i]));
        tokens = all.reduce((n, e) => n + e.tokens, 0);
      } finally {
        for (const key of keys) this.inflight.delete(key);
      }
    }
    await Promise.all(waits);
    return { byHash: found, tokens };
  }

  async save(entries: readonly { text: string; vector: Float32Array; tokens: number }[], method: EmbeddingMethod, model: string): Promise<void> {
    if (!entries.length) return;
    const now = this.now();
    await this.store.insertMany(this.table, ['text_hash', 'method', 'model', 'vector', 'tokens', 'created_at'],
      entries.map((e) => [textHash(e.text), method, model, encode(e.vector), e.tokens, now]), { onConflict: 'ON CONFLICT DO NOTHING' });
    for (const e of entries) this.remember(this.key(textHash(e.text), method, model), { vector: e.vector, tokens: e.tokens });
  }

  private remember(key: string, entry: CachedEmbedding): void {
    if (this.memory.size >= MEMORY_ENTRIES) this.memory.delete(this.memory.keys().next().value!);
    this.memory.set(key, entry);
  }
}
