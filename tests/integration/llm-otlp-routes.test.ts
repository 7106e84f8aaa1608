// The OTLP and Langfuse-compatible routes of a real `vigil run`: the mappings of plugins/llm/otlp and
// plugins/llm/langfuse behind the spine's auth, body limits and ingest pipeline, down to the stored traces.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gzipSync } from 'node:zlib';
import { Langfuse } from 'langfuse';
import { llmClient, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const KEY = 'otlp-routes-key-0123456789';
const OTHER = 'otlp-routes-other-0123456789';
const work = tempDir('vigil-llm-otlp-');
let vigil: VigilProcess;
let base = '';
let api: ReturnType<typeof llmClient>;

test.before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const file = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: otlp-token }
llm:
  projects:
    - { name: otel, key: ${KEY} }
    - { name: other, key: ${OTHER} }
`);
  vigil = await startVigil(file, base, { cwd: work.path });
  api = llmClient(base);
});

test.after(async () => {
  await vigil?.stop('SIGKILL');
  work.cleanup();
});

const attr = (key: string, value: string | number) =>
  ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });

/** An OTLP/JSON export: one chat span with GenAI attributes, one span that is not an LLM call, and one whose model no item may have. */
function exportBody(traceId: string): Json {
  const span = (spanId: string, name: string, attributes: Json[]) => ({
    traceId, spanId, name, kind: 3, startTimeUnixNano: '1700000000000000000', endTimeUnixNano: '1700000000250000000', attributes, status: {},
  });
  return {
    resourceSpans: [{
      resource: { attributes: [attr('service.name', 'checkout')] },
      scopeSpans: [{
        scope: { name: 'test' },
        spans: [
          span('1111111111111111', 'chat gpt-4o-mini', [
            attr('gen_ai.operation.name', 'chat'), attr('gen_ai.system', 'openai'), attr('gen_ai.request.model', 'gpt-4o-mini'),
            attr('gen_ai.usage.input_tokens', 21), attr('gen_ai.usage.output_tokens', 7),
            attr('gen_ai.prompt.0.role', 'user'), attr('gen_ai.prompt.0.content', 'Capital of France? Mail ada@example.com'),
            attr('gen_ai.completion.0.role', 'assistant'), attr('gen_ai.completion.0.content', 'Paris.'),
          ]),
          span('2222222222222222', 'handle request', [attr('http.method', 'POST')]),
          span('3333333333333333', 'chat weird', [attr('gen_ai.request.model', 'x'.repeat(300))]),
        ],
      }],
    }],
  };
}

test('OTLP/JSON: the LLM span is stored with its model, tokens and messages (redacted); context spans are skipped; a span the pipeline refuses is in partial_success', async () => {
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const res = await api.send('/v1/otlp/traces', KEY, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(exportBody(traceId)) });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(Number(res.body.partialSuccess.rejectedSpans), 1, "int64 is a string in OTLP/JSON");
  assert.match(res.body.partialSuccess.errorMessage, /chat weird/);
  const stored = await waitFor(async () => {
    const list = await api.get(KEY, '/api/v1/traces');
    return list.body.data.length ? list.body.data : null;
  }, { what: 'the span stored' });
  assert.is(stored.length, 1);
  const [trace] = stored;
  assert.equal([trace.model, trace.provider, trace.tokens.input, trace.tokens.output, trace.latency_ms], ['gpt-4o-mini', 'openai', 21, 7, 250]);
  assert.ok(trace.cost_usd > 0, 'priced from the table');
  assert.not.ok(JSON.stringify(trace.input).includes('ada@example.com'));
  assert.match(JSON.stringify(trace.input), /Capital of France/);
  assert.is(trace.metadata.otel.trace_id, traceId);
  // Sent again (an exporter's retry): the same ids, nothing stored twice.
  const again = await api.send('/v1/otlp/traces', KEY, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(JSON.stringify(exportBody(traceId))) });
  assert.is(again.status, 200);
  await new Promise((r) => setTimeout(r, 500));
  assert.is((await api.get(KEY, '/api/v1/traces')).body.data.length, 1);
});

test('OTLP: a body that is not protobuf is 400, another type 415, a wrong key 401; the Langfuse alias takes Basic auth', async () => {
  const post = (path: string, headers: Record<string, string>, body: string | Buffer) => api.send(path, undefined, { method: 'POST', headers, body });
  let r = await post('/v1/otlp/traces', { 'content-type': 'application/x-protobuf', 'x-service-project-key': KEY }, Buffer.from([0x0a, 0xff, 0xff, 0xff]));
  assert.is(r.status, 400);
  assert.is(r.body.error.code, 'VIGIL_ERR_LLM_OTLP_BODY');
  r = await post('/v1/otlp/traces', { 'content-type': 'text/plain', 'x-service-project-key': KEY }, 'x');
  assert.is(r.status, 415);
  r = await post('/v1/otlp/traces', { 'content-type': 'application/json', 'x-service-project-key': 'wrong-key-0123456789' }, '{}');
  assert.is(r.status, 401);
  const basic = (secret: string) => `Basic ${Buffer.from(`pk-lf-any:${secret}`).toString('base64')}`;
  r = await post('/api/public/otel/v1/traces', { 'content-type': 'application/x-protobuf', authorization: basic(KEY) }, Buffer.alloc(0));
  assert.is(r.status, 200, JSON.stringify(r.body));
  r = await post('/api/public/otel/v1/traces', { 'content-type': 'application/json', authorization: basic('nope-0123456789') }, '{}');
  assert.is(r.status, 401);
  const health = await api.send('/api/public/health', undefined);
  assert.equal([health.status, health.body.status], [200, 'OK']);
});

test('the langfuse v3 SDK, pointed at Vigil with the project key as its secret, stores its generation with the trace\'s fields', async () => {
  const langfuse = new Langfuse({ publicKey: 'pk-lf-anything', secretKey: KEY, baseUrl: base, flushAt: 100 });
  const trace = langfuse.trace({ name: 'support-chat', userId: 'u-7', sessionId: 's-7', tags: ['langfuse'] });
  const generation = trace.generation({ name: 'answer', model: 'gpt-4o', input: [{ role: 'user', content: 'hi bob@example.com' }] });
  generation.end({ output: { role: 'assistant', content: 'hello' }, usageDetails: { input: 10, output: 3 } });
  trace.score({ name: 'helpful', value: 1 });
  await langfuse.shutdownAsync();
  const stored = await api.waitForTraces(KEY, [generation.id]);
  assert.equal([stored[0].model, stored[0].user_id, stored[0].session_id, stored[0].tags], ['gpt-4o', 'u-7', 's-7', ['langfuse']]);
  assert.not.ok(JSON.stringify(stored[0].input).includes('bob@example.com'));
  const bad = await api.send('/api/public/ingestion', undefined, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`pk:${KEY}`).toString('base64')}` }, body: '{"nope": 1}',
  });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.code, 'VIGIL_ERR_LLM_LANGFUSE_BATCH');
});

test('isolation on the ingest routes: the same span or Langfuse id sent with another project\'s key is that project\'s own, and never merges into the first', async () => {
  const basic = (secret: string) => `Basic ${Buffer.from(`pk-lf-any:${secret}`).toString('base64')}`;
  const traceId = '1bf7651916cd43dd8448eb211c80319d';
  const otlp = (path: string, auth: Record<string, string>) =>
    api.send(path, undefined, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(exportBody(traceId)) });
  assert.is((await otlp('/v1/otlp/traces', { 'x-service-project-key': KEY })).status, 200);
  const mine = await waitFor(async () => {
    const r = await api.get(KEY, '/api/v1/traces');
    return r.body.data.find((t: Json) => t.metadata.otel.trace_id === traceId) ?? null;
  }, { what: 'the span stored for otel' });
  // The other project exports the same span (same item id) on both OTLP routes: it gets its own row, once.
  assert.is((await otlp('/v1/otlp/traces', { 'x-service-project-key': OTHER })).status, 200);
  assert.is((await otlp('/api/public/otel/v1/traces', { authorization: basic(OTHER) })).status, 200);
  const theirs = (await api.waitForTraces(OTHER, [mine.id]))[0];
  assert.is(theirs.id, mine.id);
  await new Promise((r) => setTimeout(r, 300));
  assert.is((await api.get(OTHER, '/api/v1/traces')).body.data.length, 1, 'other lists its one trace');
  assert.is((await api.get(KEY, '/api/v1/traces')).body.data.filter((t: Json) => t.id === mine.id).length, 1);

  // Langfuse: the other project's update of an id that only otel created completes nothing, in either project.
  const gen = 'c0ffee00-0000-4000-8000-00000000a11e';
  const ingestion = (secret: string, batch: Json[]) => api.send('/api/public/ingestion', undefined, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: basic(secret) }, body: JSON.stringify({ batch }),
  });
  const event = (id: string, type: string, body: Json) => ({ id, type, timestamp: '2026-01-01T00:00:00.000Z', body });
  let r = await ingestion(KEY, [event('e1', 'generation-create', { id: gen, traceId: 't-iso', startTime: '2026-01-01T00:00:00.000Z', input: 'mine' })]);
  assert.is(r.status, 207);
  r = await ingestion(OTHER, [event('e2', 'generation-update', { id: gen, endTime: '2026-01-01T00:00:01.000Z', model: 'their-model', output: 'theirs' })]);
  assert.equal([r.status, r.body.successes.length], [207, 1]);
  await new Promise((res) => setTimeout(res, 500));
  assert.is((await api.get(KEY, `/api/v1/traces/${gen}`)).status, 404, 'other\'s update completed otel\'s generation');
  assert.is((await api.get(OTHER, `/api/v1/traces/${gen}`)).status, 404, 'an update without its create was stored');
  r = await ingestion(KEY, [event('e3', 'generation-update', { id: gen, endTime: '2026-01-01T00:00:02.000Z', model: 'gpt-4o-mini', output: 'done' })]);
  assert.is(r.status, 207);
  const [done] = await api.waitForTraces(KEY, [gen]);
  assert.equal([done.model, done.input, done.output, done.latency_ms], ['gpt-4o-mini', 'mine', 'done', 2000]);
  assert.is((await api.get(OTHER, `/api/v1/traces/${gen}`)).status, 404);
});

test.run();
