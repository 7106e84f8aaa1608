// The conformance suite's cases (docs/llm-wire-contract.md, "Conformance"): for each, the items a driver records, the
// options it is given, how the scripted server answers each request, and what must have reached the server and been
// counted. tests/integration/llm-client-conformance.test.ts runs every case against every client's driver; the doc's
// list of cases is generated from this one (tests/unit/docs/llm-wire-contract.test.ts).
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import type { DriverOptions } from './run-driver.js';
import type { Answer, ScriptedIngest, ScriptedRequest } from './scripted-ingest.js';

export const KEY = 'vk_conformance_key';
/** Timers may fire a few ms early against the server's clock; a wait this much shorter still counts as the wait. */
const SLACK_MS = 5;

/** The options every case starts from; a case overrides some. */
export const DEFAULTS: DriverOptions = { max_batch_items: 100, max_buffer_items: 1000, flush_interval_ms: 60_000, max_retries: 3, retry_base_ms: 20, timeout_ms: 5000 };

function items(n: number, name: string, extra: (i: number) => Record<string, unknown> = () => ({})): Record<string, any>[] {
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    model: 'gpt-4o-mini-2024-07-18',
    name: `conformance.${name}`,
    provider: 'openai',
    status: 'ok',
    start_time: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, i)).toISOString(),
    latency_ms: 12.5 + i,
    tokens: { input: 10 + i, output: 2, total: 12 + i },
    input: [{ role: 'user', content: `question ${i} ü ✓` }],
    output: { role: 'assistant', content: `answer ${i}` },
    tags: ['conformance'],
    metadata: { index: i, ...extra(i) },
  }));
}

export interface Case {
  name: string;
  items: Record<string, any>[];
  options?: Partial<DriverOptions>;
  script: (req: Omit<ScriptedRequest, 'answer'>, n: number) => Answer;
  check: (run: { server: ScriptedIngest; sent: Record<string, any>[]; counts: { sent: number; dropped: number } }) => void;
}

const accept: Answer = { kind: 'accept' };
const ids = (list: { id?: string }[]): (string | undefined)[] => list.map((i) => i.id);
const sizes = (server: ScriptedIngest): number[] => server.requests.map((r) => r.items.length);
const gaps = (server: ScriptedIngest): number[] => server.requests.slice(1).map((r, i) => r.at - server.requests[i].at);

/** Every item was accepted exactly once, unchanged, in the order recorded. */
function allAcceptedOnce(server: ScriptedIngest, sent: Record<string, any>[]): void {
  assert.equal([...server.accepted.keys()], ids(sent), 'every item accepted, in the order recorded');
  for (const item of sent) {
    const got = server.accepted.get(item.id)!;
    assert.is(got.times, 1, `item ${item.id} accepted once`);
    assert.equal(got.item, item, 'a valid item goes on the wire as recorded');
  }
}

export const CASES: Case[] = [
  {
    name: 'items leave in batches of at most max_batch_items, in order, each once and unchanged',
    items: items(25, 'batches'),
    options: { max_batch_items: 10 },
    script: () => accept,
    check: ({ server, sent, counts }) => {
      assert.ok(server.requests.length >= 3, `${server.requests.length} requests for 25 items in batches of 10`);
      for (const n of sizes(server)) assert.ok(n >= 1 && n <= 10, `a batch of ${n}`);
      assert.equal(ids(server.requests.flatMap((r) => r.items)), ids(sent), 'no item sent twice, none left out');
      allAcceptedOnce(server, sent);
      assert.equal(counts, { sent: 25, dropped: 0 });
    },
  },
  {
    name: 'closing the client sends what it holds (a flush at close, with the interval far off)',
    items: items(7, 'close'),
    options: { flush_interval_ms: 60_000, max_batch_items: 100 },
    script: () => accept,
    check: ({ server, sent, counts }) => {
      assert.equal(sizes(server), [7]);
      allAcceptedOnce(server, sent);
      assert.equal(counts, { sent: 7, dropped: 0 });
    },
  },
  {
    name: '202 with per-item errors: rejected items are neither resent nor counted as sent or dropped',
    items: items(10, 'rejected'),
    script: () => ({ kind: 'accept', reject: (item) => (item.metadata.index % 3 === 0 ? 'scripted rejection' : undefined) }),
    check: ({ server, sent, counts }) => {
      assert.equal(sizes(server), [10], 'one request: a 202 is never retried');
      assert.equal([...server.accepted.keys()], ids(sent.filter((i) => i.metadata.index % 3 !== 0)));
      assert.equal(counts, { sent: 6, dropped: 0 });
    },
  },
  {
    name: '413: a batch is split in halves, and the halves again, until each is accepted',
    items: items(16, 'split'),
    options: { max_batch_items: 16 },
    script: (req) => (req.items.length > 4 ? { kind: 'status', status: 413 } : accept),
    check: ({ server, sent, counts }) => {
      assert.equal(sizes(server).slice(0, 2), [16, 8], 'the first half is sent next');
      for (const r of server.requests) if (r.answer.kind === 'accept') assert.ok(r.items.length <= 4);
      assert.is(server.requests.filter((r) => r.answer.kind === 'status').length, 3, '16 → 8 + 8 → 4 + 4 + 4 + 4: three 413s');
      allAcceptedOnce(server, sent);
      assert.equal(counts, { sent: 16, dropped: 0 });
    },
  },
  {
    name: '413 on a single item: that item is dropped and counted, the others are accepted',
    items: items(5, 'one-too-large', (i) => (i === 2 ? { too_large: true } : {})),
    script: (req) => (req.items.some((i) => i.metadata?.too_large) ? { kind: 'status', status: 413 } : accept),
    check: ({ server, sent, counts }) => {
      assert.equal([...server.accepted.keys()], ids(sent.filter((i) => !i.metadata.too_large)));
      assert.is(server.requests.filter((r) => r.items.length === 1 && r.items[0].metadata?.too_large).length, 1, 'the item alone is sent once, never retried');
      assert.equal(counts, { sent: 4, dropped: 1 });
    },
  },
  {
    name: '5xx: the same batch is retried with exponential backoff (at least retry_base_ms/2, then twice that)',
    items: items(4, 'retry-5xx'),
    options: { retry_base_ms: 100, max_retries: 3 },
    script: (_req, n) => (n === 0 ? { kind: 'status', status: 503 } : n === 1 ? { kind: 'status', status: 500 } : accept),
    check: ({ server, sent, counts }) => {
      assert.is(server.requests.length, 3);
      for (const r of server.requests) assert.equal(ids(r.items), ids(sent), 'a retry carries the same items, ids included');
      const [first, second] = gaps(server);
      assert.ok(first >= 50 - SLACK_MS, `the first retry waited ${first.toFixed(1)} ms, not at least 50`);
      assert.ok(second >= 100 - SLACK_MS, `the second retry waited ${second.toFixed(1)} ms, not at least 100`);
      allAcceptedOnce(server, sent);
      assert.equal(counts, { sent: 4, dropped: 0 });
    },
  },
  {
    name: 'a connection closed without an answer is retried',
    items: items(3, 'retry-network'),
    script: (_req, n) => (n === 0 ? { kind: 'drop' } : accept),
    check: ({ server, sent, counts }) => {
      assert.is(server.requests.length, 2);
      allAcceptedOnce(server, sent);
      assert.equal(counts, { sent: 3, dropped: 0 });
    },
  },
  {
    name: 'a request unanswered after timeout_ms is abandoned and retried',
    items: items(3, 'retry-timeout'),
    options: { timeout_ms: 300 },
    script: (_req, n) => (n === 0 ? { kind: 'hang' } : accept),
    check: ({ server, sent, counts }) => {
      assert.is(server.requests.length, 2);
      // The client's clock starts when it begins the request (connecting; in a cold JVM, loading its HTTP classes
      // first), the server's when the request arrives, so the gap seen here can be shorter than the timeout by that
      // head start: 212 ms was seen for Java at load 20. Half the timeout still catches a client that does not wait.
      assert.ok(gaps(server)[0] >= 150, `retried after ${gaps(server)[0].toFixed(1)} ms, well before the 300 ms timeout`);
      allAcceptedOnce(server, sent);
      assert.equal(counts, { sent: 3, dropped: 0 });
    },
  },
  {
    name: '429 with Retry-After: the retry waits as long as the server says, not the (shorter) backoff',
    items: items(3, 'retry-after'),
    options: { retry_base_ms: 10 },
    script: (_req, n) => (n === 0 ? { kind: 'status', status: 429, retryAfter: '1' } : accept),
    check: ({ server, sent, counts }) => {
      assert.is(server.requests.length, 2);
      assert.ok(gaps(server)[0] >= 1000 - SLACK_MS, `retried after ${gaps(server)[0].toFixed(1)} ms, before Retry-After: 1`);
      allAcceptedOnce(server, sent);
      assert.equal(counts, { sent: 3, dropped: 0 });
    },
  },
  {
    name: '503 with Retry-After: honoured as on a 429',
    items: items(2, 'retry-after-503'),
    options: { retry_base_ms: 10 },
    script: (_req, n) => (n === 0 ? { kind: 'status', status: 503, retryAfter: '1' } : accept),
    check: ({ server, sent, counts }) => {
      assert.is(server.requests.length, 2);
      assert.ok(gaps(server)[0] >= 1000 - SLACK_MS, `retried after ${gaps(server)[0].toFixed(1)} ms, before Retry-After: 1`);
      allAcceptedOnce(server, sent);
      assert.equal(counts, { sent: 2, dropped: 0 });
    },
  },
  {
    name: '400: never retried; the batch is dropped and counted',
    items: items(5, 'refused-400'),
    script: () => ({ kind: 'status', status: 400 }),
    check: ({ server, counts }) => {
      assert.equal(sizes(server), [5]);
      assert.equal(counts, { sent: 0, dropped: 5 });
    },
  },
  {
    name: '401: never retried; the batch is dropped and counted',
    items: items(5, 'refused-401'),
    script: () => ({ kind: 'status', status: 401 }),
    check: ({ server, counts }) => {
      assert.equal(sizes(server), [5]);
      assert.equal(counts, { sent: 0, dropped: 5 });
    },
  },
  {
    name: 'retries stop after max_retries; the batch is dropped and counted',
    items: items(4, 'retries-exhausted'),
    options: { max_retries: 2, retry_base_ms: 10 },
    script: () => ({ kind: 'status', status: 503 }),
    check: ({ server, counts }) => {
      assert.equal(sizes(server), [4, 4, 4], 'the first attempt and two retries');
      assert.equal(counts, { sent: 0, dropped: 4 });
    },
  },
  {
    name: 'a full buffer drops new items and counts them; what it holds is still sent',
    items: items(12, 'buffer-full'),
    options: { max_buffer_items: 5, max_batch_items: 100, flush_interval_ms: 60_000 },
    script: () => accept,
    check: ({ server, sent, counts }) => {
      assert.equal([...server.accepted.keys()], ids(sent.slice(0, 5)), 'the first five, in order');
      assert.equal(counts, { sent: 5, dropped: 7 });
    },
  },
];
