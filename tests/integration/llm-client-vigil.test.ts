// Issue 23: the Node client against a real `vigil run`. A project made with `vigil project create`; @vigil/llm-client
// wrapping the real openai@6.49.0 client, which calls a fake OpenAI server speaking the real protocol; the traces
// read back through the public API with the project key. Then the server is stopped mid-load (SIGTERM, then
// SIGKILL) and started again on the same port and data directory: the client retries, and every trace it recorded
// is stored exactly once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, request, type Server } from 'node:http';
import OpenAI from 'openai';
import { createClient, type VigilClient, type VigilClientError } from '@vigil/llm-client';
import { FAKE, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { freePort, waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

type Json = Record<string, any>;

const test = suite('llm-client against vigil run');
const work = tempDir('vigil-llm-client-');
let file = '';
let base = '';
let key = '';
let vigil: VigilProcess;
let fake: FakeOpenAI;
let errors: VigilClientError[] = [];
const clients: VigilClient[] = [];

/** What reached Vigil through the relay: one entry per POST /v1/traces, with its encoding and answer. */
const relayed: { encoding: string | undefined; bytes: number; status: number }[] = [];
let relay: Server;
let relayUrl = '';

const SUPPORT_V1 = 'You are the support assistant of {{shop}}.\nAnswer the customer in one sentence.';
const SUPPORT_V2 = 'You are the support assistant of {{shop}}.\nAnswer the customer in one short, friendly sentence.';
const messages = (question: string): OpenAI.Chat.ChatCompletionMessageParam[] => [
  { role: 'system', content: 'You are the support assistant of Acme. Answer the customer in one sentence.' },
  { role: 'user', content: question },
];

const api = async (path: string): Promise<Json> => {
  const res = await fetch(`${base}${path}`, { headers: { 'x-service-project-key': key } });
  assert.is(res.status, 200, `${path}: ${res.status}`);
  return res.json() as Promise<Json>;
};

/** Every stored trace with `tag`, through the public API (paged at 200). */
async function tracesTagged(tag: string): Promise<Json[]> {
  const out: Json[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await api(`/api/v1/traces?tag=${encodeURIComponent(tag)}&limit=200&offset=${offset}`);
    out.push(...page.data);
    if (page.data.length < 200) return out;
  }
}

function client(options: Parameters<typeof createClient>[0]): VigilClient {
  const c = createClient({ projectKey: key, flushIntervalMs: 50, onError: (e) => errors.push(e), ...options });
  clients.push(c);
  return c;
}

/** A pass-through to Vigil that notes how each batch was encoded: the client gzips bodies of 1 KiB and more. */
async function startRelay(): Promise<void> {
  relay = createServer((req, res) => {
    const target = new URL(base);
    const up = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      if (req.url === '/v1/traces') relayed.push({ encoding: req.headers['content-encoding'], bytes: Number(req.headers['content-length']), status: answer.statusCode! });
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  relayUrl = `http://127.0.0.1:${(relay.address() as { port: number }).port}`;
}

const start = (): Promise<VigilProcess> => startVigil(file, base, { cwd: work.path });

test.before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // A persist batch claimed by a process killed mid-way returns to the queue after `persist.timeout`.
  file = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: llm-client-vigil-token }
llm:
  persist: { backoff: 50ms, timeout: 2s }
`);
  const created = await runVigil(['project', 'create', 'shop-assistant', '-config', file], { cwd: work.path });
  assert.is(created.code, 0, created.stderr);
  key = created.stdout.trim().split('\n').at(-1)!;
  assert.match(key, /^vk_[\w-]{43}$/);
  vigil = await start();
  fake = await startFakeOpenAI({ delayMs: 5 });
  await startRelay();
});

test.after(async () => {
  await Promise.all(clients.map((c) => c.shutdown({ timeoutMs: 500 })));
  await vigil?.stop('SIGKILL');
  await fake?.close();
  relay?.closeAllConnections();
  relay?.close();
  work.cleanup();
});

test.before.each(() => { errors = []; });

test('wrapped openai calls are stored with model, provider, tokens, messages, template version, user and session; gzip taken', async () => {
  const vigilClient = client({ url: relayUrl });
  const openai = vigilClient.wrapOpenAI(new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-fake', maxRetries: 0 }));
  const scope = { user_id: 'user-42', session_id: 'session-7', tags: ['client-vigil', 'beta'] };
  await vigilClient.withTrace(scope, async () => {
    await vigilClient.withPrompt({ name: 'support-reply', raw: SUPPORT_V1, variables: { shop: 'Acme' } }, () =>
      openai.chat.completions.create({ model: 'gpt-4o-mini', messages: messages('Where is my order?') }));
    await vigilClient.withPrompt({ name: 'support-reply', raw: SUPPORT_V2, variables: { shop: 'Acme' } }, () =>
      openai.chat.completions.create({ model: 'gpt-4o-mini', messages: messages('Can I return shoes?') }));
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o-mini', messages: messages('Do you ship to Norway?'), stream: true, stream_options: { include_usage: true },
    });
    for await (const chunk of stream) void chunk;
    await openai.embeddings.create({ model: FAKE.embeddingModel, input: ['Where is my order?'] });
    await openai.chat.completions.create({ model: 'error-429', messages: messages('Hello?') }).catch(() => undefined);
  });
  assert.ok(await vigilClient.flush({ timeoutMs: 5000 }), 'flushed');
  assert.equal(vigilClient.stats(), { sent: 5, dropped: 0, rejected: 0, retries: 0, buffered: 0, bufferedBytes: 0 },
    'every item accepted: the server takes every field the client sends, provider included');

  const stored = (await waitFor(async () => { const t = await tracesTagged('client-vigil'); return t.length === 5 ? t : undefined; },
    { timeoutMs: 10_000, what: 'five stored traces' }))!;
  const byQuestion = (q: string) => stored.find((t) => t.name === 'openai.chat.completions' && JSON.stringify(t.input).includes(q))!;

  const v1 = byQuestion('Where is my order?');
  assert.is(v1.model, FAKE.model);
  assert.is(v1.provider, 'openai');
  assert.is(v1.name, 'openai.chat.completions');
  assert.is(v1.status, 'ok');
  assert.equal(v1.tokens, { input: 21, output: 7, cache_read: 5, total: 28 });
  assert.ok(v1.cost_usd > 0 && v1.cost_estimated === true, `cost ${v1.cost_usd}`);
  assert.equal(v1.input, messages('Where is my order?'));
  assert.equal(v1.output, { role: 'assistant', content: FAKE.answer, refusal: null });
  assert.equal(v1.prompt_template, { ...v1.prompt_template, name: 'support-reply', version: 1, variables: { shop: 'Acme' } });
  assert.equal([v1.user_id, v1.session_id, v1.tags], ['user-42', 'session-7', ['client-vigil', 'beta']]);
  assert.ok(v1.latency_ms >= 5, `latency ${v1.latency_ms}`);

  const v2 = byQuestion('Can I return shoes?');
  assert.is(v2.prompt_template.version, 2);
  const streamed = byQuestion('Do you ship to Norway?');
  assert.equal([streamed.tokens.input, streamed.tokens.output], [FAKE.streamUsage.prompt_tokens, FAKE.streamUsage.completion_tokens]);
  assert.is(streamed.output.content, FAKE.streamed.join(''));
  assert.is(stored.find((t) => t.model === FAKE.embeddingModel)?.name, 'openai.embeddings');
  const failed = stored.find((t) => t.status === 'error')!;
  assert.is(failed.model, 'error-429');
  assert.is(failed.metadata.http_status, 429);
  assert.match(failed.error, /429/);

  // The API's filters see the versions the server made from the raw texts.
  assert.is((await api('/api/v1/traces?template=support-reply&version=2')).data[0].id, v2.id);
  const templates = (await api('/api/v1/prompt-templates')).data as Json[];
  assert.equal(templates.find((t) => t.name === 'support-reply')?.versions.map((v: Json) => v.version).sort(), [1, 2]);

  assert.ok(relayed.length >= 1 && relayed.every((r) => r.status === 202), JSON.stringify(relayed));
  assert.ok(relayed.some((r) => r.encoding === 'gzip'), `a gzipped batch: ${JSON.stringify(relayed)}`);
  assert.equal(errors, []);
});

for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
  test(`${signal} mid-load, then a start on the same port and data: nothing lost, each trace stored once by its id`, async () => {
    const tag = `restart-${signal.toLowerCase()}`;
    const c = client({ url: base, batchSize: 50, flushIntervalMs: 20, retryBaseMs: 100, retryMaxMs: 500, maxRetries: 40, timeoutMs: 3000 });
    const ids: string[] = [];
    const TOTAL = 1500;
    let stopped: Promise<unknown> | undefined;
    let restarted: Promise<VigilProcess> | undefined;
    for (let i = 0; i < TOTAL; i++) {
      ids.push(c.trace({
        model: 'gpt-4o-mini', latency_ms: 300 + (i % 7) * 40, tokens: { input: 400 + i % 50, output: 80 },
        input: [{ role: 'user', content: `question ${i}` }], output: { role: 'assistant', content: `answer ${i}` },
        prompt_template: { name: 'restart-check', raw: 'Answer {{question}}' }, tags: [tag], metadata: { i },
      })!);
      if (i % 50 === 49) await new Promise((r) => setTimeout(r, 25));
      // Stopped while batches go out (one is in flight most of the time), started again while traces keep coming: the
      // traces after 1000 go out while the server is down (a graceful stop may still answer until it closes).
      if (i === 500) stopped = vigil.stop(signal);
      if (i === 1000) {
        await stopped;
        restarted = start();
      }
    }
    vigil = await restarted!;
    assert.ok(await c.flush({ timeoutMs: 30_000 }), `flushed: ${JSON.stringify(c.stats())}`);
    const stats = c.stats();
    assert.is(stats.sent, TOTAL, JSON.stringify(stats));
    assert.is(stats.dropped + stats.rejected, 0, JSON.stringify(stats));
    assert.ok(stats.retries > 0, 'the client had to retry: the server was down while it sent');

    // Paged reads while the persist stage still writes can skip or repeat rows: read until two reads agree.
    let previous = -1;
    const stored = (await waitFor(async () => {
      const t = await tracesTagged(tag);
      const same = t.length === previous && t.length >= TOTAL;
      previous = t.length;
      return same ? t : undefined;
    }, { timeoutMs: 30_000, intervalMs: 500, what: `${TOTAL} stored traces` }))!;
    const storedIds = stored.map((t) => t.id as string);
    assert.is(storedIds.length, TOTAL, 'rows stored');
    assert.is(new Set(storedIds).size, TOTAL, 'an id stored twice');
    assert.equal([...storedIds].sort(), [...ids].sort());
  });
}

test.run();
