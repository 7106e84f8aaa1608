// The Langfuse SDKs, unchanged but for their base URL, report to a real `vigil run` (llm and evaluators plugins): the
// legacy `langfuse` v3 SDK through /api/public/ingestion, and `@langfuse/otel` + `@langfuse/tracing` v5 through
// /api/public/otel/v1/traces (its default JSON exporter, and a protobuf one), with scores from `@langfuse/client`.
// Basic auth's secret is the project key. A proxy records what the SDKs sent and what Vigil answered; the traces
// and scores are read back through the public API (GET /api/v1/traces, /api/v1/traces/:id, /api/v1/scores).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { Langfuse } from 'langfuse';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { propagateAttributes, setLangfuseTracerProvider, startActiveObservation, startObservation } from '@langfuse/tracing';
import { LangfuseClient } from '@langfuse/client';
import { llmClient, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { fromRoot } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';

// One project per test, so each reads back only what its SDK sent.
const KEYS = {
  legacy: 'langfuse-legacy-key-0123456789',
  refused: 'langfuse-refused-key-0123456789',
  json: 'langfuse-otel-json-key-0123456789',
  protobuf: 'langfuse-otel-protobuf-key-0123456789',
  scores: 'langfuse-client-scores-key-0123456789',
} as const;
const work = tempDir('vigil-llm-langfuse-clients-');
let vigil: VigilProcess;
let proxy: RecordingProxy;
let api: ReturnType<typeof llmClient>;
test.before(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const projects = Object.entries(KEYS).map(([name, key]) => `    - { name: ${name}, key: ${key} }`);
  const file = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: langfuse-clients-token }
llm:
  projects:
${projects.join('\n')}
evaluators: {}
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

/** The requests the proxy saw to `path` since `from` (an index into its exchanges). */
const sentTo = (path: string, from: number) => proxy.exchanges.slice(from).filter((x) => x.path === path);
const basicUser = (authorization: unknown) => Buffer.from(String(authorization).replace(/^Basic /, ''), 'base64').toString('utf8').split(':')[0];
const json = (body: Buffer) => JSON.parse(body.toString('utf8')) as Json;

/** Waits until the project holds `count` traces (persisting follows the answer); exactly `count`. */
async function storedTraces(key: string, count: number): Promise<Json[]> {
  const traces = await waitFor(async () => {
    const data = (await api.get(key, '/api/v1/traces?limit=200')).body.data as Json[];
    return data.length >= count ? data : null;
  }, { what: `${count} traces stored`, timeoutMs: 20_000 }) as Json[];
  assert.is(traces.length, count, `stored: ${JSON.stringify(traces.map((t) => [t.name, t.model]))}`);
  return traces;
}

/** Waits until the project holds `count` scores (the evaluators keep them from the bus); exactly `count`. */
async function storedScores(key: string, count: number): Promise<Json[]> {
  const scores = await waitFor(async () => {
    const res = await api.get(key, '/api/v1/scores?limit=200');
    assert.is(res.status, 200, JSON.stringify(res.body));
    return res.body.data.length >= count ? res.body.data as Json[] : null;
  }, { what: `${count} scores kept`, timeoutMs: 20_000 }) as Json[];
  assert.is(scores.length, count, `kept: ${JSON.stringify(scores.map((s) => s.name))}`);
  return scores.sort((a, b) => String(a.name).localeCompare(String(b.name)));
}

test('langfuse v3 (legacy ingestion): the generation arrives with its trace\'s fields, and both scores; every answer is a clean 207', async () => {
  const from = proxy.exchanges.length;
  const langfuse = new Langfuse({ publicKey: 'pk-lf-anything', secretKey: KEYS.legacy, baseUrl: proxy.url, flushAt: 100 });
  const trace = langfuse.trace({ name: 'support-chat', userId: 'u-1', sessionId: 's-1', tags: ['prod'], metadata: { plan: 'pro' }, input: { question: 'hi' } });
  const generation = trace.generation({
    name: 'answer', model: 'gpt-4o-mini', modelParameters: { temperature: 0.1 }, input: [{ role: 'user', content: 'hi' }],
  });
  generation.end({ output: { role: 'assistant', content: 'hello' }, usageDetails: { input: 10, output: 3, cache_read_input_tokens: 2 }, costDetails: { input: 0.001, output: 0.002 } });
  trace.span({ name: 'retrieval', input: 'q' }).end({ output: ['doc'] });
  trace.event({ name: 'clicked' });
  trace.score({ name: 'helpful', value: 1, comment: 'ok' });
  langfuse.score({ traceId: trace.id, observationId: generation.id, name: 'tone', value: 'friendly', dataType: 'CATEGORICAL' });
  trace.update({ output: { answer: 'hello' } });
  await langfuse.shutdownAsync();

  const ingest = sentTo('/api/public/ingestion', from);
  assert.ok(ingest.length > 0);
  for (const x of ingest) {
    assert.is(x.status, 207);
    assert.equal(json(x.response).errors, []);
    assert.is(basicUser(x.headers.authorization), 'pk-lf-anything');
  }
  const [item] = await storedTraces(KEYS.legacy, 1); // the generation: the span, the event and the trace are not calls
  assert.is(item.id, generation.id);
  assert.equal((await api.get(KEYS.legacy, `/api/v1/traces/${generation.id}`)).body, item);
  assert.is(item.name, 'answer');
  assert.is(item.model, 'gpt-4o-mini');
  assert.equal(item.tokens, { input: 10, output: 3, cache_read: 2 });
  assert.ok(Math.abs(item.cost_usd - 0.003) < 1e-12);
  assert.equal(item.input, [{ role: 'user', content: 'hi' }]);
  assert.equal(item.output, { role: 'assistant', content: 'hello' });
  assert.is(item.user_id, 'u-1');
  assert.is(item.session_id, 's-1');
  assert.equal(item.tags, ['prod']);
  assert.is(item.metadata.plan, 'pro');
  assert.is(item.metadata.langfuse.trace_name, 'support-chat');
  const scores = await storedScores(KEYS.legacy, 2);
  assert.equal(scores.map((s) => [s.name, s.value, s.data_type, s.sender_trace_id, s.source]),
    [['helpful', 1, 'NUMERIC', trace.id, 'langfuse'], ['tone', 'friendly', 'CATEGORICAL', trace.id, 'langfuse']]);
  assert.is(scores[0].comment, 'ok');
  assert.is(scores[0].trace_id, null, 'a trace-level score names no call');
  assert.is(scores[1].trace_id, item.id, 'the generation\'s score names its stored trace');
});

test('langfuse v3 with a wrong secret is refused with 401, and nothing is taken', async () => {
  const from = proxy.exchanges.length;
  const typo = `${KEYS.refused.slice(0, -1)}X`;
  const langfuse = new Langfuse({ publicKey: 'pk', secretKey: typo, baseUrl: proxy.url, flushAt: 100, fetchRetryCount: 0 } as never);
  const trace = langfuse.trace({ name: 'x' });
  trace.generation({ name: 'g', model: 'm' }).end({ usage: { input: 1 } });
  trace.score({ name: 'refused', value: 0 });
  await langfuse.shutdownAsync().catch(() => {});
  const ingest = sentTo('/api/public/ingestion', from);
  assert.ok(ingest.length > 0);
  assert.ok(ingest.every((x) => x.status === 401), JSON.stringify(ingest.map((x) => x.status)));
  // A 401 is answered before anything is queued, so nothing can be stored later: the project is empty now and after.
  assert.equal((await api.get(KEYS.refused, '/api/v1/traces')).body.data, []);
  assert.equal((await api.get(KEYS.refused, '/api/v1/scores')).body.data, []);
});

async function runOtelSdk(secret: string, exporter?: ProtoExporter): Promise<{ traceId: string; generationId: string }> {
  const processor = new LangfuseSpanProcessor({ publicKey: 'pk-lf-otel', secretKey: secret, baseUrl: proxy.url, exporter, exportMode: 'immediate' } as never);
  const provider = new NodeTracerProvider({ spanProcessors: [processor] });
  // register() installs the async context manager that carries the active span and propagated attributes, as an
  // app's OTel setup does; the second registration in this process keeps the first's context manager, which is fine.
  provider.register();
  setLangfuseTracerProvider(provider);
  let ids = { traceId: '', generationId: '' };
  await startActiveObservation('handle-request', async (span) => {
    await propagateAttributes({ userId: 'u-otel', sessionId: 's-otel', tags: ['beta'], traceName: 'support-bot', metadata: { region: 'eu' } }, async () => {
      const generation = startObservation('llm-call', {
        model: 'claude-3-5-sonnet', input: [{ role: 'user', content: 'Hello' }], modelParameters: { temperature: 0.7 },
      }, { asType: 'generation' });
      generation.update({ output: { role: 'assistant', content: 'Hi!' }, usageDetails: { input: 12, output: 3 }, costDetails: { total: 0.0004 } }).end();
      ids = { traceId: span.traceId, generationId: generation.id };
    });
    span.update({ output: 'done' });
  });
  await provider.forceFlush();
  await provider.shutdown();
  setLangfuseTracerProvider(null);
  return ids;
}

for (const encoding of ['json', 'protobuf'] as const) {
  test(`@langfuse/otel 5 over ${encoding}: the generation arrives with model, tokens, cost and the propagated trace fields`, async () => {
    const from = proxy.exchanges.length;
    const key = KEYS[encoding];
    const exporter = encoding === 'protobuf'
      ? new ProtoExporter({ url: `${proxy.url}/api/public/otel/v1/traces`, headers: { authorization: `Basic ${Buffer.from(`pk-lf-otel:${key}`).toString('base64')}` } })
      : undefined;
    const { traceId } = await runOtelSdk(key, exporter);
    const otlp = sentTo('/api/public/otel/v1/traces', from);
    assert.ok(otlp.length > 0);
    for (const x of otlp) {
      assert.ok(x.contentType.includes(encoding === 'json' ? 'application/json' : 'application/x-protobuf'), x.contentType);
      assert.is(basicUser(x.headers.authorization), 'pk-lf-otel');
      assert.is(x.status, 200, x.response.toString('utf8'));
      // A full success: no partial_success, no rejected span.
      if (encoding === 'protobuf') assert.is(x.response.length, 0);
      else assert.equal(json(x.response), {});
    }
    const [item] = await storedTraces(key, 1); // the generation, not the span around it
    assert.equal((await api.get(key, `/api/v1/traces/${item.id}`)).body, item);
    assert.is(item.name, 'llm-call');
    assert.is(item.model, 'claude-3-5-sonnet');
    assert.equal(item.tokens, { input: 12, output: 3 });
    assert.is(item.cost_usd, 0.0004);
    assert.equal(item.input, [{ role: 'user', content: 'Hello' }]);
    assert.equal(item.output, { role: 'assistant', content: 'Hi!' });
    assert.is(item.user_id, 'u-otel');
    assert.is(item.session_id, 's-otel');
    assert.equal(item.tags, ['beta']);
    const otel = item.metadata.otel as Json;
    assert.is(otel.trace_id, traceId);
    assert.is(otel.trace_name, 'support-bot');
    assert.equal(otel.parameters, { temperature: 0.7 });
  });
}

test('@langfuse/client scores go to the ingestion endpoint and arrive as scores', async () => {
  const from = proxy.exchanges.length;
  const client = new LangfuseClient({ publicKey: 'pk-lf-otel', secretKey: KEYS.scores, baseUrl: proxy.url });
  client.score.create({ traceId: 'abcdefabcdefabcdefabcdefabcdefab', name: 'correctness', value: 0.9, comment: 'close' });
  client.score.create({ traceId: 'abcdefabcdefabcdefabcdefabcdefab', observationId: '1234567890abcdef', name: 'passed', value: 1, dataType: 'BOOLEAN' });
  await client.score.flush();
  await client.shutdown();
  const ingest = sentTo('/api/public/ingestion', from);
  assert.ok(ingest.length > 0);
  assert.ok(ingest.every((x) => x.status === 207 && json(x.response).errors.length === 0), JSON.stringify(ingest.map((x) => x.response.toString('utf8'))));
  const scores = await storedScores(KEYS.scores, 2);
  assert.equal(scores.map((s) => [s.name, s.value, s.data_type, s.sender_trace_id]),
    [['correctness', 0.9, 'NUMERIC', 'abcdefabcdefabcdefabcdefabcdefab'], ['passed', 1, 'BOOLEAN', 'abcdefabcdefabcdefabcdefabcdefab']]);
  assert.is(scores[0].comment, 'close');
  assert.is(scores[1].observation_id, '1234567890abcdef');
});

test('GET /api/public/health answers without credentials', async () => {
  const res = await fetch(`${proxy.url}/api/public/health`);
  assert.is(res.status, 200);
  const { version } = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')) as { version: string };
  assert.equal(await res.json(), { status: 'OK', version });
});

test.run();
