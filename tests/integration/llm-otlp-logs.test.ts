// POST /v1/otlp/logs on a real `vigil run`: GenAI message events (OTLP logs) and their LLM span (OTLP traces) are
// exported independently, in either order; the stored trace ends with the messages, once, redacted, and only in
// the project whose key sent both.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gzipSync } from 'node:zlib';
import { ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { spanItemId } from '../../plugins/llm/otlp/item-id.js';
import { llmClient, type Json } from '../support/llm-client.js';
import { kv, logRecords, logsBody, SPAN, spanBody } from '../support/otlp-genai-json.js';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const KEY = 'otlp-logs-key-0123456789';
const OTHER = 'otlp-logs-other-0123456789';
const SMALL = 'otlp-logs-small-0123456789';
const work = tempDir('vigil-llm-otlp-logs-');
let vigil: VigilProcess;
let api: ReturnType<typeof llmClient>;

test.before(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const file = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: otlp-logs-token }
llm:
  projects:
    - { name: otel, key: ${KEY} }
    - { name: other, key: ${OTHER} }
    - { name: small, key: ${SMALL}, limits: { body_bytes: 2kb, items_per_batch: 1, items_per_month: 1 } }
`);
  vigil = await startVigil(file, base, { cwd: work.path });
  api = llmClient(base);
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

let traceCounter = 0;
const newTraceId = () => `4bf92f3577b34da6a3ce929d0e0e${String(4000 + ++traceCounter).padStart(4, '0')}`;
const post = (path: string, key: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
  api.send(path, key, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: body as string });
const QUESTION = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'What is the capital of France?' }];
const ANSWER = [{ role: 'assistant', content: 'Paris.', finish_reason: 'stop' }];

/** The stored trace of the span once `done` holds for it. */
const storedWhen = (key: string, id: string, done: (t: Json) => boolean, what: string) => waitFor(async () => {
  const r = await api.get(key, `/api/v1/traces/${id}`);
  return r.status === 200 && done(r.body) ? r.body : null;
}, { what, timeoutMs: 15_000 });

test('logs before the span: the trace is stored with model, tokens and the messages; other logs are skipped', async () => {
  const traceId = newTraceId();
  const logs = await post('/v1/otlp/logs', KEY, logsBody(traceId));
  assert.equal([logs.status, logs.body], [200, {}]);
  await new Promise((r) => setTimeout(r, 300));
  assert.is((await post('/v1/otlp/traces', KEY, spanBody(traceId))).status, 200);
  const t = await storedWhen(KEY, spanItemId(traceId, SPAN), (x) => x.output !== null, 'the trace with its messages');
  assert.equal([t.model, t.tokens.input, t.tokens.output, t.latency_ms], ['gpt-4o-mini', 21, 7, 300]);
  assert.equal([t.input, t.output], [QUESTION, ANSWER]);
});

test('span before logs (protobuf, gzip): the stored trace gets the messages; a retried logs export changes nothing', async () => {
  const traceId = newTraceId();
  const id = spanItemId(traceId, SPAN);
  assert.is((await post('/v1/otlp/traces', KEY, spanBody(traceId))).status, 200);
  await storedWhen(KEY, id, () => true, 'the span stored');
  const resource = resourceFromAttributes({ 'service.name': 'app' });
  const scope = { name: '@opentelemetry/instrumentation-openai', version: '0.21.0' };
  const record = (eventName: string, body: unknown) => ({
    hrTime: [1_700_000_000, 0], hrTimeObserved: [1_700_000_000, 0], severityNumber: 9, eventName, body, attributes: {}, droppedAttributesCount: 0,
    spanContext: { traceId, spanId: SPAN, traceFlags: 1 }, resource, instrumentationScope: scope,
  });
  const proto = ProtobufLogsSerializer.serializeRequest([
    record('gen_ai.system.message', { content: 'Be brief.' }), record('gen_ai.user.message', { content: 'What is the capital of France?' }),
    record('gen_ai.choice', { index: 0, finish_reason: 'stop', message: { content: 'Paris.' } }),
  ] as never)!;
  for (let i = 0; i < 2; i++) {
    const r = await post('/v1/otlp/logs', KEY, gzipSync(proto), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
    assert.is(r.status, 200);
    assert.is(r.headers.get('content-type'), 'application/x-protobuf');
  }
  const t = await storedWhen(KEY, id, (x) => x.output !== null, 'the messages added');
  assert.equal([t.input, t.output], [QUESTION, ANSWER]);
  await new Promise((r) => setTimeout(r, 500));
  const again = (await api.get(KEY, `/api/v1/traces/${id}`)).body;
  assert.equal([again.input, again.output], [QUESTION, ANSWER], 'each message once');
  const list = (await api.get(KEY, '/api/v1/traces?limit=200')).body.data as Json[];
  assert.is(list.filter((x) => x.id === id).length, 1);
});

test('redaction: an email in a user message is never stored', async () => {
  const traceId = newTraceId();
  assert.is((await post('/v1/otlp/logs', KEY, logsBody(traceId, 'Write to ada@example.com please'))).status, 200);
  assert.is((await post('/v1/otlp/traces', KEY, spanBody(traceId))).status, 200);
  const t = await storedWhen(KEY, spanItemId(traceId, SPAN), (x) => x.input !== null, 'the messages');
  assert.match(JSON.stringify(t.input), /Write to/);
  assert.not.ok(JSON.stringify(t).includes('ada@example.com'));
});

test('isolation: logs sent with another project\'s key never attach to this project\'s span, before or after it', async () => {
  const [before, after] = [newTraceId(), newTraceId()];
  assert.is((await post('/v1/otlp/logs', OTHER, logsBody(before))).status, 200);
  assert.is((await post('/v1/otlp/traces', KEY, spanBody(before))).status, 200);
  assert.is((await post('/v1/otlp/traces', KEY, spanBody(after))).status, 200);
  await storedWhen(KEY, spanItemId(after, SPAN), () => true, 'the span stored');
  const basic = `Basic ${Buffer.from(`pk-lf-any:${OTHER}`).toString('base64')}`;
  assert.is((await api.send('/api/public/otel/v1/logs', undefined, { method: 'POST', headers: { 'content-type': 'application/json', authorization: basic }, body: logsBody(after) })).status, 200);
  await new Promise((r) => setTimeout(r, 1000));
  for (const traceId of [before, after]) {
    const t = (await api.get(KEY, `/api/v1/traces/${spanItemId(traceId, SPAN)}`)).body;
    assert.equal([t.model, t.input, t.output], ['gpt-4o-mini', null, null]);
    assert.is((await api.get(OTHER, `/api/v1/traces/${spanItemId(traceId, SPAN)}`)).status, 404);
  }
});

test('the Langfuse alias takes Basic auth; partial_success counts GenAI events without span ids; bad bodies are 400, other types 415, wrong keys 401', async () => {
  const traceId = newTraceId();
  const basic = `Basic ${Buffer.from(`pk-lf-any:${KEY}`).toString('base64')}`;
  assert.is((await api.send('/api/public/otel/v1/logs', undefined, { method: 'POST', headers: { 'content-type': 'application/json', authorization: basic }, body: logsBody(traceId) })).status, 200);
  assert.is((await post('/v1/otlp/traces', KEY, spanBody(traceId))).status, 200);
  await storedWhen(KEY, spanItemId(traceId, SPAN), (x) => x.output !== null, 'the messages through the alias');
  const orphan = JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ eventName: 'gen_ai.user.message', body: kv({ content: 'no span' }) }, { body: { stringValue: 'plain' } }] }] }] });
  const r = await post('/v1/otlp/logs', KEY, orphan);
  assert.is(r.status, 200);
  assert.equal([r.body.partialSuccess.rejectedLogRecords, r.body.partialSuccess.errorMessage.includes('gen_ai.user.message')], ['1', true]);
  const bad = await post('/v1/otlp/logs', KEY, Buffer.from([0x0a, 0xff, 0xff, 0xff]), { 'content-type': 'application/x-protobuf' });
  assert.equal([bad.status, bad.body.error.code], [400, 'VIGIL_ERR_LLM_OTLP_LOGS_BODY']);
  assert.is((await post('/v1/otlp/logs', KEY, 'x', { 'content-type': 'text/plain' })).status, 415);
  assert.is((await post('/v1/otlp/logs', 'wrong-key-0123456789', '{}')).status, 401);
});

test('plan limits: body size is 413 (as sent and inflated); more spans than items_per_batch is taken; log records are not items, and a used month is 429', async () => {
  const big = logsBody(newTraceId(), 'x'.repeat(3000));
  const sent = await post('/v1/otlp/logs', SMALL, big);
  assert.equal([sent.status, sent.body.error.code], [413, 'VIGIL_ERR_LLM_BODY_TOO_LARGE']);
  assert.ok(gzipSync(big).length < 2048);
  const inflated = await post('/v1/otlp/logs', SMALL, gzipSync(big), { 'content-encoding': 'gzip' });
  assert.equal([inflated.status, inflated.body.error.code], [413, 'VIGIL_ERR_LLM_BODY_TOO_LARGE']);
  assert.match(inflated.body.error.message, /once decompressed/);

  // Two spans' messages in one export (items_per_batch is 1), sent three times: taken, and not counted as items.
  const [a, b] = [newTraceId(), newTraceId()];
  const two = JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [...logRecords(a).slice(1, 3), ...logRecords(b).slice(1, 3)] }] }] });
  for (let i = 0; i < 3; i++) assert.is((await post('/v1/otlp/logs', SMALL, two)).status, 200);
  assert.is((await post('/v1/otlp/traces', SMALL, spanBody(a))).status, 200, 'the month\'s one item is still there');
  const t = await storedWhen(SMALL, spanItemId(a, SPAN), (x) => x.output !== null, 'the messages of the first span');
  assert.equal(t.output, ANSWER);
  const over = await post('/v1/otlp/traces', SMALL, spanBody(b));
  assert.equal([over.status, over.body.error.code], [429, 'VIGIL_ERR_LLM_MONTHLY_LIMIT']);
  const logs = await post('/v1/otlp/logs', SMALL, logsBody(newTraceId()));
  assert.equal([logs.status, logs.body.error.code], [429, 'VIGIL_ERR_LLM_MONTHLY_LIMIT'], 'their spans are refused too: nothing would meet them');
  assert.ok(Number(logs.headers.get('retry-after')) > 0);
  const none = JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'plain' } }] }] }] });
  assert.is((await post('/v1/otlp/logs', SMALL, none)).status, 200, 'an export without GenAI events changes nothing, so it is taken');
});

test.run();
