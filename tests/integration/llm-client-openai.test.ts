// @vigil/llm-client wrapping the real openai@6.49.0 client, pointed at a fake OpenAI server that speaks the real
// protocol, and shipping to a real HTTP receiver of POST /v1/traces. Each call is made twice, by a plain openai client
// and by a wrapped one, so that what the application receives (values, streams, errors) can be compared: the wrapper
// must change nothing of it, and the traces must carry model, tokens, messages, latency and status.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import OpenAI from 'openai';
import { createClient, type VigilClient, type VigilClientError } from '@vigil/llm-client';
import { startFakeOpenAI, FAKE, type FakeOpenAI } from '../support/fake-openai.js';
import { startTraceReceiver, type TraceReceiver } from '../support/trace-receiver.js';
import { freePort } from '../support/net.js';

const test = suite('llm-client wraps openai');
let fake: FakeOpenAI;
let receiver: TraceReceiver;
let client: VigilClient;
let errors: VigilClientError[];
let plain: OpenAI;
let wrapped: OpenAI;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const messages = (): OpenAI.Chat.ChatCompletionMessageParam[] => [
  { role: 'system', content: 'You answer in one sentence.' },
  { role: 'user', content: 'What is the capital of France?' },
];
const openai = (baseURL = fake.baseURL): OpenAI => new OpenAI({ baseURL, apiKey: 'sk-fake', maxRetries: 0 });

/** Everything the receiver stored, after the client flushed, in arrival order. */
async function traces(): Promise<any[]> {
  assert.ok(await client.flush({ timeoutMs: 5000 }), 'flush settled');
  return [...receiver.stored().values()];
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

async function caught(p: Promise<unknown>): Promise<any> {
  try { await p; } catch (err) { return err; }
  assert.unreachable('the call should have failed');
}

test.before(async () => {
  fake = await startFakeOpenAI();
  receiver = await startTraceReceiver();
});
test.after(async () => { await fake.close(); await receiver.close(); });
test.before.each(() => {
  receiver.stored().clear();
  receiver.batches.length = 0;
  fake.requests.length = 0;
  errors = [];
  client = createClient({ url: receiver.url, projectKey: 'test-key', flushIntervalMs: 50, onError: (e) => errors.push(e) });
  plain = openai();
  wrapped = client.wrapOpenAI(openai());
});
test.after.each(async () => {
  await client.shutdown();
  assert.equal(errors.map((e) => `${e.code}: ${e.message}`), [], 'the client reported no error');
});

test('a chat completion: the app receives what it receives without the wrapper; the trace has model, tokens, messages, latency', async () => {
  const body = { model: 'gpt-4o-mini', messages: messages(), temperature: 0.2, max_tokens: 50 };
  const expected = await plain.chat.completions.create(body);
  const got = await wrapped.chat.completions.create(body);
  assert.equal(got, expected);
  assert.is(got._request_id, expected._request_id);
  assert.equal(fake.requests[1], fake.requests[0], 'openai sent the same request');

  const [t] = await traces();
  assert.match(t.id, UUID);
  assert.is(t.model, FAKE.model);
  assert.is(t.provider, 'openai');
  assert.is(t.name, 'openai.chat.completions');
  assert.is(t.status, 'ok');
  assert.equal(t.tokens, { input: 21, output: 7, cache_read: 5, total: 28 });
  assert.equal(t.input, messages());
  assert.equal(t.output, { role: 'assistant', content: FAKE.answer, refusal: null });
  assert.ok(t.latency_ms >= 10, `latency ${t.latency_ms} ms covers the fake's 15 ms delay`);
  assert.ok(Math.abs(Date.parse(t.start_time) - Date.now()) < 10_000, t.start_time);
  assert.equal(t.metadata, { operation: 'chat.completions', parameters: { temperature: 0.2, max_tokens: 50 }, request_id: 'req_fake_200', finish_reason: 'stop' });
});

test('the input is the messages as they were at the call, not after the app appends the answer', async () => {
  const list = messages();
  const reply = await wrapped.chat.completions.create({ model: 'gpt-4o-mini', messages: list });
  list.push(reply.choices[0].message);
  const [t] = await traces();
  assert.is(t.input.length, 2);
});

test('withResponse() and asResponse() still work on a wrapped call, and asResponse gets an unread body', async () => {
  const body = { model: 'gpt-4o-mini', messages: messages() };
  const { data, response, request_id } = await wrapped.chat.completions.create(body).withResponse();
  assert.equal(data, await plain.chat.completions.create(body));
  assert.is(response.status, 200);
  assert.is(request_id, 'req_fake_200');
  const raw = await wrapped.chat.completions.create(body).asResponse();
  assert.is(((await raw.json()) as any).choices[0].message.content, FAKE.answer);
  const [t] = await traces();
  assert.is(t.output.content, FAKE.answer, 'the withResponse() call was recorded');
});

test('a streamed chat completion: the same chunks reach the app; content is accumulated and usage taken from the last chunk', async () => {
  const body = { model: 'gpt-4o-mini', messages: messages(), stream: true as const, stream_options: { include_usage: true } };
  const expected = await collect(await plain.chat.completions.create(body));
  const got = await collect(await wrapped.chat.completions.create(body));
  assert.equal(got, expected);
  assert.is(got.length, FAKE.streamed.length + 3);
  assert.equal(fake.requests[1], fake.requests[0]);

  const [t] = await traces();
  assert.is(t.model, FAKE.model);
  assert.equal(t.output, { role: 'assistant', content: FAKE.streamed.join('') });
  assert.equal(t.tokens, { input: 19, output: 3, cache_read: 0, total: 22 });
  assert.ok(t.latency_ms >= 10, String(t.latency_ms));
  assert.ok(t.metadata.time_to_first_chunk_ms > 0 && t.metadata.time_to_first_chunk_ms <= t.latency_ms);
  assert.is(t.metadata.stream, true);
  assert.is(t.metadata.usage_missing, undefined);
});

test('a stream without include_usage is left so: no usage chunk is added, and the trace says usage_missing', async () => {
  const body = { model: 'gpt-4o-mini', messages: messages(), stream: true as const };
  const expected = await collect(await plain.chat.completions.create(body));
  const got = await collect(await wrapped.chat.completions.create(body));
  assert.equal(got, expected);
  assert.is(fake.requests[1].body.stream_options, undefined, 'the wrapper asked for nothing more');
  const [t] = await traces();
  assert.is(t.tokens, undefined);
  assert.is(t.metadata.usage_missing, true);
  assert.is(t.output.content, FAKE.streamed.join(''));
});

test('a stream the app leaves early is recorded with what was read', async () => {
  const stream = await wrapped.chat.completions.create({ model: 'gpt-4o-mini', messages: messages(), stream: true });
  let n = 0;
  for await (const _chunk of stream) if (++n === 2) break;
  const [t] = await traces();
  assert.is(t.status, 'ok');
  assert.is(t.output.content, FAKE.streamed[0]);
  assert.is(t.metadata.stream_left_early, true);
});

test('tool calls in a stream are put together as the non-streamed message has them', async () => {
  const tools = [{ type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
  const body = { model: 'gpt-4o-mini', messages: messages(), tools };
  const whole = await plain.chat.completions.create(body);
  await collect(await wrapped.chat.completions.create({ ...body, stream: true }));
  const [t] = await traces();
  assert.equal(t.output.tool_calls, whole.choices[0].message.tool_calls);
  assert.is(t.output.content, null);
  assert.is(t.metadata.finish_reason, 'tool_calls');
  assert.equal(t.metadata.parameters.tools, tools);
});

test('a stream that breaks: the app gets the same error as without the wrapper; the trace has status error and the partial output', async () => {
  const body = { model: 'stream-break', messages: messages(), stream: true as const };
  const expected = await caught(collect(await plain.chat.completions.create(body)));
  const got = await caught(collect(await wrapped.chat.completions.create(body)));
  assert.is(got.constructor, expected.constructor);
  assert.is(got.message, expected.message);
  const [t] = await traces();
  assert.is(t.status, 'error');
  assert.ok(t.error.includes(got.message), t.error);
  assert.is(t.output.content, FAKE.streamed.slice(0, 2).join(''));
});

test('an API error is rethrown unchanged and recorded with status error and the HTTP status', async () => {
  const body = { model: 'error-400', messages: messages() };
  const expected = await caught(plain.chat.completions.create(body));
  const got = await caught(wrapped.chat.completions.create(body));
  assert.instance(got, OpenAI.BadRequestError);
  assert.is(got.constructor, expected.constructor);
  assert.is(got.status, expected.status);
  assert.is(got.message, expected.message);
  assert.equal(got.error, expected.error);
  const [t] = await traces();
  assert.is(t.status, 'error');
  assert.is(t.model, 'error-400', 'the requested model, since no answer named one');
  assert.is(t.error, `BadRequestError: ${got.message}`);
  assert.is(t.metadata.http_status, 400);
  assert.is(t.metadata.error_code, 'model_not_found');
  assert.ok(t.latency_ms >= 10);
  assert.equal(t.input, messages());
});

test('openai unreachable: the connection error reaches the app as it is, and is recorded', async () => {
  const dead = `http://127.0.0.1:${await freePort()}/v1`;
  const body = { model: 'gpt-4o-mini', messages: messages() };
  const expected = await caught(openai(dead).chat.completions.create(body));
  const got = await caught(client.wrapOpenAI(openai(dead)).chat.completions.create(body));
  assert.instance(got, OpenAI.APIConnectionError);
  assert.is(got.constructor, expected.constructor);
  assert.is(got.message, expected.message);
  const [t] = await traces();
  assert.is(t.status, 'error');
  assert.match(t.error, /^APIConnectionError: /);
});

test('responses.create, plain and streamed: same values and events; text, tokens with cached input', async () => {
  const body = { model: 'gpt-4o-mini', input: 'What is the capital of France?', instructions: 'Be brief.' };
  const expected = await plain.responses.create(body);
  const got = await wrapped.responses.create(body);
  assert.equal(got, expected);
  assert.is(got.output_text, FAKE.answer);
  const expectedEvents = await collect(await plain.responses.create({ ...body, stream: true }));
  const gotEvents = await collect(await wrapped.responses.create({ ...body, stream: true }));
  assert.equal(gotEvents, expectedEvents);

  const [one, streamed] = await traces();
  assert.is(one.name, 'openai.responses');
  assert.equal(one.input, { instructions: 'Be brief.', input: body.input });
  assert.is(one.output, FAKE.answer);
  assert.equal(one.tokens, { input: 12, output: 6, cache_read: 4, total: 18 });
  assert.is(streamed.output, FAKE.streamed.join(''));
  assert.equal(streamed.tokens, one.tokens);
  assert.is(streamed.metadata.stream, true);
});

test('embeddings: the default base64 request is decoded exactly as without the wrapper; floats too; vectors are not stored', async () => {
  const body = { model: 'text-embedding-3-small', input: ['first', 'second'] };
  const expected = await plain.embeddings.create(body);
  const got = await wrapped.embeddings.create(body);
  assert.equal(got, expected);
  assert.equal(Array.from(got.data[0].embedding), FAKE.vector);
  assert.is(fake.requests[1].body.encoding_format, 'base64');
  assert.equal(await wrapped.embeddings.create({ ...body, encoding_format: 'float' }), await plain.embeddings.create({ ...body, encoding_format: 'float' }));
  const [t] = await traces();
  assert.is(t.model, FAKE.embeddingModel);
  assert.equal(t.input, ['first', 'second']);
  assert.equal(t.output, { embeddings: 2, dimensions: 3 });
  assert.equal(t.tokens, { input: 4, total: 4 });
});

test('withPrompt and withTrace attach template, user, session and tags without touching the request', async () => {
  const raw = 'You are a {{tone}} assistant.\nAnswer: {{question}}';
  const body = { model: 'gpt-4o-mini', messages: messages() };
  await plain.chat.completions.create(body);
  const got = await client.withTrace({ user_id: 'u-1', session_id: 's-1', tags: ['beta'], metadata: { feature: 'faq' } }, () =>
    client.withTrace({ tags: ['faq'] }, () =>
      client.withPrompt({ name: 'faq-answer', raw, variables: { tone: 'dry' } }, async () => {
        await new Promise((r) => setTimeout(r, 5)); // the scope survives awaits
        return wrapped.chat.completions.create(body);
      })));
  assert.is(got.choices[0].message.content, FAKE.answer);
  assert.equal(fake.requests[1], fake.requests[0]);
  const [t] = await traces();
  assert.equal(t.prompt_template, { name: 'faq-answer', raw, variables: { tone: 'dry' } });
  assert.is(t.user_id, 'u-1');
  assert.is(t.session_id, 's-1');
  assert.equal(t.tags, ['beta', 'faq']);
  assert.is(t.metadata.feature, 'faq');
  assert.is(t.metadata.operation, 'chat.completions');
});

test('helpers built on create are recorded: chat.completions.stream() and parse()', async () => {
  const final = await wrapped.chat.completions.stream({ model: 'gpt-4o-mini', messages: messages() }).finalChatCompletion();
  assert.is(final.choices[0].message.content, FAKE.streamed.join(''));
  await wrapped.chat.completions.parse({ model: 'gpt-4o-mini', messages: messages() });
  const [streamed, parsed] = await traces();
  assert.is(streamed.output.content, FAKE.streamed.join(''));
  assert.is(parsed.output.content, FAKE.answer);
});

test('captureContent: false records no input and no output, and still model, tokens and timings', async () => {
  const quiet = createClient({ url: receiver.url, projectKey: 'test-key', captureContent: false, onError: (e) => errors.push(e) });
  await quiet.wrapOpenAI(openai()).chat.completions.create({ model: 'gpt-4o-mini', messages: messages() });
  await quiet.shutdown();
  const [t] = [...receiver.stored().values()];
  assert.is(t.input, undefined);
  assert.is(t.output, undefined);
  assert.is(t.tokens.total, 28);
});

test('wrapping a client twice records each call once', async () => {
  const twice = client.wrapOpenAI(client.wrapOpenAI(openai()));
  await twice.chat.completions.create({ model: 'gpt-4o-mini', messages: messages() });
  assert.is((await traces()).length, 1);
});

test.run();
