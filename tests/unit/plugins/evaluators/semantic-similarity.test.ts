// semantic_similarity against the Embedder contract, with `standInEmbedder`: a stand-in for the real embedders
// (plugins/evaluators/embeddings, built apart) that exists only in this test. The golden cache and the results are the
// real ones, on SQLite.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PersistedTrace, Store } from '@vigil/plugin-sdk';
import type { Embedder, Embedding, EmbeddingMethod } from '../../../../plugins/evaluators/embedder-contract.js';
import { EmbeddingCache } from '../../../../plugins/evaluators/embedding-cache.js';
import { ProviderUnavailable } from '../../../../plugins/evaluators/errors.js';
import { evaluatorsMigrations } from '../../../../plugins/evaluators/migrations.js';
import { ResultStore } from '../../../../plugins/evaluators/results-store.js';
import { similarity, type SimilarityDeps } from '../../../../plugins/evaluators/semantic-similarity.js';
import type { EvalDefinition } from '../../../../plugins/evaluators/types.js';
import { openStore, type StoreBackend } from '../../../../runtime/store/index.js';
import { tempDir } from '../../../support/tmp.js';
import { DefinitionStore } from '../../../../plugins/evaluators/definitions.js';

/** Test-only: hashed bag of words, 64 dimensions; counts what it was asked to embed. */
function standInEmbedder(method: EmbeddingMethod = 'openai', model = 'stand-in-model'): Embedder & { asked: string[][]; fail?: Error } {
  const vector = (text: string) => {
    const v = new Float32Array(64);
    for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      let h = 0;
      for (const c of word) h = (h * 31 + c.charCodeAt(0)) >>> 0;
      v[h % 64] += 1;
    }
    return v;
  };
  const e = {
    method, model, asked: [] as string[][], fail: undefined as Error | undefined,
    async embed(texts: string[]): Promise<Embedding[]> {
      if (e.fail) throw e.fail;
      e.asked.push(texts);
      return texts.map((t) => ({ vector: vector(t), method, model, tokens: t.split(' ').length }));
    },
  };
  return e;
}

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

const dir = tempDir('vigil-evals-sim-');
let backend: StoreBackend;
let store: Store;
test.before(async () => {
  backend = await openStore(`sqlite:${dir.path}/vigil.db`);
  store = backend.forPlugin('evaluators');
  await store.migrate(evaluatorsMigrations);
});
test.after(async () => { await backend.close(); dir.cleanup(); });

const definition = (golden?: string[]): EvalDefinition => ({
  id: 'sim', project_id: 'p1', name: 'sim', type: 'semantic_similarity', sample_rate: 1, template: 'capital', versions: null, on_missing_output: 'skip',
  settings: golden ? { golden } : {}, source: 'store', created_at: 0, updated_at: 0,
});
const trace = (content: string): PersistedTrace => ({
  id: `t-${content.length}`, created_at: 1, project_id: 'p1', model: 'm', status: 'ok', latency_ms: 1, cost_usd: null, template: 'capital', version: 1,
  trace: { output: { role: 'assistant', content } },
});
const deps = (embedder: Embedder, cache = new EmbeddingCache(store)): SimilarityDeps => ({
  embedder: async () => embedder, cosine, cache, price: (_m, tokens) => tokens * 0.02 / 1e6,
});

const GOLDEN = ['Paris is the capital of France', 'The capital of France is Paris', 'Bananas are yellow'];

test('the score is the best cosine against the golden outputs; golden embeddings are computed once, then cached in the store', async () => {
  const embedder = standInEmbedder();
  const first = await similarity(deps(embedder), definition(GOLDEN), trace('the capital of France is Paris'), GOLDEN);
  assert.is(first.status, 'ok');
  assert.ok(Math.abs(first.score! - 1) < 1e-6, `score ${first.score}`);
  assert.is(first.details!.closest, 0, 'the first of equally close outputs');
  assert.equal([first.method, first.model], ['openai', 'stand-in-model']);
  // The output and three golden texts: 6 + 6 + 6 + 3 words.
  assert.is(first.tokens_in, 21);
  assert.is(first.usd, 21 * 0.02 / 1e6);
  assert.equal(embedder.asked, [GOLDEN, ['the capital of France is Paris']]);

  // A new process (a new cache) finds the golden vectors in the store: only the output is embedded and paid for.
  const other = standInEmbedder();
  const second = await similarity(deps(other, new EmbeddingCache(store)), definition(GOLDEN), trace('I like bananas'), GOLDEN);
  assert.equal(other.asked, [['I like bananas']]);
  assert.is(second.tokens_in, 3);
  assert.ok(second.score! < first.score!);
  assert.is(second.details!.closest, 2);
});

test('evals running at once embed a new golden set once between them', async () => {
  const embedder = standInEmbedder('openai', 'concurrent-model');
  const golden = ['One golden answer', 'Another golden answer'];
  const shared = deps(embedder);
  const outs = await Promise.all(['a', 'b', 'c'].map((x) => similarity(shared, definition(golden), trace(`answer ${x}`), golden)));
  assert.is(embedder.asked.filter((texts) => texts.includes('One golden answer')).length, 1);
  assert.equal(outs.map((o) => o.tokens_in).sort(), [2, 2, 8], 'the golden tokens are the result\'s that embedded them');
});

test('the cache is per method and model: another embedder embeds the golden set again', async () => {
  const local = standInEmbedder('glove-sif', 'wink-100d');
  const r = await similarity(deps(local), definition(GOLDEN), trace('Paris'), GOLDEN);
  assert.equal(local.asked.map((t) => t.length), [3, 1]);
  assert.equal([r.method, r.usd], ['glove-sif', 0]);
});

test('no golden outputs, no output text: failed results saying so', async () => {
  const e = standInEmbedder();
  const none = await similarity(deps(e), definition(), trace('x'), undefined);
  assert.match(none.reason!, /no golden outputs: the definition has none and template "capital" has no golden set/);
  const empty = await similarity(deps(e), definition(GOLDEN), trace(''), GOLDEN);
  assert.match(empty.reason!, /no output text/);
});

test('a provider failure worth retrying throws ProviderUnavailable with its wait; another is a failed result', async () => {
  const e = standInEmbedder();
  e.fail = Object.assign(new Error('429 on every attempt'), { retryable: true, retryAfterMs: 3000, reason: 'rate_limited' });
  const err = await similarity(deps(e), definition(GOLDEN), trace('a new text'), GOLDEN).then(() => null, (x) => x);
  assert.instance(err, ProviderUnavailable);
  assert.is(err.retryAfterMs, 3000);
  e.fail = Object.assign(new Error('401 bad key'), { retryable: false, reason: 'rejected' });
  const r = await similarity(deps(e), definition(GOLDEN), trace('another new text'), GOLDEN);
  assert.equal([r.status, r.details!.kind], ['failed', 'rejected']);
});

test('averages never mix methods: a definition counts under its most used method, the others listed apart', async () => {
  const results = new ResultStore(store);
  // A result is kept only while its definition exists.
  const definitions = new DefinitionStore(store);
  for (const id of ['sim', 'fn']) await definitions.create('p2', { id, name: id, type: 'custom_function', settings: { source: 'export default () => 1' } });
  const base = { project_id: 'p2', definition_id: 'sim', template: 'capital', version: 1, trace_created_at: 1000, model: 'x', tokens_in: 1, tokens_out: 0, usd: 0, reason: null, latency_ms: 1, created_at: 2000 };
  const scores: [string, number][] = [['openai', 0.9], ['openai', 0.7], ['openai', 0.8], ['lexical', 0.1], ['lexical', 0.2]];
  for (const [i, [method, score]] of scores.entries()) await results.write({ ...base, trace_id: `t${i}`, method, score, status: 'ok' });
  await results.write({ ...base, definition_id: 'fn', trace_id: 't0', method: 'custom_function', score: 0.5, status: 'ok' });
  await results.write({ ...base, definition_id: 'fn', trace_id: 't1', method: 'custom_function', score: null, status: 'failed' });
  const s = await results.summary({ project_id: 'p2' });
  const sim = s.by_definition.find((d) => d.eval_definition_id === 'sim')!;
  assert.equal({ method: sim.method, samples: sim.samples, other: sim.other_methods.map((m) => [m.method, m.samples]) }, { method: 'openai', samples: 3, other: [['lexical', 2]] });
  assert.ok(Math.abs(sim.avg_score! - 0.8) < 1e-9);
  // 0.9 + 0.7 + 0.8 (sim, openai) and 0.5 (fn): the lexical 0.1 and 0.2 are not in it.
  assert.ok(Math.abs(s.avg_score! - 2.9 / 4) < 1e-9, `avg ${s.avg_score}`);
  assert.equal([s.samples, s.failed], [4, 1]);
  const series = await results.series({ project_id: 'p2', from: 0, to: 10_000 }, 1000);
  assert.equal([...series.keys()], [1]);
  assert.ok(Math.abs(series.get(1)! - 2.9 / 4) < 1e-9);
});

test.run();
