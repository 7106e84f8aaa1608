// GET /api/gateway/usage and /usage.csv: per-tenant requests, tokens and cost, on SQLite and PostgreSQL.
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PolicyConfig } from '../../../../../policies/schema.js';
import { captureBackends, exchange, startCapture, type CaptureHarness } from '../capture-harness.js';

const backends = await captureBackends('capture_usage_route');

const policy: PolicyConfig = {
  rules: [{ name: 'llm', match: { path: '/v1/**' }, labels: { customer: 'header:X-Customer' }, meter: { tokens: '$.usage.total_tokens' } }],
};
const pricing = { per_1k_tokens: 0.5, per_request: 0.001, currency: 'EUR' };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Usage {
  range: string; from: number; to: number; tenant_label: string; currency: string; limit: number; offset: number;
  data: { tenant: string; requests: number; tokens: number; cost: number }[];
}

/** An exchange of `tenant` (label `customer`) whose response meters `tokens`. */
const call = (tenant: string | null, tokens: number | null, time = Date.now()) => exchange(policy, {
  target: '/v1/chat/completions',
  labels: tenant === null ? {} : { customer: tenant },
  responseBody: tokens === null ? { id: 'x' } : { usage: { total_tokens: tokens } },
  time,
});

/** RFC 4180 parsing, enough for the export: quoted fields, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; } else field += c;
  }
  assert.is(field + row.join(''), '', 'the export ends with CRLF');
  return rows;
}

for (const backend of backends) {
  const usage = suite<{ h: CaptureHarness; now: number }>(`GET /api/gateway/usage (${backend.name})`);

  usage.before(async (ctx) => {
    ctx.h = await startCapture({ policy, storage: await backend.storage(), capture: { tenant_label: 'customer', pricing } });
    const now = Date.now();
    ctx.now = now;
    await ctx.h.feed([
      call('acme', 1000), call('acme', 2500), call('acme', 500),
      call('beta', null),
      call('=cmd()', 10), call('+SUM(A1)', 0), call('@x', 0), call('-2+3', 0), call('a "quoted", name', 4),
      call(null, 7),
      call('acme', 100_000, now - 3 * DAY),
    ]);
  });
  usage.after(async (ctx) => {
    await ctx.h.stop();
    await backend.cleanup();
  });

  usage('per tenant: requests, metered tokens and cost from the configured prices', async ({ h }) => {
    const res = await h.get<Usage>('/api/gateway/usage?range=24h');
    assert.is(res.status, 200);
    assert.is(res.body.tenant_label, 'customer');
    assert.is(res.body.currency, 'EUR');
    const byTenant = new Map(res.body.data.map((t) => [t.tenant, t]));
    // acme: 3 requests, 4000 tokens: 4 × 0.5 + 3 × 0.001.
    assert.equal(byTenant.get('acme'), { tenant: 'acme', requests: 3, tokens: 4000, cost: 2.003 });
    // beta: nothing metered still costs its request.
    assert.equal(byTenant.get('beta'), { tenant: 'beta', requests: 1, tokens: 0, cost: 0.001 });
    assert.equal(byTenant.get('=cmd()'), { tenant: '=cmd()', requests: 1, tokens: 10, cost: 0.006 });
    // Exchanges without the tenant label are accounted to the empty tenant, never dropped.
    assert.equal(byTenant.get(''), { tenant: '', requests: 1, tokens: 7, cost: 0.0045 });
    assert.is(res.body.data.reduce((n, t) => n + t.requests, 0), 10);
    assert.is(res.body.data[0].tenant, 'acme', 'ordered by requests');
    assert.is(res.body.limit, 50);
    assert.is(res.body.offset, 0);
  });

  usage('the tenant list pages like every gateway list', async ({ h }) => {
    const first = await h.get<Usage>('/api/gateway/usage?range=24h&limit=2');
    assert.is(first.body.limit, 2);
    assert.is(first.body.data.length, 2);
    assert.is(first.body.data[0].tenant, 'acme');
    const rest = await h.get<Usage>('/api/gateway/usage?range=24h&limit=1000&offset=2');
    assert.is(rest.body.limit, 200);
    assert.is(rest.body.offset, 2);
    assert.is(rest.body.data.length, 6, '8 tenants in the day');
    assert.not.ok(rest.body.data.some((t) => first.body.data.some((f) => f.tenant === t.tenant)), 'pages do not overlap');
    const bad = await h.get<{ error: { message: string } }>('/api/gateway/usage?limit=0');
    assert.is(bad.status, 400);
    assert.match(bad.body.error.message, /limit/);
  });

  usage('vigil_tokens_total names the tenant by the configured label', async ({ h }) => {
    const m = await h.rt.metrics();
    assert.match(m, /^vigil_tokens_total\{route="\/v1\/\*\*",tenant="acme"\} 104000$/m);
    assert.match(m, /^vigil_tokens_total\{route="\/v1\/\*\*",tenant=""\} 7$/m);
    assert.not.match(m, /vigil_tokens_total\{[^}]*tenant="beta"/, 'nothing metered, no series');
  });

  usage('ranges: 7d takes in the older usage; 1h does not', async ({ h }) => {
    const week = await h.get<Usage>('/api/gateway/usage?range=7d');
    assert.equal(week.body.data.find((t) => t.tenant === 'acme'), { tenant: 'acme', requests: 4, tokens: 104_000, cost: 52.004 });
    const hour = await h.get<Usage>('/api/gateway/usage?range=1h');
    assert.is(hour.body.data.find((t) => t.tenant === 'acme')?.requests, 3);
    const bad = await h.get<{ error: { message: string } }>('/api/gateway/usage?range=30d');
    assert.is(bad.status, 400);
    assert.match(bad.body.error.message, /range/);
  });

  usage('usage.csv: billing rows per day and tenant, quoted, with formulas neutralised', async ({ h, now }) => {
    const res = await h.rt.fetch('/api/gateway/usage.csv');
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="vigil-usage-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parseCsv(await res.text());
    assert.equal(rows[0], ['date', 'tenant', 'requests', 'tokens', 'cost', 'currency']);
    const today = new Date(now).toISOString().slice(0, 10);
    const earlier = new Date(now - 3 * DAY).toISOString().slice(0, 10);
    const find = (date: string, tenant: string) => rows.find((r) => r[0] === date && r[1] === tenant);
    assert.equal(find(today, 'acme'), [today, 'acme', '3', '4000', '2.003', 'EUR']);
    assert.equal(find(earlier, 'acme'), [earlier, 'acme', '1', '100000', '50.001', 'EUR']);
    assert.equal(find(today, 'a "quoted", name'), [today, 'a "quoted", name', '1', '4', '0.003', 'EUR']);
    // A spreadsheet must not run a tenant name as a formula.
    for (const formula of ['=cmd()', '+SUM(A1)', '@x', '-2+3']) {
      assert.not.ok(find(today, formula), `${formula} appears as is`);
      assert.ok(find(today, `'${formula}`), `${formula} is neutralised`);
    }
    for (const r of rows.slice(1)) assert.not.match(r[1], /^[=+\-@\t\r]/, `tenant cell ${r[1]}`);
    assert.is(rows.length - 1, 9, 'one row per tenant and day: 8 tenants today (the empty one included), acme three days ago');
  });

  usage('usage.csv: a range that starts after the older day leaves it out; CSV needs credentials like the rest', async ({ h, now }) => {
    const res = await h.rt.fetch('/api/gateway/usage.csv?range=24h');
    const rows = parseCsv(await res.text());
    const earlier = new Date(now - 3 * DAY).toISOString().slice(0, 10);
    assert.not.ok(rows.some((r) => r[0] === earlier));
    const anonymous = await h.rt.fetch('/api/gateway/usage.csv', { auth: false });
    assert.is(anonymous.status, 401);
  });

  usage.run();
}

test.run();
