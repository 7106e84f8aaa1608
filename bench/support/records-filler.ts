// Synthetic governed records, written straight into a capture store in the shape the capture plugin stores them: the
// `capture_records` rows come from capture's own `recordRow`, the minute rollups the overview and usage read from its
// `foldRollups`, and both go through its `RecordWriter` (one transaction per batch, rollups upserted). What a store
// holds after a fill is what the same traffic through the gateway would have left, minus the time it takes.
//
// The traffic is deterministic for a seed and looks like an API's: a few busy routes and a long tail, mostly 2xx with
// some 4xx, about 2.5 % 5xx and a few unanswered exchanges, tenants of very different sizes, lognormal latencies,
// metered tokens on the LLM route, masked credentials and card numbers.
import type { Store } from '@vigil/plugin-sdk';
import type { StorableRecord } from '../../gateway/records/governed-record.js';
import { uuidv7 } from '@vigil/plugin-sdk';
import { captureMigrations } from '../../gateway/records/migrations.js';
import { foldRollups, recordRow, RecordWriter } from '../../gateway/records/record-writer.js';
import { openStore } from '../../runtime/store/index.js';
import { seeded } from '../../app/demo/random.js';

export interface FillOptions {
  /** Records to write. */
  count: number;
  /** Epoch ms of the newest record (default: now). */
  to?: number;
  /** Milliseconds the records span, back from `to` (default 24 h). Records are spread evenly with jitter. */
  spanMs?: number;
  /** Same seed, same records (ids aside: they are UUIDv7 with random bits, as capture makes them). */
  seed?: number;
  /** Records per transaction (default 5,000). */
  batch?: number;
  /** The capture config's `tenant_label` (default `tenant`). */
  tenantLabel?: string;
  /** Called after each batch with the records written so far. */
  onProgress?: (written: number) => void;
}

export interface FillSummary {
  records: number;
  /** Milliseconds the fill took. */
  ms: number;
  from: number;
  to: number;
}

/** The rule globs the synthetic traffic matched, as the records' `route` arrays name them. */
export const SYNTHETIC_ROUTES = ['/**', '/api/orders/**', '/api/users/*/profile', '/api/payments/**', '/api/search/**', '/v1/chat/completions', '/admin/**'] as const;
/** Tenants, busiest first (`tenant` label); `t-00` … `t-19` follow the named ones. */
export const SYNTHETIC_TENANTS = ['acme', 'globex', 'initech', 'umbrella', 'hooli', ...Array.from({ length: 20 }, (_, i) => `t-${String(i).padStart(2, '0')}`)];

/** Picks from `items` by cumulative weights. */
function weighted<T>(items: readonly (readonly [T, number])[]): (u: number) => T {
  const total = items.reduce((n, [, w]) => n + w, 0);
  let sum = 0;
  const cumulative = items.map(([, w]) => (sum += w) / total);
  return (u) => {
    for (let i = 0; i < cumulative.length; i++) if (u < cumulative[i]) return items[i][0];
    return items[items.length - 1][0];
  };
}

interface Endpoint { method: string; path: (n: number) => string; route: string[]; status: (u: number) => number; meanMs: number; kind: 'json' | 'chat' | 'payment' | 'restricted' | 'empty' }

const ordinary = weighted([[200, 880], [201, 20], [204, 10], [400, 15], [401, 8], [404, 30], [429, 6], [500, 12], [502, 8], [503, 6], [504, 3], [0, 2]]);
const endpoints = weighted<Endpoint>([
  [{ method: 'GET', path: (n) => `/api/orders/${n % 50_000}`, route: ['/**', '/api/orders/**'], status: ordinary, meanMs: 25, kind: 'json' }, 30],
  [{ method: 'GET', path: (n) => `/api/users/${n % 9_000}/profile`, route: ['/**', '/api/users/*/profile'], status: ordinary, meanMs: 15, kind: 'json' }, 20],
  [{ method: 'GET', path: () => '/api/search/products', route: ['/**', '/api/search/**'], status: ordinary, meanMs: 120, kind: 'json' }, 15],
  [{ method: 'POST', path: () => '/api/payments/charge', route: ['/**', '/api/payments/**'], status: weighted([[201, 900], [402, 40], [409, 10], [500, 25], [503, 20], [0, 5]]), meanMs: 300, kind: 'payment' }, 8],
  [{ method: 'POST', path: () => '/v1/chat/completions', route: ['/**', '/v1/chat/completions'], status: weighted([[200, 930], [429, 40], [500, 15], [504, 15]]), meanMs: 1800, kind: 'chat' }, 10],
  [{ method: 'GET', path: (n) => `/admin/users/${n % 300}/sessions`, route: ['/**', '/admin/**'], status: ordinary, meanMs: 40, kind: 'restricted' }, 2],
  [{ method: 'GET', path: () => '/health', route: ['/**'], status: weighted([[204, 999], [503, 1]]), meanMs: 2, kind: 'empty' }, 15],
]);
// Zipf-like: the first tenant about a quarter of the traffic, the last about 1 %.
const tenantOf = weighted(SYNTHETIC_TENANTS.map((t, i) => [t, 1 / (i + 1)] as const));
const planOf = weighted([['free', 6], ['pro', 3], ['enterprise', 1]]);
const agents = ['curl/8.5.0', 'okhttp/4.12.0', 'python-requests/2.31.0', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'];

const ERRORS: Record<number, string | null> = { 0: 'VIGIL_ERR_PROXY_UPSTREAM_UNREACHABLE' };

/** Standard normal from two uniforms (Box-Muller). */
const gaussian = (rand: () => number) => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());

/** One synthetic record at `time`, drawn from `rand`. */
function syntheticRecord(rand: () => number, time: number, n: number, tenantLabel: string): StorableRecord {
  const e = endpoints(rand());
  const status = e.status(rand());
  const tenant = tenantOf(rand());
  const plan = planOf(rand());
  const duration = status === 0 ? 5000 + Math.round(rand() * 25_000) : Math.round(e.meanMs * Math.exp(0.6 * gaussian(rand)) * 100) / 100;
  const headers = e.kind === 'restricted' ? null : {
    Accept: 'application/json', 'User-Agent': agents[n % agents.length], Authorization: '[REDACTED]', 'X-Tenant-Id': tenant,
    ...(e.method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
  };
  const responseHeaders = e.kind === 'restricted' || status === 0 ? null : { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Request-Id': `req-${n}` };
  let request = 'null';
  let response = 'null';
  let tokens: number | null = null;
  if (status !== 0) {
    switch (e.kind) {
      case 'json':
        response = status < 400
          ? JSON.stringify({ id: n % 50_000, status: 'shipped', items: [{ sku: `sku-${n % 977}`, qty: 1 + (n % 3), price: 12.5 }], email: '[REDACTED]', updated_at: new Date(time).toISOString() })
          : JSON.stringify({ error: { code: status, message: status === 404 ? 'not found' : 'upstream error' } });
        break;
      case 'payment':
        request = JSON.stringify({ amount: 1 + (n % 500), currency: 'EUR', card: { number: '[REDACTED]', brand: 'visa' } });
        response = JSON.stringify({ charge: `ch_${n}`, status: status < 400 ? 'succeeded' : 'failed' });
        break;
      case 'chat':
        tokens = status === 200 ? 50 + Math.floor(rand() * 4000) : null;
        request = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Summarise the order history of this customer.' }] });
        response = tokens === null ? JSON.stringify({ error: { type: 'rate_limit' } })
          : JSON.stringify({ id: `chatcmpl-${n}`, choices: [{ message: { role: 'assistant', content: 'The customer ordered twice this month.' } }], usage: { total_tokens: tokens } });
        break;
      default:
    }
  }
  return {
    id: uuidv7(time), time, method: e.method, path: e.path(n), route: e.route,
    query: e.kind === 'json' && e.route[1] === '/api/search/**' ? { q: 'lamp', page: String(1 + (n % 5)) } : {},
    status, duration_ms: duration, headers, response_headers: responseHeaders,
    request_body_json: request, response_body_json: response,
    labels: { [tenantLabel]: tenant, plan }, matched_rules: e.route.map((r) => (r === '/**' ? 'all-traffic' : r.split('/')[2] ?? 'llm')),
    tokens, sampled: true, truncated: false, partial: false, dropped_reason: null, error: ERRORS[status] ?? null,
  };
}

/** Records, oldest first, as the capture worker hands them to `recordRow`. */
export function* syntheticRecords(options: FillOptions): Generator<StorableRecord> {
  const to = options.to ?? Date.now();
  const span = options.spanMs ?? 86_400_000;
  const rand = seeded(options.seed ?? 1);
  const tenantLabel = options.tenantLabel ?? 'tenant';
  const gap = span / options.count;
  for (let n = 0; n < options.count; n++) {
    const time = Math.min(to, Math.floor(to - span + (n + rand()) * gap));
    yield syntheticRecord(rand, time, n, tenantLabel);
  }
}

/**
 * Writes `count` synthetic records, and the rollups that count them, into capture's tables of `store` (capture's
 * view of the store: `backend.forPlugin('capture')`), applying capture's migrations first.
 */
export async function fillRecords(store: Store, options: FillOptions): Promise<FillSummary> {
  const t0 = performance.now();
  await store.migrate(captureMigrations);
  const writer = new RecordWriter(store);
  const batchSize = options.batch ?? 5_000;
  const tenantLabel = options.tenantLabel ?? 'tenant';
  let batch: StorableRecord[] = [];
  let written = 0;
  let from = Infinity;
  let to = -Infinity;
  // Building the next batch overlaps writing this one (node-sqlite3 and node-postgres work off the event loop).
  let pending: Promise<void> = Promise.resolve();
  const flush = async () => {
    const records = batch;
    batch = [];
    const rows = records.map(recordRow);
    const rollups = foldRollups(records, tenantLabel);
    await pending;
    pending = writer.write({ rows, rollups }).then(() => {
      written += records.length;
      options.onProgress?.(written);
    });
  };
  for (const r of syntheticRecords(options)) {
    if (r.time < from) from = r.time;
    if (r.time > to) to = r.time;
    batch.push(r);
    if (batch.length === batchSize) await flush();
  }
  if (batch.length) await flush();
  await pending;
  return { records: written, ms: performance.now() - t0, from, to };
}

/** `fillRecords` into the database at `url` (`sqlite:/path/vigil.db` or `postgres://…`), opened and closed here. */
export async function fillRecordsAt(url: string, options: FillOptions): Promise<FillSummary> {
  const backend = await openStore(url);
  try {
    return await fillRecords(backend.forPlugin('capture'), options);
  } finally {
    await backend.close();
  }
}
