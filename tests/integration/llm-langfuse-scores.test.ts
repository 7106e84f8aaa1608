// Langfuse scores through a real runtime: the `langfuse` v3 SDK scores a trace and a generation; the llm plugin
// publishes each on `llm.score.received` (the seam the evaluators plugin keeps them from), redacted, for the
// project whose key sent it. A plugin of this test subscribes as the evaluators would.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Langfuse } from 'langfuse';
import { definePlugin, type LlmService, type ReceivedScore } from '@vigil/plugin-sdk';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { llmClient } from '../support/llm-client.js';
import { waitFor } from '../support/net.js';

const KEY = 'langfuse-scores-key-0123456789';
const OTHER = 'langfuse-scores-other-0123456789';
const received: ReceivedScore[] = [];
let llm: LlmService | undefined;

const recorder = definePlugin({
  name: 'score-recorder',
  version: '0.0.0',
  needs: ['llm'],
  setup(ctx) {
    llm = ctx.services.get('llm');
    let off: (() => void) | undefined;
    return {
      start() { off = ctx.bus.subscribe('llm.score.received', (batch) => { received.push(...batch); }, { batch: 1 }); },
      stop() { off?.(); },
    };
  },
});

let rt: TestRuntime;

test.before(async () => {
  rt = await startTestRuntime({
    plugins: [recorder],
    config: { llm: { projects: [{ name: 'scored', key: KEY }, { name: 'other', key: OTHER }] } },
  });
});

test.after(async () => { await rt?.stop(); });

test('langfuse v3 scores arrive on llm.score.received: once per score, for the sending project, free text redacted, the generation named by its item id', async () => {
  const langfuse = new Langfuse({ publicKey: 'pk-lf-x', secretKey: KEY, baseUrl: rt.url, flushAt: 100 });
  const trace = langfuse.trace({ name: 'support' });
  const generation = trace.generation({ name: 'answer', model: 'gpt-4o-mini', input: 'hi' });
  generation.end({ output: 'hello', usageDetails: { input: 3, output: 1 } });
  trace.score({ name: 'helpful', value: 0.75, comment: 'the user ada@example.com liked it' });
  langfuse.score({ traceId: trace.id, observationId: generation.id, name: 'tone', value: 'friendly', dataType: 'CATEGORICAL', metadata: { reviewer: 'bob@example.com' } });
  await langfuse.shutdownAsync();

  await waitFor(() => (received.length >= 2 ? true : null), { what: 'two scores published' });
  const scored = await llm!.project('scored');
  const byName = Object.fromEntries(received.map((s) => [s.name, s]));
  assert.equal(Object.keys(byName).sort(), ['helpful', 'tone']);
  for (const s of received) assert.equal([s.project_id, s.source, s.trace_id], [scored!.id, 'langfuse', trace.id]);
  assert.equal([byName.helpful.value, byName.helpful.data_type, byName.helpful.item_id], [0.75, 'NUMERIC', undefined]);
  assert.not.match(byName.helpful.comment!, /ada@example\.com/);
  assert.match(byName.helpful.comment!, /liked it/);
  assert.equal([byName.tone.value, byName.tone.data_type, byName.tone.item_id], ['friendly', 'CATEGORICAL', generation.id]);
  assert.not.ok(JSON.stringify(byName.tone.metadata).includes('bob@example.com'));
  // The generation the score names is the stored trace item.
  const [stored] = await llmClient(rt.url).waitForTraces(KEY, [generation.id]);
  assert.is(stored.model, 'gpt-4o-mini');
});

test('a score sent with another project\'s key is that project\'s, and a refused key publishes nothing', async () => {
  received.length = 0;
  const send = (secret: string) => fetch(new URL('/api/public/ingestion', rt.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`pk:${secret}`).toString('base64')}` },
    body: JSON.stringify({ batch: [{ id: 'ev-1', type: 'score-create', timestamp: '2026-01-01T00:00:00.000Z', body: { id: 's-1', traceId: 't-1', name: 'q', value: 1 } }] }),
  });
  assert.is((await send('not-a-key-0123456789')).status, 401);
  assert.is((await send(OTHER)).status, 207);
  await waitFor(() => (received.length ? true : null), { what: 'the score published' });
  await new Promise((r) => setTimeout(r, 200));
  const other = await llm!.project('other');
  assert.equal(received.map((s) => [s.project_id, s.name]), [[other!.id, 'q']]);
});

test.run();
