// Real clients → Vigil's OTLP ingest. The real `openai` client calls a local fake of OpenAI's API under each real
// instrumentation (and, separately, the Vercel AI SDK with telemetry on); the real OTLP exporters, proto and
// http/json, send the spans to a local receiver that decodes and maps them with Vigil's modules, and, for
// @opentelemetry/instrumentation-openai, spans and message logs to a real `vigil run`, read back through
// GET /api/v1/traces. The items must carry the model, tokens and messages the fake answered with.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TraceItem } from '../../plugins/llm/trace-item.js';
import { llmClient, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { FAKE, startFakeOpenAI, type FakeOpenAI } from './support/fake-openai.js';
import { startVigilOtlpReceiver, type VigilOtlpReceiver } from './support/otlp-vigil-receiver.js';

const CHILD = fileURLToPath(new URL('./support/otel-openai-client.js', import.meta.url));
const QUESTION = [{ role: 'system', content: 'You answer in one sentence.' }, { role: 'user', content: 'What is the capital of France?' }];
const STREAMED = FAKE.streamed.join('');
const WEATHER_CALL = [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }];

/** The last call of the client child offers a tool; the fake answers with a call to it. */
function assertToolCall(item: TraceItem): void {
  assert.equal(item.input, [{ role: 'user', content: 'Weather in Paris?' }]);
  const [message] = item.output as { role: string; content: unknown; tool_calls: unknown }[];
  assert.is(message.role, 'assistant');
  assert.is(message.content, null);
  assert.equal(message.tool_calls, WEATHER_CALL);
}

// One project per exporter on the real run, so each test reads back only its own traces.
const KEYS = { proto: 'otel-clients-proto-0123456789', http: 'otel-clients-http-0123456789' } as const;
const work = tempDir('vigil-llm-otlp-clients-');
let fake: FakeOpenAI;
let vigil: VigilProcess;
let base = '';
test.before(async () => {
  fake = await startFakeOpenAI();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const file = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: otlp-clients-token }
llm:
  projects:
    - { name: proto, key: ${KEYS.proto} }
    - { name: http, key: ${KEYS.http} }
`);
  vigil = await startVigil(file, base, { cwd: work.path });
});
test.after(async () => {
  await fake.close();
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

/** Runs the client child for CLIENT × EXPORTER with `env` (where to export); fails the test if it fails. */
async function runChild(client: string, exporter: 'proto' | 'http', env: Record<string, string>): Promise<void> {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [CHILD], {
      env: { ...process.env, CLIENT: client, EXPORTER: exporter, OPENAI_BASE_URL: fake.url, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (c) => resolve({ code: c, output: out }));
  });
  assert.is(code, 0, `client ${client}/${exporter} failed:\n${output}`);
}

/** Runs the client child against a fresh receiver built from Vigil's modules; returns it once the child is done. */
async function run(client: string, exporter: 'proto' | 'http'): Promise<VigilOtlpReceiver> {
  const receiver = await startVigilOtlpReceiver();
  try {
    await runChild(client, exporter, { OTLP_URL: `${receiver.url}/v1/otlp/traces` });
  } finally {
    await receiver.close();
  }
  const wanted = exporter === 'proto' ? 'application/x-protobuf' : 'application/json';
  assert.ok(receiver.received.length > 0, 'the exporter sent something');
  for (const r of receiver.received) {
    assert.is(r.contentType, wanted);
    assert.is(r.headers['x-service-project-key'], 'test-key');
  }
  assert.is(receiver.mapped.length, receiver.received.length, 'every export decoded');
  assert.ok(receiver.mapped.every((m) => m.rejected === 0));
  return receiver;
}

const outputText = (item: TraceItem) => (item.output as { content: string }[])[0].content;
const byName = (items: TraceItem[], pred: (i: TraceItem) => boolean, what: string) => {
  const found = items.filter(pred);
  assert.is(found.length, 1, `one ${what} item, got ${found.length}: ${JSON.stringify(items.map((i) => [i.name, i.model]))}`);
  return found[0];
};

for (const exporter of ['proto', 'http'] as const) {
  test(`@traceloop/instrumentation-openai 0.27 over ${exporter}: chat with usage, stream marked usage_missing, tool call`, async () => {
    const items = (await run('traceloop', exporter)).items();
    assert.is(items.length, 3, 'chat, stream and the tool call (Traceloop makes no embeddings span)');
    const [chat, stream, tool] = items;
    assertToolCall(tool);
    assert.is(chat.model, FAKE.model);
    assert.is(chat.provider, 'openai');
    assert.equal(chat.tokens, { input: 21, output: 7, total: 28 });
    assert.equal(chat.input, QUESTION);
    assert.is(outputText(chat), FAKE.answer);
    assert.ok(chat.latency_ms! > 0);
    assert.equal(stream.input, QUESTION);
    assert.is(outputText(stream), STREAMED);
    assert.is(stream.tokens, undefined);
    assert.is(stream.metadata!.usage_missing, true, 'Traceloop records no usage on streamed spans: marked, not zero');
  });

  test(`@arizeai/openinference-instrumentation-openai 4.2.7 over ${exporter}: chat, stream, embeddings, tool call`, async () => {
    const items = (await run('openinference', exporter)).items();
    assert.is(items.length, 4);
    assertToolCall(items[3]);
    const chat = byName(items.slice(0, 3), (i) => i.name === 'OpenAI Chat Completions' && i.tokens !== undefined, 'chat');
    assert.is(chat.model, FAKE.model);
    assert.equal(chat.tokens, { input: 21, output: 7, cache_read: 5, total: 28 });
    assert.equal(chat.input, QUESTION);
    assert.is(outputText(chat), FAKE.answer);
    const stream = byName(items, (i) => i.name === 'OpenAI Chat Completions' && i.tokens === undefined, 'stream');
    assert.is(outputText(stream), STREAMED);
    assert.is(stream.metadata!.usage_missing, true);
    const embedding = byName(items, (i) => i.name === 'OpenAI Embeddings', 'embeddings');
    assert.is(embedding.model, 'text-embedding-3-small');
    assert.equal(embedding.input, ['Paris']);
    assert.is(embedding.metadata!.usage_missing, true, 'OpenInference records no embedding usage');
  });

  test(`@opentelemetry/instrumentation-openai 0.21 over ${exporter}, spans and message logs to a real vigil run: model, tokens and messages`, async () => {
    const key = KEYS[exporter];
    await runChild('otel-contrib', exporter, { OTLP_URL: `${base}/v1/otlp/traces`, OTLP_LOGS_URL: `${base}/v1/otlp/logs`, OTLP_KEY: key });
    const api = llmClient(base);
    const isChat = (t: Json) => t.name === 'chat gpt-4o-mini';
    // Spans and logs are exported and persisted independently: wait until the four calls are stored with their messages.
    const traces = await waitFor(async () => {
      const data = (await api.get(key, '/api/v1/traces?limit=200')).body.data as Json[];
      return data.length === 4 && data.filter(isChat).every((t) => t.input !== null && t.output !== null) ? data : null;
    }, { what: 'four calls stored, the chats with their messages', timeoutMs: 20_000 }) as Json[];
    traces.sort((a, b) => String(a.start_time).localeCompare(String(b.start_time)));
    const chats = traces.filter(isChat);
    assert.equal(chats.map((t) => t.tokens), [{ input: 21, output: 7 }, { input: 19, output: 3 }, { input: 21, output: 7 }], 'the stream\'s usage chunk is counted');
    assert.ok(chats.every((t) => t.model === FAKE.model && t.provider === 'openai'));
    const [chat, stream, tool] = chats;
    assert.equal(chat.input, QUESTION);
    assert.equal(chat.output, [{ role: 'assistant', content: FAKE.answer, finish_reason: 'stop' }]);
    assert.equal(stream.input, QUESTION);
    assert.is(stream.output[0].content, STREAMED);
    assertToolCall(tool as TraceItem);
    const embedding = byName(traces as TraceItem[], (i) => i.name?.startsWith('embeddings') === true, 'embeddings');
    assert.equal(embedding.tokens, { input: 4 });
    assert.is(embedding.model, 'text-embedding-3-small');
  });

  test(`Vercel ai 6 + @ai-sdk/openai 3 over ${exporter}: the provider calls, not their wrappers, with user and session`, async () => {
    const receiver = await run('vercel-ai', exporter);
    const items = receiver.items();
    assert.is(items.length, 3);
    assert.is(receiver.mapped.reduce((n, m) => n + m.skipped, 0), 3, 'ai.generateText, ai.streamText and ai.embed are context');
    const gen = byName(items, (i) => i.name === 'ai.generateText.doGenerate', 'doGenerate');
    assert.is(gen.model, FAKE.model);
    assert.is(gen.provider, 'openai');
    assert.equal(gen.tokens, { input: 21, output: 7, cache_read: 5, total: 28 });
    assert.equal(gen.input, QUESTION);
    assert.is(outputText(gen), FAKE.answer);
    assert.is(gen.user_id, 'user-7');
    assert.is(gen.session_id, 'sess-9');
    const stream = byName(items, (i) => i.name === 'ai.streamText.doStream', 'doStream');
    assert.equal(stream.tokens, { input: 19, output: 3, cache_read: 0, total: 22 });
    assert.is(outputText(stream), STREAMED);
    assert.ok(((stream.metadata!.otel as Record<string, number>).time_to_first_token_ms) >= 0);
    const embed = byName(items, (i) => i.name === 'ai.embed.doEmbed', 'doEmbed');
    assert.equal(embed.tokens, { input: 4 });
    assert.equal(embed.input, ['Paris']);
  });
}

test('the fake was asked for base64 embeddings by openai@6, and answered in kind', () => {
  const asked = fake.requests.filter((r) => r.path.endsWith('/embeddings')).map((r) => r.body.encoding_format);
  assert.ok(asked.includes('base64'));
});

test.run();
