// The `openai` tier of the embedder against a local server speaking OpenAI's embeddings protocol (the one kind of
// fake the conventions allow: a paid remote API): base64 and float encodings, usage, indices, batching, retries on
// 429 and 5xx honouring Retry-After, what is never retried, hangs, aborts and malformed answers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEmbedder, cosine, EmbeddingError, type Embedder } from '../../plugins/evaluators/embeddings/index.js';
import { OpenAIEmbedder, apportion, retryAfterMs, type OpenAIEmbedderOptions } from '../../plugins/evaluators/embeddings/openai-embedder.js';
import { LexicalEmbedder } from '../../plugins/evaluators/embeddings/lexical-embedder.js';
import { FAKE, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';

const test = suite('embeddings: openai tier');

// A distinct, checkable vector per input: [length, first char code, 1].
const vectorOf = (text: string): number[] => [text.length, text.charCodeAt(0) || 0, 1];
let fake: FakeOpenAI;
const quick: OpenAIEmbedderOptions = { backoffMs: 20, timeoutMs: 2_000 };
const embedder = (options: OpenAIEmbedderOptions = quick, model: string = FAKE.embeddingModel): OpenAIEmbedder =>
  new OpenAIEmbedder({ base_url: fake.baseURL, model, api_key: 'sk-test' }, options);

async function rejection(p: Promise<unknown>): Promise<EmbeddingError> {
  try {
    await p;
  } catch (err) {
    assert.instance(err, EmbeddingError);
    return err as EmbeddingError;
  }
  throw new assert.Assertion({ message: 'expected a rejection', operator: 'rejects', actual: 'resolved', expects: 'rejection' });
}

test.before(async () => { fake = await startFakeOpenAI({ delayMs: 1, embed: vectorOf }); });
test.after(async () => { await fake.close(); });
test.before.each(() => { fake.requests.length = 0; fake.script.length = 0; });

test('base64 answers (what it asks for) decode to each input\'s vector, in order, with method, model and apportioned tokens', async () => {
  const e: Embedder = await createEmbedder({ provider: { base_url: fake.baseURL, model: 'text-embedding-3-small', api_key: 'sk-test' }, dataDir: '/nonexistent' });
  assert.is(e.method, 'openai');
  assert.is(e.model, 'text-embedding-3-small');
  const texts = ['Paris is the capital of France', 'hi', ''];
  const out = await e.embed(texts);
  assert.is(out.length, 3);
  assert.equal([...out[0].vector], vectorOf(texts[0]));
  assert.equal([...out[1].vector], vectorOf('hi'));
  // An empty text goes as one space (OpenAI refuses ''), keeping its position.
  assert.equal([...out[2].vector], vectorOf(' '));
  for (const r of out) { assert.is(r.method, 'openai'); assert.is(r.model, 'text-embedding-3-small'); }
  assert.is(out.reduce((s, r) => s + r.tokens, 0), FAKE.embeddingUsage.prompt_tokens);
  assert.ok(out[0].tokens >= out[1].tokens, 'the longer text carries more of the usage');
  const [request] = fake.requests;
  assert.is(request.path, '/v1/embeddings');
  assert.equal(request.body, { model: 'text-embedding-3-small', input: ['Paris is the capital of France', 'hi', ' '], encoding_format: 'base64' });
  assert.is(request.headers.authorization, 'Bearer sk-test');
});

test('float answers (servers that ignore encoding_format) are read too, and indices place them, not their order', async () => {
  fake.script.push({
    status: 200,
    body: {
      object: 'list', model: 'm', usage: { prompt_tokens: 10, total_tokens: 10 },
      data: [{ object: 'embedding', index: 1, embedding: [0, 1] }, { object: 'embedding', index: 0, embedding: [1, 0] }],
    },
  });
  const out = await embedder().embed(['aaaa', 'b']);
  assert.equal([...out[0].vector], [1, 0]);
  assert.equal([...out[1].vector], [0, 1]);
  assert.equal(out.map((r) => r.tokens), [8, 2]);
});

test('no api_key: no authorization header; no usage: zero tokens', async () => {
  fake.script.push({ status: 200, body: { data: [{ index: 0, embedding: [1, 2] }] } });
  const e = new OpenAIEmbedder({ base_url: `${fake.baseURL}/`, model: 'local' }, quick);
  const [r] = await e.embed(['x']);
  assert.is(r.tokens, 0);
  assert.is(fake.requests[0].headers.authorization, undefined);
  assert.is(fake.requests[0].path, '/v1/embeddings', 'a trailing slash on base_url is not doubled');
});

test('many texts go in batches, and come back in the order given', async () => {
  const texts = Array.from({ length: 300 }, (_, i) => 'x'.repeat(i + 1));
  const out = await embedder({ ...quick, batchSize: 128 }).embed(texts);
  assert.is(fake.requests.length, 3);
  assert.equal(fake.requests.map((r) => r.body.input.length), [128, 128, 44]);
  assert.ok(out.every((r, i) => r.vector[0] === i + 1));
});

test('429 with Retry-After: waits that long, then succeeds', async () => {
  fake.script.push({ status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached', type: 'requests' } } });
  const started = Date.now();
  const [r] = await embedder().embed(['after the wait']);
  const waited = Date.now() - started;
  assert.ok(waited >= 950, `waited ${waited} ms for Retry-After: 1`);
  assert.ok(waited < 3_000, `waited ${waited} ms`);
  assert.equal([...r.vector], vectorOf('after the wait'));
  assert.is(fake.requests.length, 2);
});

test('429 with retry-after-ms (OpenAI\'s own header) is honoured to the millisecond', async () => {
  fake.script.push({ status: 429, headers: { 'retry-after-ms': '300', 'retry-after': '20' }, body: { error: { message: 'slow down' } } });
  const started = Date.now();
  await embedder().embed(['x']);
  const waited = Date.now() - started;
  assert.ok(waited >= 290 && waited < 5_000, `waited ${waited} ms`);
});

test('500 and 503 are retried with backoff; the answer after them is used', async () => {
  fake.script.push({ status: 500, body: { error: { message: 'boom' } } }, { status: 503, body: { error: { message: 'overloaded' } } });
  const [r] = await embedder().embed(['third time']);
  assert.equal([...r.vector], vectorOf('third time'));
  assert.is(fake.requests.length, 3);
});

test('5xx on every attempt: a retryable `unavailable` failure naming the status and the provider\'s message', async () => {
  for (let i = 0; i < 3; i++) fake.script.push({ status: 502, body: { error: { message: 'bad gateway' } } });
  const err = await rejection(embedder({ ...quick, attempts: 3 }).embed(['x']));
  assert.is(err.reason, 'unavailable');
  assert.is(err.retryable, true);
  assert.is(err.status, 502);
  assert.match(err.message, /502: bad gateway/);
  assert.is(fake.requests.length, 3);
});

test('a Retry-After longer than the embedder waits fails at once, retryable, carrying the delay for the job queue', async () => {
  fake.script.push({ status: 429, headers: { 'retry-after': '3600' }, body: { error: { message: 'quota' } } });
  const started = Date.now();
  const err = await rejection(embedder().embed(['x']));
  assert.ok(Date.now() - started < 1_000);
  assert.is(err.reason, 'rate_limited');
  assert.is(err.retryable, true);
  assert.is(err.retryAfterMs, 3_600_000);
  assert.is(fake.requests.length, 1);
});

test('400 and 401 are permanent: one request, `rejected`, the provider\'s message kept', async () => {
  const bad = await rejection(embedder(quick, 'error-400').embed(['x']));
  assert.is(bad.reason, 'rejected');
  assert.is(bad.retryable, false);
  assert.is(bad.status, 400);
  assert.match(bad.message, /The fake refuses model error-400/);
  assert.is(fake.requests.length, 1);
  const unauthorised = await rejection(embedder(quick, 'error-401').embed(['x']));
  assert.is(unauthorised.status, 401);
});

test('a hanging provider: each attempt times out, then a retryable `timeout`', async () => {
  fake.script.push({ hang: true }, { hang: true });
  const started = Date.now();
  const err = await rejection(embedder({ ...quick, timeoutMs: 200, attempts: 2 }).embed(['x']));
  assert.is(err.reason, 'timeout');
  assert.is(err.retryable, true);
  assert.is(fake.requests.length, 2);
  assert.ok(Date.now() - started < 2_000);
});

test('the caller\'s signal aborts a hanging request, and a Retry-After wait, at once', async () => {
  fake.script.push({ hang: true });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  let started = Date.now();
  const err = await rejection(embedder({ ...quick, timeoutMs: 10_000 }).embed(['x'], controller.signal));
  assert.is(err.reason, 'aborted');
  assert.ok(Date.now() - started < 1_000);

  fake.script.push({ status: 429, headers: { 'retry-after': '30' }, body: {} });
  const second = new AbortController();
  setTimeout(() => second.abort(), 150);
  started = Date.now();
  const waiting = await rejection(embedder(quick).embed(['x'], second.signal));
  assert.is(waiting.reason, 'aborted');
  assert.ok(Date.now() - started < 1_000);

  const already = AbortSignal.abort();
  assert.is((await rejection(embedder().embed(['x'], already))).reason, 'aborted');
});

test('malformed answers are `bad_response`, never vectors', async () => {
  const cases: [unknown, RegExp][] = [
    [{ data: [] }, /expected 1 embeddings, got 0/],
    [{ nothing: true }, /no data list/],
    [{ data: [{ index: 0, embedding: 'AAA' }] }, /not float32s/],
    [{ data: [{ index: 0, embedding: ['1'] }] }, /neither a float list nor base64/],
    [{ data: [{ index: 5, embedding: [1] }] }, /index 5 is out of place/],
    [{ data: [{ index: 0, embedding: [] }] }, /empty/],
  ];
  for (const [body, message] of cases) {
    fake.script.push({ status: 200, body });
    const err = await rejection(embedder().embed(['x']));
    assert.is(err.reason, 'bad_response');
    assert.match(err.message, message);
  }
  fake.script.push({ status: 200, body: { data: [{ index: 0, embedding: [1, 2] }, { index: 1, embedding: [1] }] } });
  assert.match((await rejection(embedder().embed(['x', 'y']))).message, /different dimensions/);
});

test('an unreachable provider is retried, then `unavailable`; a bad base_url is refused when the embedder is made', async () => {
  const e = new OpenAIEmbedder({ base_url: 'http://127.0.0.1:9/v1', model: 'm' }, { ...quick, attempts: 2 });
  const err = await rejection(e.embed(['x']));
  assert.is(err.reason, 'unavailable');
  assert.is(err.retryable, true);
  await rejection(createEmbedder({ provider: { base_url: 'not a url', model: 'm' }, dataDir: '/x' }));
  await rejection(createEmbedder({ provider: { base_url: 'file:///etc', model: 'm' }, dataDir: '/x' }));
});

test('provider vectors cannot be compared with another method\'s', async () => {
  const [remote] = await embedder().embed(['Paris']);
  const [local] = await new LexicalEmbedder().embed(['Paris']);
  const err = (() => { try { cosine(remote.vector, local.vector); } catch (e) { return e as EmbeddingError; } return undefined; })();
  assert.ok(err);
  assert.is(err.reason, 'mixed_methods');
});

test('retryAfterMs reads seconds, HTTP dates and OpenAI\'s milliseconds; apportion adds up exactly', () => {
  const h = (o: Record<string, string>): Headers => new Headers(o);
  assert.is(retryAfterMs(h({ 'retry-after': '2' })), 2000);
  assert.is(retryAfterMs(h({ 'retry-after-ms': '150' })), 150);
  assert.is(retryAfterMs(h({ 'retry-after': new Date(10_000).toUTCString() }), 4_000), 6_000);
  assert.is(retryAfterMs(h({ 'retry-after': '-5' })), undefined);
  assert.is(retryAfterMs(h({})), undefined);
  assert.equal(apportion(10, ['aaa', 'aaa', 'aaa']).reduce((a, b) => a + b, 0), 10);
  assert.equal(apportion(0, ['a', 'b']), [0, 0]);
  assert.equal(apportion(7, ['a']), [7]);
});

test.run();
