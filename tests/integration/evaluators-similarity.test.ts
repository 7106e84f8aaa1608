// Issue 24: semantic_similarity in a real `vigil run` with the OpenAI-compatible embeddings tier (the local fake
// answers each text with its own vector).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { llmClient, traceItem, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const KEY = 'evals-similarity-key-0123456789';
const GOLDEN = ['Paris is the capital of France.', 'Bananas are yellow fruit.'];

/** Bag of words hashed into 32 dimensions: the same words give the same vector. */
function embed(text: string): number[] {
  const v = new Array(32).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let h = 7;
    for (const c of word) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    v[h % 32] += 1;
  }
  return v;
}

const work = tempDir('vigil-evals-sim-');
let fake: FakeOpenAI;
let vigil: VigilProcess;
let base: string;

test.before(async () => {
  fake = await startFakeOpenAI({ delayMs: 0, embed });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const file = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: sim-token }
llm:
  projects:
    - { name: shop, key: ${KEY} }
evaluators:
  rate_per_minute: 6000
  embeddings: { base_url: "${fake.baseURL}", model: text-embedding-3-small, api_key: sk-embed }
  definitions:
    - id: close-to-golden
      project: shop
      name: Close to golden
      type: semantic_similarity
      settings: { golden: ${JSON.stringify(GOLDEN)} }
`);
  vigil = await startVigil(file, base, { cwd: work.path });
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  await fake?.close();
  work.cleanup();
});

test('the best cosine with a golden output, method openai, embedding tokens on the result; golden texts embedded once', async () => {
  const api = llmClient(base);
  const outputs = ['Paris is the capital of France.', 'Yellow fruit are bananas.', 'Something else entirely.'];
  const res = await api.ingest(KEY, { traces: outputs.map((content) => traceItem({ id: randomUUID(), output: { role: 'assistant', content } })) });
  const results: Json[] = await waitFor(async () => {
    const r = await api.get(KEY, '/api/v1/eval-results?eval_definition_id=close-to-golden');
    return r.body.data?.length === 3 ? r.body.data : null;
  }, { timeoutMs: 20_000, what: 'three similarity results' });
  const byTrace = new Map(results.map((r) => [r.trace_id, r]));
  const [paris, bananas, other] = res.body.ids.map((id: string) => byTrace.get(id));
  assert.equal([paris.status, paris.method], ['ok', 'openai'], JSON.stringify(paris));
  assert.ok(Math.abs(paris.score - 1) < 1e-6, `paris ${paris.score}`);
  assert.ok(Math.abs(bananas.score - 1) < 1e-6, `bananas ${bananas.score}`);
  assert.ok(other.score < 0.5, `other ${other.score}`);
  for (const r of [paris, bananas, other]) assert.ok(r.cost.tokens_in > 0);
  const goldenEmbedded = fake.requests.filter((r) => r.path === '/v1/embeddings' && JSON.stringify(r.body.input).includes('Bananas are yellow fruit.'));
  assert.is(goldenEmbedded.length, 1, 'the golden set is embedded once, then read from the cache');
  const stats = await api.get(KEY, '/api/v1/stats?range=1h');
  assert.is(stats.body.eval.by_definition[0].method, 'openai');
});

test.run();
