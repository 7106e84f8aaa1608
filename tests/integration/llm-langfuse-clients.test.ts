// The Langfuse SDKs, unchanged but for their base URL, report to Vigil's Langfuse-compatible handling: the legacy
// `langfuse` v3 SDK through /api/public/ingestion, and `@langfuse/otel` + `@langfuse/tracing` v5 through
// /api/public/otel/v1/traces (its default JSON exporter, and a protobuf one), with scores from `@langfuse/client`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Langfuse } from 'langfuse';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { propagateAttributes, setLangfuseTracerProvider, startActiveObservation, startObservation } from '@langfuse/tracing';
import { LangfuseClient } from '@langfuse/client';
import { startLangfuseReceiver } from './support/langfuse-vigil-receiver.js';

const PROJECT_KEY = 'vk_test_project_key';

test('langfuse v3 (legacy ingestion): the generation arrives with its trace\'s fields, and both scores; every answer is a clean 207', async () => {
  const receiver = await startLangfuseReceiver(PROJECT_KEY);
  try {
    const langfuse = new Langfuse({ publicKey: 'pk-lf-anything', secretKey: PROJECT_KEY, baseUrl: receiver.url, flushAt: 100 });
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

    const ingest = receiver.requests.filter((r) => r.path === '/api/public/ingestion');
    assert.ok(ingest.length > 0);
    for (const r of ingest) {
      assert.is(r.status, 207);
      assert.equal((r.body as { errors: unknown[] }).errors, []);
      assert.is(r.publicKey, 'pk-lf-anything');
    }
    assert.is(receiver.items.length, 1);
    const item = receiver.items[0];
    assert.is(item.id, generation.id);
    assert.is(item.model, 'gpt-4o-mini');
    assert.equal(item.tokens, { input: 10, output: 3, cache_read: 2 });
    assert.ok(Math.abs(item.cost_usd! - 0.003) < 1e-12);
    assert.equal(item.input, [{ role: 'user', content: 'hi' }]);
    assert.equal(item.output, { role: 'assistant', content: 'hello' });
    assert.is(item.user_id, 'u-1');
    assert.is(item.session_id, 's-1');
    assert.equal(item.tags, ['prod']);
    assert.is(item.metadata!.plan, 'pro');
    assert.is((item.metadata!.langfuse as Record<string, unknown>).trace_name, 'support-chat');
    assert.equal(receiver.scores.map((s) => [s.name, s.value, s.trace_id]).sort(), [['helpful', 1, trace.id], ['tone', 'friendly', trace.id]]);
    assert.is(receiver.scores.find((s) => s.name === 'tone')!.item_id, item.id);
  } finally {
    await receiver.close();
  }
});

test('langfuse v3 with a wrong secret is refused with 401, and nothing is taken', async () => {
  const receiver = await startLangfuseReceiver(PROJECT_KEY);
  try {
    const langfuse = new Langfuse({ publicKey: 'pk', secretKey: 'not-the-key', baseUrl: receiver.url, flushAt: 100, fetchRetryCount: 0 } as never);
    langfuse.trace({ name: 'x' }).generation({ name: 'g', model: 'm' }).end({ usage: { input: 1 } });
    await langfuse.shutdownAsync().catch(() => {});
    assert.ok(receiver.requests.some((r) => r.status === 401));
    assert.is(receiver.items.length, 0);
  } finally {
    await receiver.close();
  }
});

async function runOtelSdk(baseUrl: string, exporter?: ProtoExporter): Promise<{ traceId: string; generationId: string }> {
  const processor = new LangfuseSpanProcessor({ publicKey: 'pk-lf-otel', secretKey: PROJECT_KEY, baseUrl, exporter, exportMode: 'immediate' } as never);
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
    const receiver = await startLangfuseReceiver(PROJECT_KEY);
    try {
      const exporter = encoding === 'protobuf'
        ? new ProtoExporter({ url: `${receiver.url}/api/public/otel/v1/traces`, headers: { authorization: `Basic ${Buffer.from(`pk-lf-otel:${PROJECT_KEY}`).toString('base64')}` } })
        : undefined;
      const { traceId } = await runOtelSdk(receiver.url, exporter);
      const otlp = receiver.requests.filter((r) => r.path === '/api/public/otel/v1/traces');
      assert.ok(otlp.length > 0);
      assert.ok(otlp.every((r) => r.status === 200 && r.contentType.includes(encoding === 'json' ? 'application/json' : 'application/x-protobuf')));
      assert.is(receiver.items.length, 1, 'the generation, not the span around it');
      const item = receiver.items[0];
      assert.is(item.model, 'claude-3-5-sonnet');
      assert.equal(item.tokens, { input: 12, output: 3 });
      assert.is(item.cost_usd, 0.0004);
      assert.equal(item.input, [{ role: 'user', content: 'Hello' }]);
      assert.equal(item.output, { role: 'assistant', content: 'Hi!' });
      assert.is(item.user_id, 'u-otel');
      assert.is(item.session_id, 's-otel');
      assert.equal(item.tags, ['beta']);
      const otel = item.metadata!.otel as Record<string, unknown>;
      assert.is(otel.trace_id, traceId);
      assert.is(otel.trace_name, 'support-bot');
      assert.equal(otel.parameters, { temperature: 0.7 });
    } finally {
      await receiver.close();
    }
  });
}

test('@langfuse/client scores go to the ingestion endpoint and arrive as scores', async () => {
  const receiver = await startLangfuseReceiver(PROJECT_KEY);
  try {
    const client = new LangfuseClient({ publicKey: 'pk-lf-otel', secretKey: PROJECT_KEY, baseUrl: receiver.url });
    client.score.create({ traceId: 'abcdefabcdefabcdefabcdefabcdefab', name: 'correctness', value: 0.9, comment: 'close' });
    client.score.create({ traceId: 'abcdefabcdefabcdefabcdefabcdefab', observationId: '1234567890abcdef', name: 'passed', value: 1, dataType: 'BOOLEAN' });
    await client.score.flush();
    await client.shutdown();
    assert.ok(receiver.requests.some((r) => r.path === '/api/public/ingestion' && r.status === 207));
    assert.equal(receiver.scores.map((s) => [s.name, s.value, s.data_type]), [['correctness', 0.9, 'NUMERIC'], ['passed', 1, 'BOOLEAN']]);
    assert.is(receiver.scores[1].observation_id, '1234567890abcdef');
  } finally {
    await receiver.close();
  }
});

test('GET /api/public/health answers without credentials', async () => {
  const receiver = await startLangfuseReceiver(PROJECT_KEY);
  try {
    const res = await fetch(`${receiver.url}/api/public/health`);
    assert.equal(await res.json(), { status: 'OK', version: 'test' });
  } finally {
    await receiver.close();
  }
});

test.run();
