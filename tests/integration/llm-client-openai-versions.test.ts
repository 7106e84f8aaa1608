// @vigil/llm-client wraps openai v4, v5 and v6 alike (openai@4.104.0 and 5.23.2 as aliased devDependencies,
// 6.49.0 as `openai`): for each, a plain and a wrapped client make the same calls to the fake OpenAI server, the
// application receives the same values, chunks and errors, and the traces carry model, tokens and content. The older
// lines are loaded untyped: their type declarations pull in other @types/node versions.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { createClient, type VigilClient } from '@vigil/llm-client';
import { startFakeOpenAI, FAKE, type FakeOpenAI } from '../support/fake-openai.js';
import { startTraceReceiver, type TraceReceiver } from '../support/trace-receiver.js';
import { fromRoot } from '../support/paths.js';

const require = createRequire(import.meta.url);
const lines: [string, string][] = [['v4', 'openai-v4'], ['v5', 'openai-v5'], ['v6', 'openai']];
/** The installed version (package.json is not in openai's exports map, so it is read from disk). */
const versionOf = (pkg: string): string => JSON.parse(readFileSync(fromRoot('node_modules', pkg, 'package.json'), 'utf8')).version;

const test = suite('llm-client across openai v4-v6');
let fake: FakeOpenAI;
let receiver: TraceReceiver;
let client: VigilClient;

async function collect(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const c of stream) out.push(c);
  return out;
}
async function caught(p: Promise<unknown>): Promise<any> {
  try { await p; } catch (err) { return err; }
  assert.unreachable('the call should have failed');
}

test.before(async () => {
  fake = await startFakeOpenAI({ delayMs: 5 });
  receiver = await startTraceReceiver();
});
test.after(async () => { await fake.close(); await receiver.close(); });
test.before.each(() => {
  receiver.stored().clear();
  client = createClient({ url: receiver.url, projectKey: 'test-key', onError: (e) => assert.unreachable(`${e.code}: ${e.message}`) });
});
test.after.each(async () => { await client.shutdown(); });

for (const [line, pkg] of lines) {
  test(`openai ${line} (${versionOf(pkg)}): same values, chunks and errors; traces with tokens and content`, async () => {
    const OpenAI = require(pkg).default ?? require(pkg);
    const make = (): any => new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-fake', maxRetries: 0 });
    const plain = make();
    const wrapped = client.wrapOpenAI(make());
    const messages = [{ role: 'user', content: 'What is the capital of France?' }];

    const chat = { model: 'gpt-4o-mini', messages };
    assert.equal(await wrapped.chat.completions.create(chat), await plain.chat.completions.create(chat));
    const streamed = { ...chat, stream: true, stream_options: { include_usage: true } };
    assert.equal(await collect(await wrapped.chat.completions.create(streamed)), await collect(await plain.chat.completions.create(streamed)));
    const failing = { model: 'error-429', messages };
    const [want, got] = [await caught(plain.chat.completions.create(failing)), await caught(wrapped.chat.completions.create(failing))];
    assert.is(got.constructor, want.constructor);
    assert.is(got.status, 429);
    assert.is(got.message, want.message);
    const emb = { model: 'text-embedding-3-small', input: 'hi' };
    assert.equal(await wrapped.embeddings.create(emb), await plain.embeddings.create(emb));
    assert.ok(await client.flush());

    const [c, s, e, em] = [...receiver.stored().values()];
    assert.equal([c.tokens, c.output.content, c.input], [{ input: 21, output: 7, cache_read: 5, total: 28 }, FAKE.answer, messages]);
    assert.equal([s.tokens, s.output.content], [{ input: 19, output: 3, cache_read: 0, total: 22 }, FAKE.streamed.join('')]);
    assert.equal([e.status, e.metadata.http_status, e.model], ['error', 429, 'error-429']);
    assert.equal([em.model, em.output, em.tokens], [FAKE.embeddingModel, { embeddings: 1, dimensions: 3 }, { input: 4, total: 4 }]);
    for (const t of [c, s, em]) assert.ok(t.latency_ms > 0 && t.status === 'ok' && t.model !== undefined);
  });
}

test.run();
