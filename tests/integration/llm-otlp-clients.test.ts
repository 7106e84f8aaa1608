// Real clients → a real `vigil run`. The real `openai` client calls a local fake of OpenAI's API under each real
// instrumentation (and, separately, the Vercel AI SDK with telemetry on); the real OTLP exporters, proto and
// http/json, send the spans (and, for @opentelemetry/instrumentation-openai, the message logs) to Vigil's
// /v1/otlp routes with a project key, through a proxy that records what was sent and answered. The traces are
// read back through GET /api/v1/traces: they must carry the model, tokens and messages the fake answered with.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { llmClient, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { FAKE, startFakeOpenAI, type FakeOpenAI } from './support/fake-openai.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';

const CHILD = fileURLToPath(new URL('./support/otel-openai-client.js', import.meta.url));
const QUESTION = [{ role: 'system', content: 'You answer in one sentence.' }, { role: 'user', content: 'What is the capital of France?' }];
const STREAMED = FAKE.streamed.join('');
const WEATHER_CALL = [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }];
const CLIENTS = ['traceloop', 'openinference', 'otel-contrib', 'vercel-ai'] as const;
const EXPORTERS = ['proto', 'http'] as const;
type Client = typeof CLIENTS[number];
type Exporter = typeof EXPORTERS[number];

// One project per client × exporter on the one run, so each test reads back only its own traces.
const keyOf = (client: Client, exporter: Exporter) => `otel-clients-${client}-${exporter}-0123456789`;
const work = tempDir('vigil-llm-otlp-clients-');
let fake: FakeOpenAI;
let vigil: VigilProcess;
let proxy: RecordingProxy;
let api: ReturnType<typeof llmClient>;
test.before(async () => {
  fake = await startFakeOpenAI();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const projects = CLIENTS.flatMap((c) => EXPORTERS.map((e) => `    - { name: ${c}-${e}, key: ${keyOf(c, e)} }`));
  const file = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: otlp-clients-token }
llm:
  projects:
${projects.join('\n')}
`);
  vigil = await startVigil(file, base, { cwd: work.path });
  proxy = await startRecordingProxy(base);
  api = llmClient(base);
});
test.after(async () => {
  await fake.close();
  await proxy?.close();
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

/** Runs the client child for CLIENT × EXPORTER, exporting to Vigil through the proxy; fails the test if it fails. */
async function runChild(client: Client, exporter: Exporter): Promise<void> {
  const logs = client === 'otel-contrib' ? { OTLP_LOGS_URL: `${proxy.url}/v1/otlp/logs` } : {};
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [CHILD], {
      env: {
        ...process.env, CLIENT: client, EXPORTER: exporter, OPENAI_BASE_URL: fake.url,
        OTLP_URL: `${proxy.url}/v1/otlp/traces`, OTLP_KEY: keyOf(client, exporter), ...logs,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (c) => resolve({ code: c, output: out }));
  });
  assert.is(code, 0, `client ${client}/${exporter} failed:\n${output}`);
}

/**
 * Runs the client child, checks every export it made was in the exporter's encoding, with the project's key, and
 * fully taken by Vigil (200 and an empty ExportTrace/LogsServiceResponse: no partial_success, no rejected span);
 * then waits until the project holds `count` traces (persisting follows the answer) for which `ready` holds, and
 * returns them in call order. Exactly `count`: a span mapped to a trace that should not be one fails the test.
 */
async function exportAndRead(client: Client, exporter: Exporter, count: number, ready: (traces: Json[]) => boolean = () => true): Promise<Json[]> {
  const key = keyOf(client, exporter);
  const from = proxy.exchanges.length;
  await runChild(client, exporter);
  const sent = proxy.exchanges.slice(from);
  assert.ok(sent.some((x) => x.path === '/v1/otlp/traces'), 'the exporter sent spans');
  const wanted = exporter === 'proto' ? 'application/x-protobuf' : 'application/json';
  for (const x of sent) {
    assert.is(x.contentType, wanted);
    assert.is(x.headers['x-service-project-key'], key);
    assert.is(x.status, 200, `${x.path}: ${x.response.toString('utf8')}`);
    if (exporter === 'proto') assert.is(x.response.length, 0, `${x.path}: a full success is an empty message`);
    else assert.equal(JSON.parse(x.response.toString('utf8')), {}, `${x.path}: a full success is {}`);
  }
  const traces = await waitFor(async () => {
    const data = (await api.get(key, '/api/v1/traces?limit=200')).body.data as Json[];
    return data.length >= count && ready(data) ? data : null;
  }, { what: `${count} traces of ${client}/${exporter} stored`, timeoutMs: 20_000 }) as Json[];
  assert.is(traces.length, count, `stored: ${JSON.stringify(traces.map((t) => [t.name, t.model]))}`);
  // The list and the one-trace route answer the same stored trace.
  const byId = await api.get(key, `/api/v1/traces/${traces[0].id}`);
  assert.is(byId.status, 200);
  assert.equal(byId.body, traces[0]);
  return traces.sort((a, b) => String(a.start_time).localeCompare(String(b.start_time)));
}

/** The last call of the client child offers a tool; the fake answers with a call to it. */
function assertToolCall(trace: Json): void {
  assert.equal(trace.input, [{ role: 'user', content: 'Weather in Paris?' }]);
  const [message] = trace.output as { role: string; content: unknown; tool_calls: unknown }[];
  assert.is(message.role, 'assistant');
  assert.is(message.content, null);
  assert.equal(message.tool_calls, WEATHER_CALL);
}

const outputText = (trace: Json) => (trace.output as { content: string }[])[0].content;
const one = (traces: Json[], pred: (t: Json) => boolean, what: string) => {
  const found = traces.filter(pred);
  assert.is(found.length, 1, `one ${what} trace, got ${found.length}: ${JSON.stringify(traces.map((t) => [t.name, t.model]))}`);
  return found[0];
};

for (const exporter of EXPORTERS) {
  test(`@traceloop/instrumentation-openai 0.27 over ${exporter}: chat with usage, stream marked usage_missing, tool call`, async () => {
    const traces = await exportAndRead('traceloop', exporter, 3);
    const [chat, stream, tool] = traces; // chat, stream and the tool call: Traceloop makes no embeddings span
    assertToolCall(tool);
    assert.is(chat.model, FAKE.model);
    assert.is(chat.provider, 'openai');
    assert.equal(chat.tokens, { input: 21, output: 7, total: 28 });
    assert.equal(chat.input, QUESTION);
    assert.is(outputText(chat), FAKE.answer);
    assert.ok(chat.latency_ms > 0);
    assert.equal(stream.input, QUESTION);
    assert.is(outputText(stream), STREAMED);
    assert.is(stream.tokens, null);
    assert.is(stream.metadata.usage_missing, true, 'Traceloop records no usage on streamed spans: marked, not zero');
  });

  test(`@arizeai/openinference-instrumentation-openai 4.2.7 over ${exporter}: chat, stream, embeddings, tool call`, async () => {
    const traces = await exportAndRead('openinference', exporter, 4);
    assertToolCall(traces[3]);
    const chat = one(traces.slice(0, 3), (t) => t.name === 'OpenAI Chat Completions' && t.tokens !== null, 'chat');
    assert.is(chat.model, FAKE.model);
    assert.equal(chat.tokens, { input: 21, output: 7, cache_read: 5, total: 28 });
    assert.equal(chat.input, QUESTION);
    assert.is(outputText(chat), FAKE.answer);
    const stream = one(traces, (t) => t.name === 'OpenAI Chat Completions' && t.tokens === null, 'stream');
    assert.is(outputText(stream), STREAMED);
    assert.is(stream.metadata.usage_missing, true);
    const embedding = one(traces, (t) => t.name === 'OpenAI Embeddings', 'embeddings');
    assert.is(embedding.model, 'text-embedding-3-small');
    assert.equal(embedding.input, ['Paris']);
    assert.is(embedding.metadata.usage_missing, true, 'OpenInference records no embedding usage');
  });

  test(`@opentelemetry/instrumentation-openai 0.21 over ${exporter}, spans and message logs: model, tokens and messages`, async () => {
    const isChat = (t: Json) => t.name === 'chat gpt-4o-mini';
    // Spans and logs are exported and persisted independently: wait until the chats are stored with their messages.
    const traces = await exportAndRead('otel-contrib', exporter, 4, (data) => data.filter(isChat).every((t) => t.input !== null && t.output !== null));
    assert.ok(proxy.exchanges.some((x) => x.path === '/v1/otlp/logs' && x.headers['x-service-project-key'] === keyOf('otel-contrib', exporter)), 'the message logs went to Vigil');
    const chats = traces.filter(isChat);
    assert.equal(chats.map((t) => t.tokens), [{ input: 21, output: 7 }, { input: 19, output: 3 }, { input: 21, output: 7 }], 'the stream\'s usage chunk is counted');
    assert.ok(chats.every((t) => t.model === FAKE.model && t.provider === 'openai'));
    const [chat, stream, tool] = chats;
    assert.equal(chat.input, QUESTION);
    assert.equal(chat.output, [{ role: 'assistant', content: FAKE.answer, finish_reason: 'stop' }]);
    assert.equal(stream.input, QUESTION);
    assert.is(outputText(stream), STREAMED);
    assertToolCall(tool);
    const embedding = one(traces, (t) => String(t.name).startsWith('embeddings'), 'embeddings');
    assert.equal(embedding.tokens, { input: 4 });
    assert.is(embedding.model, 'text-embedding-3-small');
  });

  test(`Vercel ai 6 + @ai-sdk/openai 3 over ${exporter}: the provider calls, not their wrappers, with user and session`, async () => {
    const traces = await exportAndRead('vercel-ai', exporter, 3);
    // ai.generateText, ai.streamText and ai.embed are context, not calls: only the provider calls are stored.
    assert.equal(traces.map((t) => t.name), ['ai.generateText.doGenerate', 'ai.streamText.doStream', 'ai.embed.doEmbed']);
    const [gen, stream, embed] = traces;
    assert.is(gen.model, FAKE.model);
    assert.is(gen.provider, 'openai');
    assert.equal(gen.tokens, { input: 21, output: 7, cache_read: 5, total: 28 });
    assert.equal(gen.input, QUESTION);
    assert.is(outputText(gen), FAKE.answer);
    assert.is(gen.user_id, 'user-7');
    assert.is(gen.session_id, 'sess-9');
    assert.equal(stream.tokens, { input: 19, output: 3, cache_read: 0, total: 22 });
    assert.is(outputText(stream), STREAMED);
    assert.ok(stream.metadata.otel.time_to_first_token_ms >= 0);
    assert.equal(embed.tokens, { input: 4 });
    assert.equal(embed.input, ['Paris']);
  });
}

test('the fake was asked for base64 embeddings by openai@6, and answered in kind', () => {
  const asked = fake.requests.filter((r) => r.path.endsWith('/embeddings')).map((r) => r.body.encoding_format);
  assert.ok(asked.includes('base64'));
});

test.run();
