// The gateway API's reads at large stored data, on SQLite and PostgreSQL, the store filled directly: the records list
// holds at most 8 MB of records a page and pages on by cursor; deep offsets are 400s; the billing export of a year
// streams, day by day and 1,000 tenants a read, every row once and in order; and the usage series ranks 20,000
// tenants in the store, exactly as the in-memory ranking would.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUCKET_COLUMNS } from '../../../../../gateway/records/latency-buckets.js';
import { CSV_PAGE } from '../../../../../plugins/capture/routes/usage.js';
import { rankTenants } from '../../../../../plugins/capture/routes/usage-series.js';
import { usageCost } from '../../../../../plugins/capture/usage-cost.js';
import { openStore, type StoreBackend } from '../../../../../runtime/store/index.js';
import { captureBackends, startCapture, type CaptureHarness } from '../capture-harness.js';

const MB = 1024 * 1024;
const MINUTE = 60_000;
const DAY = 86_400_000;
const BIG_RECORDS = 20;
/** Tenants of the busiest day of the export: three reads of CSV_PAGE. */
const BUSY_DAY_TENANTS = 2 * CSV_PAGE + 500;
const SERIES_TENANTS = 20_000;
const pricing = { per_1k_tokens: 0.5, per_request: 0.001, currency: 'EUR' };

const backends = (await captureBackends('capture_route_bounds')).filter((b) => b.persistent);

interface Ctx { h: CaptureHarness; store: StoreBackend; now: number; url: string }

const rollupColumns = ['bucket', 'route', 'method', 'status_class', 'tenant', 'requests', 'errors', 'tokens', 'duration_sum', ...BUCKET_COLUMNS];
const rollup = (bucket: number, tenant: string, requests: number, tokens: number, route = '/**') =>
  [bucket, route, 'GET', '2xx', tenant, requests, 0, tokens, requests, ...BUCKET_COLUMNS.map((_, i) => (i === 0 ? requests : 0))];

for (const backend of backends) {
  const test = suite<Ctx>(`gateway API bounds (${backend.name})`);

  test.before(async (ctx) => {
    const storage = await backend.storage();
    ctx.h = await startCapture({ storage, capture: { tenant_label: 'customer', pricing, rollup_retention: '400d' } });
    ctx.url = storage?.url ?? `sqlite:${ctx.h.rt.dataDir}/vigil.db`;
    ctx.store = await openStore(ctx.url);
    ctx.now = Date.now();
    const capture = ctx.store.forPlugin('capture');
    // 20 records of 1 MB each, a second apart, within the last hour.
    await capture.insertMany('capture_records', ['id', 'time', 'route', 'primary_route', 'status', 'labels', 'record'],
      Array.from({ length: BIG_RECORDS }, (_, i) => {
        const id = `rec-${String(i).padStart(3, '0')}`;
        const time = ctx.now - 3_600_000 + i * 1000;
        const record = {
          id, time, method: 'GET', path: '/export', route: ['/**'], query: {}, status: 200, duration_ms: 5, headers: {}, response_headers: {},
          request_body: null, response_body: 'p'.repeat(MB), labels: {}, matched_rules: ['all'], tokens: null, sampled: true, truncated: false,
          partial: false, dropped_reason: null, error: null,
        };
        return [id, time, '["/**"]', '/**', 200, '{}', JSON.stringify(record)];
      }));
    // A year of rollups, two tenants a day up to a day and a half ago, and one day (ten days ago) with
    // BUSY_DAY_TENANTS tenants.
    const start = ctx.now - 364 * DAY - DAY / 2;
    const rows = [];
    for (let d = 0; d < 364; d++) {
      const bucket = start + d * DAY - ((start + d * DAY) % MINUTE);
      rows.push(rollup(bucket, 'acme', 2, 100), rollup(bucket, 'globex', 1, 10));
    }
    const busy = ctx.now - 10 * DAY - ((ctx.now - 10 * DAY) % MINUTE) + MINUTE;
    for (let t = 0; t < BUSY_DAY_TENANTS; t++) rows.push(rollup(busy, `t-${String(t).padStart(5, '0')}`, 1, t));
    // The last 24 hours: SERIES_TENANTS tenants with varied requests and tokens.
    for (let t = 0; t < SERIES_TENANTS; t++) {
      const bucket = ctx.now - 3_600_000 - ((ctx.now - 3_600_000) % MINUTE) - (t % 20) * MINUTE;
      rows.push(rollup(bucket, `s-${t}`, 1 + (t * 7919) % 97, (t * 104729) % 5003, '/api/**'));
    }
    await capture.insertMany('capture_rollups', rollupColumns, rows);
  });

  test.after(async (ctx) => {
    await ctx.store?.close();
    await ctx.h?.stop();
  });

  test('the records list holds at most 8 MB of records a page, says so, and its cursors reach every record once', async ({ h }) => {
    const seen: string[] = [];
    let path = '/api/gateway/records?limit=200&since=2h';
    let pages = 0;
    for (;;) {
      const r = await h.get(path);
      assert.is(r.status, 200);
      pages++;
      const bytes = r.body.data.reduce((n: number, x: unknown) => n + JSON.stringify(x).length, 0);
      assert.ok(bytes <= 8 * MB, `page ${pages}: ${bytes} bytes`);
      seen.push(...r.body.data.map((x: { id: string }) => x.id));
      if (r.body.next === null) { assert.is(r.body.truncated, false); break; }
      assert.is(r.body.truncated, true);
      path = `/api/gateway/records?limit=200&since=2h&before=${r.body.next}`;
    }
    assert.is(pages, 3);
    assert.equal(seen, Array.from({ length: BIG_RECORDS }, (_, i) => `rec-${String(BIG_RECORDS - 1 - i).padStart(3, '0')}`));
    // Back up from the oldest page by `after`: the newer records, nearest the cursor first kept, newest first shown.
    const back = await h.get(`/api/gateway/records?limit=200&since=2h&after=${encodeURIComponent(`${0}.x`)}`);
    assert.is(back.status, 200);
    assert.ok(back.body.data.length < BIG_RECORDS && back.body.truncated);
    assert.is(back.body.data[back.body.data.length - 1].id, 'rec-000');
  });

  test('deep offsets and over-long filters of the gateway lists are 400s naming the parameter', async ({ h }) => {
    for (const path of ['/api/gateway/records?offset=10001', '/api/gateway/usage?offset=10001', `/api/gateway/records?route=${'r'.repeat(1025)}`]) {
      const r = await h.get(path);
      assert.is(r.status, 400, path);
      assert.match(r.body.error.message, /offset|route/, path);
    }
    assert.is((await h.get('/api/gateway/records?offset=10000')).status, 200);
  });

  test('the billing export of a year streams: chunked, every day and tenant once, in order, 1,000 tenants a read', async ({ h }) => {
    const res = await h.rt.fetch('/api/gateway/usage.csv?range=365d');
    assert.is(res.status, 200);
    assert.is(res.headers.get('transfer-encoding'), 'chunked');
    assert.is(res.headers.get('content-length'), null);
    const lines = (await res.text()).split('\r\n');
    assert.is(lines.pop(), '');
    assert.is(lines.shift(), 'date,tenant,requests,tokens,cost,currency');
    const rows = lines.map((l) => l.split(',').map((c) => c.replace(/^"|"$/g, '')));
    const keys = rows.map((r) => `${r[0]} ${r[1]}`);
    assert.is(new Set(keys).size, keys.length, 'no row twice');
    assert.equal(keys, [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), 'by day, then tenant');
    const busy = rows.filter((r) => r[1].startsWith('t-'));
    assert.is(busy.length, BUSY_DAY_TENANTS);
    assert.equal(busy[BUSY_DAY_TENANTS - 1], [busy[0][0], `t-${String(BUSY_DAY_TENANTS - 1).padStart(5, '0')}`, '1', String(BUSY_DAY_TENANTS - 1),
      String(usageCost(pricing, 1, BUSY_DAY_TENANTS - 1)), 'EUR']);
    const acme = rows.filter((r) => r[1] === 'acme');
    assert.is(acme.length, 364);
    assert.ok(acme.every((r) => r[2] === '2' && r[3] === '100'));
    assert.is((await h.get('/api/gateway/usage.csv?range=2y')).status, 400);
  });

  test('the usage series ranks 20,000 tenants in the store, as the in-memory ranking does, by each measure', async ({ h, now }) => {
    const all = Array.from({ length: SERIES_TENANTS }, (_, t) => {
      const requests = 1 + (t * 7919) % 97;
      const tokens = (t * 104729) % 5003;
      return { tenant: `s-${t}`, requests, tokens, cost: usageCost(pricing, requests, tokens) };
    });
    for (const by of ['requests', 'tokens', 'cost'] as const) {
      const r = await h.get(`/api/gateway/usage/series?range=24h&by=${by}&top=10`);
      assert.is(r.status, 200);
      assert.equal(r.body.series.map((s: { tenant: string }) => s.tenant), rankTenants(all, by).slice(0, 10).map((t) => t.tenant), by);
      assert.is(r.body.totals.tenants, SERIES_TENANTS);
      assert.is(r.body.totals.requests, all.reduce((n, t) => n + t.requests, 0));
      assert.is(r.body.other.tenants, SERIES_TENANTS - 10);
      assert.is(r.body.other.requests + r.body.series.reduce((n: number, s: { requests: number }) => n + s.requests, 0), r.body.totals.requests);
    }
    const named = await h.get('/api/gateway/usage/series?range=24h&tenant=s-5&tenant=nobody');
    assert.equal(named.body.series.map((s: { tenant: string; requests: number }) => [s.tenant, s.requests]), [['s-5', all[5].requests], ['nobody', 0]]);
    assert.is(named.body.other.tenants, SERIES_TENANTS - 1);
    assert.ok(now > 0);
  });

  test.run();
}
await Promise.all(backends.map((b) => b.cleanup()));
