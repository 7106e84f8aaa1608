// The embedder's one-time preparation (the local word vectors converted into a fresh data directory, then loaded) in a
// real runtime: GET /api/llm/embeddings/status says it is preparing, with its step and progress, while the first
// similarity test waits; and that wait is reported as preparation_ms, never as the eval's latency, both for a test
// from the dashboard and for an eval job's stored result.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { llmClient, traceItem, type Json } from '../support/llm-client.js';
import { waitFor } from '../support/net.js';

const KEY = 'similarity-prep-key-0123456789';
const GOLDEN = ['Paris is the capital of France'];

type Status = { state: string; step: string | null; progress: number | null; elapsed_ms: number | null; method: string | null };

const start = (definitions: unknown[] = []): Promise<TestRuntime> => startTestRuntime({
  plugins: [],
  config: {
    llm: { persist: { backoff: '100ms' }, projects: [{ name: 'geo', key: KEY }] },
    evaluators: { rate_per_minute: 6000, definitions },
  },
});

const status = async (rt: TestRuntime): Promise<Status> =>
  (await llmClient(rt.url).dashboard(rt.token, '/api/llm/embeddings/status')).body as Status;

/** Every status seen until `until` settles, polled every 20 ms. */
async function watch<T>(rt: TestRuntime, until: Promise<T>): Promise<{ seen: Status[]; value: T }> {
  const seen: Status[] = [];
  let done = false;
  const value = until.finally(() => { done = true; });
  while (!done) {
    seen.push(await status(rt));
    await new Promise((r) => setTimeout(r, 20));
  }
  return { seen, value: await value };
}

test('a similarity test from the dashboard: the preparation is shown with its progress and reported apart from the eval\'s latency', async () => {
  const rt = await start();
  try {
    const api = llmClient(rt.url);
    const sent = await api.ingest(KEY, { traces: [traceItem({ id: randomUUID(), output: { role: 'assistant', content: 'France\'s capital city is Paris' } })] });
    assert.is(sent.status, 202);
    await api.waitForTraces(KEY, sent.body.ids);
    assert.equal((await status(rt)).state, 'idle', 'nothing prepared before a similarity eval asks');

    const definition = { name: 'like the golden answer', type: 'semantic_similarity', settings: { golden: GOLDEN } };
    const trial = () => api.dashboard(rt.token, '/api/llm/projects/geo/evals/test', { method: 'POST', body: JSON.stringify(definition) });
    const { seen, value: first } = await watch(rt, trial());
    assert.is(first.status, 200, JSON.stringify(first.body));
    assert.equal([first.body.status, first.body.method], ['ok', 'glove-sif']);

    const converting = seen.filter((s) => s.state === 'preparing' && s.step === 'converting' && s.progress !== null);
    assert.ok(converting.length > 0, `the conversion was seen with its progress: ${JSON.stringify(seen.map((s) => [s.state, s.step, s.progress]))}`);
    assert.ok(converting.every((s) => s.progress! >= 0 && s.progress! <= 1));
    const done = await status(rt);
    assert.equal([done.state, done.method], ['ready', 'glove-sif']);

    // The wait is the preparation's, the latency the eval's own: converting and loading 50k words is not embedding
    // two short texts.
    assert.ok(first.body.preparation_ms >= converting.length * 20, `preparation ${first.body.preparation_ms} ms`);
    assert.ok(first.body.latency_ms < first.body.preparation_ms, `latency ${first.body.latency_ms} ms against preparation ${first.body.preparation_ms} ms`);
    assert.ok(Math.abs(first.body.preparation_ms - done.elapsed_ms!) < 250, `the status's ${done.elapsed_ms} ms is the same wait`);

    const second = await trial();
    assert.is(second.body.preparation_ms, 0, 'ready: nothing to wait for');
  } finally {
    await rt.stop();
  }
});

test('an eval job\'s first similarity result: its stored latency excludes the preparation', async () => {
  const rt = await start([{ id: 'capital', project: 'geo', name: 'Like the golden answer', type: 'semantic_similarity', settings: { golden: GOLDEN } }]);
  try {
    const api = llmClient(rt.url);
    const sent = await api.ingest(KEY, { traces: [traceItem({ id: randomUUID(), output: { role: 'assistant', content: 'France\'s capital city is Paris' } })] });
    assert.is(sent.status, 202);
    const [result] = (await waitFor(async () => {
      const r = (await api.get(KEY, '/api/v1/eval-results?eval_definition_id=capital')).body.data as Json[];
      return r.length ? r : undefined;
    }, { timeoutMs: 60_000, what: 'the similarity result' }))!;
    const prepared = await status(rt);
    assert.equal([result.status, prepared.state], ['ok', 'ready']);
    assert.ok(result.latency_ms < prepared.elapsed_ms!, `stored latency ${result.latency_ms} ms against the preparation's ${prepared.elapsed_ms} ms`);
  } finally {
    await rt.stop();
  }
});

test.run();
