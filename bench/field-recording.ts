// Benchmark: what observing fields (GovernTask.recordFields: route templates, query, headers, the JSON paths of both
// bodies with kinds and formats) adds to governance, per record, single-threaded, on mixed traffic of four routes:
// - POST /api/orders/{id}: the throughput benchmark's 1 KB order JSON (three redactions), a small JSON answer;
// - GET /api/orders/{id}?expand=items: no request body, the order as the answer;
// - GET /api/users?page=&q=&sort=: a list of 10 users (emails, uuids, dates) as the answer;
// - PATCH /api/users/{uuid}: a small profile body, a small answer.
// Each exchange has its own id in the path (a template-cache miss per exchange, as with real ids), 9 request and 4
// response headers, a tenant label.
// Three modes, each batch governed by each, rounds alternated in the same process:
// - without recording (the baseline);
// - `recordFields: true` (the default `record_fields: true`): measured past every route's warm-up, so this is the
//   steady state, one exchange in 16 walked;
// - `recordFields: 'full'` (`record_fields: full`, also what a route costs while it warms up): every exchange walked.
// Also reports the merge of a batch's observations into the capture worker thread's accumulator, per record (held
// there between writes, gateway/fields/held-fields.ts; on the event loop only with sqlite::memory:).
// Prints `field recording (sampled, steady state): X µs/record (ratio X.XX …)` and the same for full. Budget: ≤ 1.15.
//
// Usage: node dist/bench/field-recording.js [rounds, default 300]
import { uuidv7 } from '@vigil/plugin-sdk';
import type { RawExchange } from '../gateway/exchange/raw-exchange.js';
import { compilePolicy } from '../policies/compile.js';
import type { PolicyConfig } from '../policies/schema.js';
import governBatch from '../gateway/govern/govern-worker.js';
import { DEFAULT_SAMPLING } from '../gateway/fields/field-sampling.js';
import { FieldAccumulator } from '../gateway/fields/field-accumulator.js';
import { ORDER_JSON, RULES } from './gateway-throughput.js';

const ROUNDS = Number(process.argv[2] ?? 300);
const BATCH = 100;
const ROUTES = 4;
// Enough rounds for every route to pass its warm-up (and its first renewals) before measuring, and the JIT to settle.
const WARMUP = Math.ceil((DEFAULT_SAMPLING.warmup * 3 * ROUTES) / BATCH) + 20;
const policy = { rules: RULES } as unknown as PolicyConfig;
const compiled = compilePolicy(policy);
const enc = new TextEncoder();
const ORDER_ANSWER = JSON.stringify({ id: 'ord_12345', status: 'accepted', total: 129.5, created: '2026-11-26T02:00:00Z' });
const uuid = (n: number) => `3f1c${(1e7 + n).toString(16).padStart(4, '0').slice(-4)}-8d2e-4b7a-9c1d-${(1e14 + n).toString(16).slice(-12)}`;
const USERS = JSON.stringify({
  page: 2, total: 240,
  users: Array.from({ length: 10 }, (_, i) => ({
    id: uuid(i), email: `user${i}@example.com`, name: `User ${i}`, created: '2025-06-0' + (i % 9 + 1) + 'T10:00:00Z',
    active: i % 3 !== 0, roles: ['reader', i % 2 ? 'writer' : 'admin'], score: 0.5 + i,
  })),
});
const PROFILE = JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', locale: 'en-GB', newsletter: true, birthday: '1815-12-10' });
const PROFILE_ANSWER = JSON.stringify({ id: uuid(1), updated: '2026-11-26T02:00:00Z', version: 7 });
let serial = 0;

function exchange(): RawExchange {
  const time = Date.now();
  const n = serial++;
  const id = (1e9 + n).toString(36);
  const [method, path, query, request, response] = [
    ['POST', `/api/orders/ord_${id}x7`, '', ORDER_JSON, ORDER_ANSWER],
    ['GET', `/api/orders/ord_${id}x7`, '?expand=items', null, ORDER_JSON],
    ['GET', '/api/users', `?page=${n % 24}&q=ada&sort=created`, null, USERS],
    ['PATCH', `/api/users/${uuid(n)}`, '', PROFILE, PROFILE_ANSWER],
  ][n % ROUTES] as [string, string, string, string | null, string];
  return {
    id: uuidv7(time), time, method, target: path + query, path,
    ruleIndexes: compiled.decide(method, path).ruleIndexes as number[], labels: { tenant: 'acme' },
    requestHeaders: ['host', '127.0.0.1:8080', 'connection', 'keep-alive', 'x-tenant-id', 'acme', 'content-type', 'application/json',
      'content-length', String(request?.length ?? 0), 'accept', 'application/json', 'user-agent', 'bench/1.0',
      'x-request-id', uuid(n), 'accept-encoding', 'gzip, deflate'],
    responseHeaders: ['Content-Type', 'application/json', 'Content-Length', String(response.length), 'Date', new Date(time).toUTCString(), 'Keep-Alive', 'timeout=60'],
    status: 200, durationMs: 1.25, requestBody: request === null ? null : enc.encode(request), requestTruncated: false,
    responseBody: enc.encode(response), responseTruncated: false,
  };
}

const batch = () => Array.from({ length: BATCH }, exchange);
type Mode = false | true | 'full';
const MODES: Mode[] = [false, true, 'full'];
const spent = new Map<Mode, number>(MODES.map((m) => [m, 0]));
const ratios = new Map<Mode, number[]>([[true, []], ['full', []]]);
const merge = { ms: 0, rows: 0 };
const accumulator = new FieldAccumulator(undefined, false);
// CPU time of this thread's process, not wall time: on a loaded machine (other processes on the same cores) wall
// time measures the scheduler. Each round's triple gives ratios; the median of those is the figure least moved by
// a noisy neighbour.
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
for (let round = 0; round < ROUNDS + WARMUP; round++) {
  const measured = round >= WARMUP;
  // Rotated, and each mode gets a fresh batch: none profits from another's caches.
  const order = MODES.map((_, i) => MODES[(i + round) % MODES.length]);
  const took = new Map<Mode, number>();
  for (const recordFields of order) {
    const exchanges = batch();
    const t = cpuMs();
    const result = await governBatch({ policy, exchanges, recordFields });
    took.set(recordFields, cpuMs() - t);
    if (recordFields === true) {
      const m = cpuMs();
      accumulator.add(result.fields!);
      if (measured) merge.ms += cpuMs() - m;
      merge.rows = result.fields!.length;
    }
  }
  if (measured) {
    for (const m of MODES) spent.set(m, spent.get(m)! + took.get(m)!);
    const base = took.get(false)!;
    if (base > 0) for (const m of [true, 'full'] as const) ratios.get(m)!.push(took.get(m)! / base);
  }
  if (round % 50 === 0) accumulator.take();
}

const records = ROUNDS * BATCH;
const perRecord = (ms: number) => (ms * 1000) / records;
const base = perRecord(spent.get(false)!);
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [mode, label] of [[true, 'sampled, steady state'], ['full', 'full (and warm-up)']] as const) {
  const cost = perRecord(spent.get(mode)!);
  console.log(`field recording (${label}): ${cost.toFixed(2)} µs/record CPU (ratio ${(cost / base).toFixed(2)} vs baseline ${base.toFixed(2)} µs/record without recording; median of per-round ratios ${median(ratios.get(mode)!).toFixed(2)}; budget ≤ 1.15)`);
}
console.log(`field recording, worker thread merge into its accumulator (sampled): ${perRecord(merge.ms).toFixed(3)} µs/record CPU (${merge.rows} observations per batch of ${BATCH})`);
