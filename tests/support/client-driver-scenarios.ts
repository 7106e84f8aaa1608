// The conformance driver protocol (docs/llm-wire-contract.md), played against a scripted ingest server: each scenario
// gives a driver items and options, answers its requests, and checks what the driver printed and what the server
// got. The Go and Java clients' tests run every scenario on their driver; the suite of the wire contract is the
// fuller version of this.
import * as assert from 'uvu/assert';
import type { Test } from 'uvu';
import { startScriptedIngest, type IngestAnswer, type IngestRequest, type Json } from './scripted-ingest.js';
import type { Ran } from './client-toolchain.js';

export interface DriverInput {
  items: Json[];
  options: { max_batch_items?: number; max_buffer_items?: number; flush_interval_ms?: number; max_retries?: number; retry_base_ms?: number; timeout_ms?: number };
}

/** Runs the driver with the suite's env and stdin; resolves with its exit and output. */
export type RunDriver = (input: DriverInput, env: { VIGIL_BASE_URL: string; VIGIL_PROJECT_KEY: string }) => Promise<Ran>;

interface Scenario {
  name: string;
  input: DriverInput;
  answer?: (req: IngestRequest) => IngestAnswer;
  printed: { sent: number; dropped: number };
  check?: (requests: IngestRequest[], input: DriverInput) => void;
}

const KEY = 'vk_conformance_driver';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const items = (n: number, extra: (i: number) => Json = () => ({})): Json[] =>
  Array.from({ length: n }, (_, i) => ({ model: 'gpt-4o-mini', name: `call-${i}`, ...extra(i) }));
// Nothing leaves on the interval: batches are cut by size, and the rest by the flush at close, whatever the load.
const SLOW = 60_000;
const sizes = (requests: IngestRequest[]): number[] => requests.map((r) => r.items.length);
const ids = (r: IngestRequest): string[] => r.items.map((i) => i.id);

export const DRIVER_SCENARIOS: Scenario[] = [
  {
    name: 'batches by max_batch_items, flushes the rest at close, sends each item as given with an id',
    input: {
      items: items(5, (i) => (i === 0
        ? { id: '0190a2b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b', tokens: { input: 12, output: 3 }, input: [{ role: 'user', content: 'héllo "quoted" \u2028' }], metadata: { nested: { a: [1, 2.5, null, true] } }, tags: ['x'] }
        : {})),
      options: { max_batch_items: 2, flush_interval_ms: SLOW },
    },
    printed: { sent: 5, dropped: 0 },
    check(requests, input) {
      assert.equal(sizes(requests), [2, 2, 1]);
      for (const r of requests) {
        assert.is(r.key, KEY);
        assert.match(r.contentType ?? '', /^application\/json/);
      }
      const sent = requests.flatMap((r) => r.items);
      assert.is(sent[0].id, input.items[0].id, 'an id given is kept');
      for (const item of sent) assert.match(item.id, UUID);
      assert.is(new Set(sent.map((i) => i.id)).size, 5, 'ids are distinct');
      assert.equal(sent.map(({ id: _id, ...rest }) => rest), input.items.map(({ id: _id, ...rest }) => rest), 'every field as given, in order');
    },
  },
  {
    name: '413 splits a batch in halves; one item still too large is dropped',
    input: { items: items(5, (i) => (i === 4 ? { model: 'too-large' } : {})), options: { max_batch_items: 8, flush_interval_ms: SLOW } },
    answer: (r) => (r.items.length > 2 || r.items.some((i) => i.model === 'too-large')
      ? { status: 413, body: { error: { code: 'VIGIL_ERR_LLM_BODY_TOO_LARGE', message: 'over the limit' } } }
      : 'accept'),
    printed: { sent: 4, dropped: 1 },
    check: (requests) => assert.equal(sizes(requests), [5, 3, 2, 1, 2, 1, 1]),
  },
  {
    name: '429 waits for Retry-After, 5xx is retried, with the same ids each time',
    input: { items: items(3), options: { max_batch_items: 10, flush_interval_ms: SLOW, max_retries: 3, retry_base_ms: 10 } },
    answer: (r) => (r.n === 1 ? { status: 429, headers: { 'retry-after': '0.4' }, body: { error: { code: 'VIGIL_ERR_LLM_LANE_BUSY', message: 'busy' } } }
      : r.n === 2 ? { status: 503, body: { error: { code: 'VIGIL_ERR_LLM_STORE_UNAVAILABLE', message: 'down' } } }
      : 'accept'),
    printed: { sent: 3, dropped: 0 },
    check(requests) {
      assert.is(requests.length, 3);
      assert.equal(ids(requests[1]), ids(requests[0]));
      assert.equal(ids(requests[2]), ids(requests[0]));
      assert.ok(requests[1].at - requests[0].at >= 400, `the retry came ${Math.round(requests[1].at - requests[0].at)} ms after a Retry-After of 0.4 s`);
    },
  },
  {
    name: '400 is never retried: the batch is dropped',
    input: { items: items(2), options: { max_batch_items: 10, flush_interval_ms: SLOW, max_retries: 3, retry_base_ms: 10 } },
    answer: () => ({ status: 400, body: { error: { code: 'VIGIL_ERR_LLM_BODY_INVALID', message: 'not JSON' } } }),
    printed: { sent: 0, dropped: 2 },
    check: (requests) => assert.is(requests.length, 1),
  },
  {
    name: '401 drops the batch without a retry',
    input: { items: items(2), options: { max_batch_items: 10, flush_interval_ms: SLOW, max_retries: 3, retry_base_ms: 10 } },
    answer: () => ({ status: 401, body: { error: { code: 'VIGIL_ERR_LLM_UNKNOWN_KEY', message: 'unknown key' } } }),
    printed: { sent: 0, dropped: 2 },
    check: (requests) => assert.is(requests.length, 1),
  },
  {
    name: 'retries stop after max_retries',
    input: { items: items(2), options: { max_batch_items: 10, flush_interval_ms: SLOW, max_retries: 2, retry_base_ms: 5 } },
    answer: () => ({ status: 500 }),
    printed: { sent: 0, dropped: 2 },
    check: (requests) => assert.is(requests.length, 3),
  },
  {
    name: 'max_retries 0 sends once',
    input: { items: items(1), options: { max_batch_items: 10, flush_interval_ms: SLOW, max_retries: 0, retry_base_ms: 5 } },
    answer: () => ({ status: 503 }),
    printed: { sent: 0, dropped: 1 },
    check: (requests) => assert.is(requests.length, 1),
  },
  {
    name: 'a full buffer drops what does not fit, and counts it',
    input: { items: items(10), options: { max_batch_items: 100, max_buffer_items: 4, flush_interval_ms: SLOW } },
    printed: { sent: 4, dropped: 6 },
    check: (requests) => assert.equal(requests.flatMap((r) => r.items.map((i) => i.name)), ['call-0', 'call-1', 'call-2', 'call-3']),
  },
  {
    name: 'items rejected one by one in a 202 are neither sent nor retried',
    input: { items: items(3), options: { max_batch_items: 10, flush_interval_ms: SLOW } },
    answer: (r) => ({ status: 202, body: { accepted: 2, rejected: 1, sampled_out: 0, errors: [{ index: 1, code: 'VIGIL_ERR_LLM_ITEM_INVALID', message: 'bad', path: 'tokens.input' }], ids: [r.items[0].id, r.items[2].id] } }),
    printed: { sent: 2, dropped: 0 },
    check: (requests) => assert.is(requests.length, 1),
  },
  {
    name: 'a large batch is gzipped',
    input: { items: items(4, () => ({ input: 'x'.repeat(2000) })), options: { max_batch_items: 10, flush_interval_ms: SLOW } },
    printed: { sent: 4, dropped: 0 },
    check: (requests) => assert.is(requests[0].encoding, 'gzip'),
  },
];

/** Registers one test per scenario on `test`, each running the driver against its own scripted server. */
export function registerDriverScenarios(test: Test, label: string, runDriver: () => RunDriver): void {
  for (const s of DRIVER_SCENARIOS) {
    test(`${label} driver: ${s.name}`, async () => {
      const ingest = await startScriptedIngest(s.answer);
      try {
        const ran = await runDriver()(s.input, { VIGIL_BASE_URL: ingest.url, VIGIL_PROJECT_KEY: KEY });
        assert.is(ran.code, 0, ran.stderr);
        const lines = ran.stdout.trim().split('\n');
        assert.is(lines.length, 1, `one line on stdout: ${ran.stdout}`);
        assert.equal(JSON.parse(lines[0]), s.printed);
        s.check?.(ingest.requests, s.input);
      } finally {
        await ingest.close();
      }
    });
  }
}
