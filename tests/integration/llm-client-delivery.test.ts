// How @vigil/llm-client ships traces over real HTTP to a receiver speaking POST /v1/traces: batching, compression,
// retries with Retry-After and backoff, what it never retries, splitting on 413, per-item rejections, a server that
// drops connections, hangs or restarts mid-batch, bounded memory, and a dead or misconfigured server that must never
// throw into the application. Delays are short (tens of milliseconds) so the suite stays quick.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { createClient, ClientErrors, type ClientOptions, type VigilClient, type VigilClientError } from '@vigil/llm-client';
import { startTraceReceiver, type ReceiverOptions, type TraceReceiver } from '../support/trace-receiver.js';
import { freePort, waitFor } from '../support/net.js';

const test = suite('llm-client delivery');
const receivers: TraceReceiver[] = [];
const clients: VigilClient[] = [];
let errors: VigilClientError[];

async function receiver(options: ReceiverOptions = {}): Promise<TraceReceiver> {
  const r = await startTraceReceiver(options);
  receivers.push(r);
  return r;
}

function client(options: ClientOptions): VigilClient {
  const c = createClient({ projectKey: 'test-key', onError: (e) => errors.push(e), ...options });
  clients.push(c);
  return c;
}

const deadUrl = async (): Promise<string> => `http://127.0.0.1:${await freePort()}`;
const traceN = (c: VigilClient, n: number, extra: Record<string, unknown> = {}): string[] =>
  Array.from({ length: n }, (_, i) => c.trace({ model: 'gpt-4o-mini', input: `question ${i}`, output: `answer ${i}`, ...extra })!);
const codes = (): string[] => errors.map((e) => e.code);

test.before.each(() => { errors = []; });
test.after.each(async () => {
  await Promise.all(clients.splice(0).map((c) => c.shutdown({ timeoutMs: 200 })));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

test('full batches go out at once, with the project key; ids are client UUIDs in order', async () => {
  const r = await receiver();
  const c = client({ url: r.url, batchSize: 100, flushIntervalMs: 60_000 });
  const ids = traceN(c, 250);
  // The receiver records a batch before it answers; the client releases a batch's items from its buffer only when
  // the answer comes back: wait for both answers too, or `buffered` may still count the second batch in flight.
  await waitFor(() => r.batches.length === 2 && c.stats().buffered === 50, { what: 'two full batches sent and answered' });
  await new Promise((res) => setTimeout(res, 100));
  assert.equal(r.batches.map((b) => b.items.length), [100, 100], 'the rest waits for the interval');
  assert.is(c.stats().buffered, 50);
  assert.is(r.batches[0].headers['x-service-project-key'], 'test-key');
  assert.match(String(r.batches[0].headers['user-agent']), /^vigil-llm-client-node\//);
  assert.ok(await c.flush());
  assert.equal(r.batches.flatMap((b) => b.items.map((i) => i.id)), ids);
  for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(c.stats(), { sent: 250, dropped: 0, rejected: 0, retries: 0, buffered: 0, bufferedBytes: 0 });
});

test('less than a batch goes out after flushIntervalMs, without a flush', async () => {
  const r = await receiver();
  const c = client({ url: r.url, batchSize: 100, flushIntervalMs: 200 });
  const t0 = Date.now();
  traceN(c, 5);
  await waitFor(() => r.batches.length === 1, { what: 'the interval\'s batch' });
  assert.ok(Date.now() - t0 >= 190, `sent after ${Date.now() - t0} ms`);
  assert.is(r.batches[0].items.length, 5);
});

test('bodies of 1 KiB and more are gzip-encoded, unless gzip is off', async () => {
  const r = await receiver();
  const zipped = client({ url: r.url });
  traceN(zipped, 20);
  await zipped.flush();
  const off = client({ url: r.url, gzip: false });
  traceN(off, 20);
  await off.flush();
  assert.equal(r.batches.map((b) => b.gzip), [true, false]);
  assert.ok(r.batches[0].bytes < r.batches[1].bytes / 2, `${r.batches[0].bytes} < ${r.batches[1].bytes} / 2`);
  assert.equal(r.batches[0].items, r.batches[0].items.map((i) => ({ ...i })), 'the gzipped body decodes to the items');
});

test('429 with Retry-After: the same batch is sent again after the server\'s delay, not before', async () => {
  const r = await receiver();
  r.script.push({ status: 429, retryAfter: '0.4' });
  const c = client({ url: r.url, retryBaseMs: 1 });
  const ids = traceN(c, 5);
  assert.ok(await c.flush());
  assert.equal(r.batches.map((b) => b.answer), [429, 202]);
  const waited = r.batches[1].at - r.batches[0].at;
  assert.ok(waited >= 380, `waited ${waited} ms for a Retry-After of 400 ms (the backoff alone would be ~1 ms)`);
  assert.equal(r.batches[1].items.map((i) => i.id), ids, 'the retry carries the same ids');
  assert.equal(r.batches[1].items, r.batches[0].items);
  assert.equal(c.stats(), { sent: 5, dropped: 0, rejected: 0, retries: 1, buffered: 0, bufferedBytes: 0 });
  assert.equal(errors, []);
});

test('503 and 500 are retried with exponential backoff and jitter', async () => {
  const r = await receiver();
  r.script.push({ status: 503 }, { status: 500 }, { status: 502 });
  const c = client({ url: r.url, retryBaseMs: 100, retryMaxMs: 10_000 });
  traceN(c, 3);
  assert.ok(await c.flush());
  assert.equal(r.batches.map((b) => b.answer), [503, 500, 502, 202]);
  const gaps = r.batches.slice(1).map((b, i) => b.at - r.batches[i].at);
  // Attempt n waits between half and all of 100·2ⁿ ms.
  assert.ok(gaps[0] >= 45 && gaps[1] >= 95 && gaps[2] >= 195, `gaps ${gaps}`);
  assert.is(c.stats().retries, 3);
  assert.is(r.stored().size, 3);
});

test('a 400 is never retried: the batch is dropped, counted and reported once; later batches still go', async () => {
  const r = await receiver();
  r.script.push({ status: 400 });
  const c = client({ url: r.url, retryBaseMs: 1 });
  traceN(c, 4);
  assert.ok(await c.flush());
  await new Promise((res) => setTimeout(res, 100));
  assert.is(r.batches.length, 1, 'one attempt only');
  assert.is(c.stats().dropped, 4);
  assert.equal(codes(), [ClientErrors.BATCH_REFUSED]);
  assert.is(errors[0].status, 400);
  assert.is(errors[0].items, 4);
  assert.match(errors[0].message, /scripted 400/);
  traceN(c, 2);
  assert.ok(await c.flush());
  assert.is(r.stored().size, 2);
});

test('a wrong project key (401) is dropped and reported as AUTH, never retried', async () => {
  const r = await receiver();
  const c = client({ url: r.url, projectKey: 'not-the-key', retryBaseMs: 1 });
  traceN(c, 3);
  assert.ok(await c.flush());
  assert.is(r.batches.length, 0, 'the receiver refused before reading items');
  assert.equal(codes(), [ClientErrors.AUTH]);
  assert.is(errors[0].status, 401);
  assert.equal(c.stats(), { sent: 0, dropped: 3, rejected: 0, retries: 0, buffered: 0, bufferedBytes: 0 });
});

test('413 splits a batch into halves until it fits; a single item still too big is dropped and reported', async () => {
  const r = await receiver({ maxItems: 30 });
  const c = client({ url: r.url, batchSize: 100 });
  traceN(c, 100);
  assert.ok(await c.flush());
  assert.is(r.stored().size, 100);
  assert.equal(r.batches.map((b) => b.items.length), [100, 50, 25, 25, 50, 25, 25]);
  assert.equal(errors, []);

  const small = await receiver({ maxBodyBytes: 4000 });
  const c2 = client({ url: small.url, gzip: false });
  c2.trace({ model: 'm', input: 'ok' });
  c2.trace({ model: 'm', input: randomBytes(3000).toString('hex') });
  c2.trace({ model: 'm', input: 'ok too' });
  assert.ok(await c2.flush());
  assert.equal([...small.stored().values()].map((i) => i.input), ['ok', 'ok too']);
  assert.equal(codes(), [ClientErrors.TOO_LARGE]);
  assert.is(c2.stats().dropped, 1);
});

test('items rejected in a 202 are counted and reported, never retried', async () => {
  const r = await receiver({ rejectIf: (item) => (item.tags?.includes('bad') ? 'bad tag' : undefined) });
  const c = client({ url: r.url });
  traceN(c, 3);
  traceN(c, 2, { tags: ['bad'] });
  assert.ok(await c.flush());
  await new Promise((res) => setTimeout(res, 50));
  assert.is(r.batches.length, 1);
  assert.equal(c.stats(), { sent: 3, dropped: 0, rejected: 2, retries: 0, buffered: 0, bufferedBytes: 0 });
  assert.equal(codes(), [ClientErrors.ITEMS_REJECTED]);
  assert.match(errors[0].message, /#3 \/traces\/3: invalid bad tag/);
});

test('a dropped connection and a request that never answers are retried; nothing is lost', async () => {
  const r = await receiver();
  r.script.push({ action: 'drop' }, { action: 'hang' });
  const c = client({ url: r.url, retryBaseMs: 10, timeoutMs: 300 });
  const ids = traceN(c, 10);
  assert.ok(await c.flush());
  assert.equal(r.batches.map((b) => b.answer), ['drop', 'hang', 202]);
  assert.equal([...r.stored().keys()], ids);
  assert.is(c.stats().retries, 2);
});

test('a server restart mid-batch loses nothing: the batch it stored but never answered comes again with the same ids', async () => {
  const r = await receiver();
  r.script.push({ action: 'accept' }, { action: 'crash', downMs: 300 });
  const c = client({ url: r.url, batchSize: 50, retryBaseMs: 50, maxRetries: 10 });
  const ids = traceN(c, 150);
  assert.ok(await c.flush({ timeoutMs: 10_000 }));
  assert.is(r.batches[1].answer, 'crash');
  const again = r.batches.filter((b) => b.items[0].id === r.batches[1].items[0].id);
  assert.is(again.length, 2, 'the crashed batch was sent again');
  assert.equal(again[1].items.map((i) => i.id), r.batches[1].items.map((i) => i.id));
  assert.equal([...r.stored().keys()].sort(), [...ids].sort(), 'every item stored once');
  assert.is(c.stats().sent, 150);
  assert.ok(c.stats().retries >= 1);
  assert.is(c.stats().dropped, 0);
});

test('retries are bounded: after maxRetries the batch is dropped and reported', async () => {
  const r = await receiver();
  r.script.push(...Array.from({ length: 10 }, () => ({ status: 503 })));
  const c = client({ url: r.url, maxRetries: 2, retryBaseMs: 5 });
  traceN(c, 7);
  assert.ok(await c.flush());
  assert.is(r.batches.length, 3);
  assert.equal(codes(), [ClientErrors.RETRIES_EXHAUSTED]);
  assert.equal(c.stats(), { sent: 0, dropped: 7, rejected: 0, retries: 2, buffered: 0, bufferedBytes: 0 });
});

test('memory is bounded in items: beyond maxBufferItems traces are dropped and counted, reported once', async () => {
  const c = client({ url: await deadUrl(), maxBufferItems: 10, batchSize: 1000, flushIntervalMs: 60_000 });
  traceN(c, 100);
  const s = c.stats();
  assert.is(s.buffered, 10);
  assert.is(s.dropped, 90);
  assert.equal(codes(), [ClientErrors.BUFFER_FULL]);
});

test('memory is bounded in bytes, the batch in flight included', async () => {
  const c = client({ url: await deadUrl(), maxBufferBytes: 20_000, batchSize: 5, retryBaseMs: 1000, flushIntervalMs: 60_000 });
  traceN(c, 100, { metadata: { pad: 'x'.repeat(900) } });
  const s = c.stats();
  assert.ok(s.bufferedBytes <= 20_000 && s.bufferedBytes > 15_000, `${s.bufferedBytes} bytes held`);
  assert.is(s.buffered + s.dropped, 100);
  assert.ok(s.dropped >= 75, `${s.dropped} dropped`);
});

test('a dead server: nothing throws, flush gives up at its deadline, shutdown drops and counts what is left', async () => {
  const c = client({ url: await deadUrl(), retryBaseMs: 20, maxRetries: 1000 });
  traceN(c, 12);
  const t0 = Date.now();
  assert.is(await c.flush({ timeoutMs: 300 }), false);
  const took = Date.now() - t0;
  assert.ok(took >= 290 && took < 2000, `flush took ${took} ms`);
  assert.is(c.stats().buffered, 12, 'an unfinished flush keeps the traces for later');
  await c.shutdown({ timeoutMs: 100 });
  assert.equal(c.stats(), { sent: 0, dropped: 12, rejected: 0, retries: c.stats().retries, buffered: 0, bufferedBytes: 0 });
  assert.ok(c.stats().retries > 3);
  assert.ok(codes().includes(ClientErrors.NOT_DELIVERED), codes().join());
  assert.is(typeof c.trace({ model: 'm' }), 'string', 'a trace after shutdown returns normally');
  assert.is(c.stats().dropped, 13);
  assert.ok(codes().includes(ClientErrors.CLOSED));
});

test('shutdown flushes first, and is safe to call twice', async () => {
  const r = await receiver();
  const c = client({ url: r.url, flushIntervalMs: 60_000 });
  traceN(c, 7);
  const a = c.shutdown();
  const b = c.shutdown();
  assert.is(a, b);
  await a;
  assert.is(r.stored().size, 7);
  assert.equal(errors, []);
});

test('a broken URL or a missing key: createClient does not throw; traces are dropped and counted; CONFIG is reported once', async () => {
  const saved = process.env.VIGIL_PROJECT_KEY;
  delete process.env.VIGIL_PROJECT_KEY;
  try {
    for (const options of [{ url: 'not a url' }, { url: 'ftp://127.0.0.1/' }, { url: 'http://127.0.0.1:1', projectKey: '' }]) {
      errors = [];
      const c = createClient({ ...options, onError: (e) => errors.push(e) } as ClientOptions);
      clients.push(c);
      traceN(c, 3);
      assert.is(await c.flush(), true);
      await new Promise((res) => process.nextTick(res));
      assert.equal(codes(), [ClientErrors.CONFIG], JSON.stringify(options));
      assert.equal(c.stats(), { sent: 0, dropped: 3, rejected: 0, retries: 0, buffered: 0, bufferedBytes: 0 });
    }
  } finally {
    if (saved !== undefined) process.env.VIGIL_PROJECT_KEY = saved;
  }
});

test('url and key from VIGIL_URL and VIGIL_PROJECT_KEY; a base URL with a path prefix keeps it', async () => {
  const r = await receiver();
  const saved = { url: process.env.VIGIL_URL, key: process.env.VIGIL_PROJECT_KEY };
  process.env.VIGIL_URL = r.url;
  process.env.VIGIL_PROJECT_KEY = 'test-key';
  try {
    const c = createClient({ onError: (e) => errors.push(e) });
    clients.push(c);
    traceN(c, 1);
    assert.ok(await c.flush());
    assert.is(r.stored().size, 1);
  } finally {
    for (const [k, v] of [['VIGIL_URL', saved.url], ['VIGIL_PROJECT_KEY', saved.key]] as const) {
      if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
  }
});

test('hostile input never throws: circular, BigInt, throwing getters, huge strings; truncated with markers', async () => {
  const r = await receiver();
  const c = client({ url: r.url, maxItemBytes: 64 * 1024 });
  const circular: any = { role: 'user', content: 'hi' };
  circular.self = circular;
  const hostile = { get boom() { throw new Error('getter'); }, n: 10n };
  const id = c.trace({ model: 'm', input: [circular], output: 'y'.repeat(2_000_000), metadata: hostile });
  const noModel = c.trace({ input: 'no model' } as any);
  assert.ok(await c.flush());
  const item = r.stored().get(id!);
  assert.is(item.input[0].self, '[circular]');
  assert.equal(item.metadata, { boom: '[unreadable]', n: '10' });
  assert.match(item.output, /^y+…\[truncated \d+ chars\]$/);
  assert.ok(JSON.stringify(item).length <= 64 * 1024);
  assert.is(noModel, undefined);
  assert.ok(codes().includes(ClientErrors.INVALID_ITEM));
  assert.is(c.stats().dropped, 1);
});

test('an onError that throws does not break the client', async () => {
  const r = await receiver();
  r.script.push({ status: 400 });
  const c = createClient({ url: r.url, projectKey: 'test-key', onError: () => { throw new Error('the app\'s handler fails'); } });
  clients.push(c);
  traceN(c, 2);
  assert.ok(await c.flush());
  traceN(c, 2);
  assert.ok(await c.flush());
  assert.equal(c.stats(), { sent: 2, dropped: 2, rejected: 0, retries: 0, buffered: 0, bufferedBytes: 0 });
});

test.run();
