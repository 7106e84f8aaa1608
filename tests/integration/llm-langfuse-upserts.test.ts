// Langfuse upserts with the real `langfuse` v3 SDK against a real `vigil run` (SQLite here; PostgreSQL with two
// processes in llm-langfuse-upserts-postgres): a generation never ended appears, incomplete, once idle for
// `llm.langfuse.unended_after` (1 s here instead of 30 s); one ended after it was stored gets its final output, and
// its eval runs again on the final version (the result is replaced). The SDK's own batches, replayed as it retries
// them, and an older update sent after a newer one, change nothing. An updated output is redacted as an ingest is.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Langfuse } from 'langfuse';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { setLangfuseTracerProvider, startObservation } from '@langfuse/tracing';
import { llmClient, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';

const TOKEN = 'langfuse-upserts-token';
const KEY = 'langfuse-upserts-key-0123456789';
const work = tempDir('vigil-llm-langfuse-upserts-');
let vigil: VigilProcess;
let proxy: RecordingProxy;
let api: ReturnType<typeof llmClient>;
let base: string;

test.before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const file = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  langfuse: { unended_after: 1s }
  projects:
    - { name: upserts, key: ${KEY} }
evaluators:
  rate_per_minute: 6000
  definitions:
    - id: final
      project: upserts
      name: Final answer
      type: custom_function
      settings:
        source: |
          export default (trace) => ({ score: trace.output && trace.output.content === 'final answer' ? 1 : 0, reason: JSON.stringify(trace.output) })
`);
  vigil = await startVigil(file, base, { cwd: work.path });
  proxy = await startRecordingProxy(base);
  api = llmClient(base);
});

test.after(async () => {
  await proxy?.close();
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

const sdk = () => new Langfuse({ publicKey: 'pk-lf-upserts', secretKey: KEY, baseUrl: proxy.url, flushAt: 100 });
const trace = async (id: string): Promise<Json | null> => {
  const r = await api.get(KEY, `/api/v1/traces/${id}`);
  return r.status === 200 ? r.body : null;
};
const traceWhen = (id: string, done: (t: Json) => boolean, what: string) =>
  waitFor(async () => { const t = await trace(id); return t && done(t) ? t : null; }, { what, timeoutMs: 20_000 }) as Promise<Json>;
const results = async (id: string): Promise<Json[]> => (await api.get(KEY, `/api/v1/eval-results?eval_definition_id=final&trace_id=${id}`)).body.data;
const resultWhen = (id: string, done: (r: Json) => boolean, what: string) =>
  waitFor(async () => (await results(id)).find(done) ?? null, { what, timeoutMs: 20_000 }) as Promise<Json>;

/** A counter's value on /metrics (0 when absent). */
async function metric(line: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found ? Number(found.split(' ').at(-1)) : 0;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** POSTs a batch to the ingestion as the SDK does (Basic auth, the key as the secret). */
const ingest = (body: unknown) => fetch(`${base}/api/public/ingestion`, {
  method: 'POST', body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`pk-lf-upserts:${KEY}`).toString('base64')}` },
});

test('a generation created with output and usage and never ended appears, incomplete, once idle', async () => {
  const before = await metric('vigil_llm_langfuse_unended_total{outcome="incomplete"}');
  const langfuse = sdk();
  const t = langfuse.trace({ name: 'chat', userId: 'u-1' });
  const generation = t.generation({
    name: 'stream', model: 'gpt-4o-mini', input: [{ role: 'user', content: 'hi' }],
    output: { content: 'partial stream' }, usageDetails: { input: 12, output: 4 },
  });
  await langfuse.shutdownAsync();
  const stored = await traceWhen(generation.id, () => true, 'the un-ended generation stored');
  assert.is(stored.incomplete, 'never_ended');
  assert.equal(stored.output, { content: 'partial stream' });
  assert.equal(stored.tokens, { input: 12, output: 4 });
  assert.is(stored.user_id, 'u-1');
  assert.is(stored.latency_ms, null);
  // The sweep stores the generation in a lane worker thread; the main thread counts it once the worker's answer
  // comes back, after the commit that the read above already sees: wait for the count.
  const counted = await waitFor(async () => {
    const n = await metric('vigil_llm_langfuse_unended_total{outcome="incomplete"}') - before;
    return n >= 1 ? n : null;
  }, { intervalMs: 250, what: 'the un-ended generation counted' });
  assert.is(counted, 1);
  const listed = (await api.get(KEY, '/api/v1/traces?limit=200')).body.data as Json[];
  assert.is(listed.find((x) => x.id === generation.id)?.incomplete, 'never_ended', 'the list shows it too');
});

test('a generation ended after it was stored has its final output; its eval runs again on it; retries and older updates change nothing', async () => {
  const langfuse = sdk();
  const generation = langfuse.trace({ name: 'chat' }).generation({
    name: 'answer', model: 'gpt-4o-mini', input: [{ role: 'user', content: 'capital of France?' }], output: { content: 'Par' },
  });
  await langfuse.flushAsync();
  await traceWhen(generation.id, (t) => t.incomplete === 'never_ended', 'stored incomplete');
  const first = await resultWhen(generation.id, () => true, 'the eval of the incomplete trace');
  assert.is(first.score, 0, first.reason);

  const from = proxy.exchanges.length;
  const applied = await metric('vigil_llm_langfuse_updates_total{outcome="applied"}');
  generation.end({ output: { content: 'final answer' }, usageDetails: { input: 8, output: 2 }, costDetails: { total: 0.002 } });
  await langfuse.shutdownAsync();
  const final = await traceWhen(generation.id, (t) => t.incomplete === undefined, 'the end applied');
  assert.equal(final.output, { content: 'final answer' });
  assert.equal(final.tokens, { input: 8, output: 2 });
  assert.is(final.cost_usd, 0.002);
  assert.ok(final.latency_ms >= 1_000, `the end came after the idle bound: ${final.latency_ms} ms`);
  assert.is(await metric('vigil_llm_langfuse_updates_total{outcome="applied"}') - applied, 1);
  const rerun = await resultWhen(generation.id, (r) => r.score === 1, 'the eval run again on the final version');
  assert.match(rerun.reason, /final answer/);
  assert.is((await results(generation.id)).length, 1, 'one result per definition and trace: replaced');

  // The SDK's end batch sent again (as it retries), then an update older than the end: nothing changes.
  const sent = proxy.exchanges.slice(from).filter((x) => x.path === '/api/public/ingestion');
  assert.ok(sent.length > 0);
  const endBatch = JSON.parse(sent.at(-1)!.request.toString('utf8')) as { batch: Json[] };
  assert.ok(endBatch.batch.some((e) => e.type === 'generation-update'), JSON.stringify(endBatch.batch.map((e) => e.type)));
  const res1 = await ingest(endBatch);
  assert.is(res1.status, 207);
  assert.equal(((await res1.json()) as Json).errors, []);
  const older = new Date(Date.parse(endBatch.batch[0].timestamp) - 60_000).toISOString();
  const res = await ingest({ batch: [{ id: 'older-update-1', type: 'generation-update', timestamp: older, body: { id: generation.id, output: { content: 'stale' } } }] });
  assert.equal(((await res.json()) as Json).errors, []);
  // Neither changed the merged state, so neither reached the stored trace (no replacement, no publication).
  assert.is(await metric('vigil_llm_langfuse_updates_total{outcome="applied"}') - applied, 1);
  assert.equal(await trace(generation.id), final);
  await sleep(1_000);
  assert.is((await results(generation.id)).length, 1);
  assert.is((await results(generation.id))[0].id, rerun.id, 'no further eval');
});

test('an updated output is redacted by the project\'s rules, as an ingested one is', async () => {
  const langfuse = sdk();
  const generation = langfuse.trace({ name: 'mail' }).generation({ name: 'draft', model: 'gpt-4o-mini', output: { content: 'drafting' } });
  await langfuse.flushAsync();
  await traceWhen(generation.id, (t) => t.incomplete === 'never_ended', 'stored incomplete');
  generation.end({ output: { content: 'Send it to ada@example.com, card 4111 1111 1111 1111' } });
  await langfuse.shutdownAsync();
  const final = await traceWhen(generation.id, (t) => t.incomplete === undefined, 'the end applied');
  const text = JSON.stringify(final.output);
  assert.match(text, /Send it to/);
  assert.not.ok(text.includes('ada@example.com'), text);
  assert.not.ok(text.includes('4111 1111 1111 1111'), text);
});

test('@langfuse/tracing (OTel): a span is exported only when it ends, so an un-ended generation never arrives; ended late, it arrives final', async () => {
  const processor = new LangfuseSpanProcessor({ publicKey: 'pk-lf-otel', secretKey: KEY, baseUrl: proxy.url, exportMode: 'immediate' } as never);
  const provider = new NodeTracerProvider({ spanProcessors: [processor] });
  setLangfuseTracerProvider(provider);
  const from = proxy.exchanges.length;
  const generation = startObservation('otel-answer', { model: 'gpt-4o-mini', input: 'q', output: { content: 'draft' } }, { asType: 'generation' });
  await provider.forceFlush();
  await sleep(1_500); // past the idle bound: the legacy path would have stored it by now
  assert.equal(proxy.exchanges.slice(from).filter((x) => x.path === '/api/public/otel/v1/traces'), [], 'nothing was sent for an open span');
  generation.update({ output: { content: 'final answer' } }).end();
  await provider.forceFlush();
  await provider.shutdown();
  setLangfuseTracerProvider(null);
  const sent = proxy.exchanges.slice(from).filter((x) => x.path === '/api/public/otel/v1/traces');
  assert.ok(sent.length > 0 && sent.every((x) => x.status === 200));
  const data = (await api.get(KEY, '/api/v1/traces?limit=200')).body.data as Json[];
  const stored = data.find((t) => t.name === 'otel-answer');
  assert.ok(stored, 'stored once it ended');
  assert.equal(stored!.output, { content: 'final answer' });
  assert.is(stored!.incomplete, undefined);
});

test.run();
