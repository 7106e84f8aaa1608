// GET /api/gateway/records and /records/:id through a real runtime, on SQLite and PostgreSQL.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PolicyConfig } from '../../../../../policies/schema.js';
import type { GovernedRecord, RawExchange } from '../../../../../gateway/govern/types.js';
import { captureBackends, exchange, startCapture, type CaptureHarness } from '../capture-harness.js';

const backends = await captureBackends('capture_records_route');

const policy: PolicyConfig = {
  rules: [
    { name: 'api', match: { path: '/api/**' }, labels: { tenant: 'header:X-Tenant', plan: 'header:X-Plan' } },
    { name: 'users', match: { path: '/api/user_items/**' } },
    { name: 'orders', match: { path: '/api/orders/**' } },
    // Globs are folded like paths (policies/README.md): this one meets every spelling of /api/orders/…, and the route
    // filter still compares the glob as written, case and all.
    { name: 'upper', match: { path: '/API/Orders/**' } },
    // Makes `/api/user_items/**` a glob that is not the record's primary (last) route.
    { name: 'item-3', match: { path: '/api/user_items/3' } },
  ],
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Page { data: GovernedRecord[]; limit: number; offset: number; next: string | null; prev: string | null }
interface ApiError { error: { code: string; message: string } }

for (const backend of backends) {
  const records = suite<{ h: CaptureHarness; ex: Record<string, RawExchange>; now: number }>(`GET /api/gateway/records (${backend.name})`);

  records.before(async (ctx) => {
    ctx.h = await startCapture({ policy, storage: await backend.storage() });
    const now = Date.now();
    ctx.now = now;
    // Known exchanges, oldest to newest.
    ctx.ex = {
      oldError: exchange(policy, { target: '/api/orders/1', status: 503, time: now - 3 * 24 * HOUR, labels: { tenant: 'acme', plan: 'pro' } }),
      orders404: exchange(policy, { target: '/api/orders/2', status: 404, time: now - 2 * HOUR, labels: { tenant: 'beta', plan: 'free' } }),
      users: exchange(policy, { target: '/api/user_items/3', status: 201, time: now - 30 * MINUTE, labels: { tenant: 'acme', plan: 'free' } }),
      upper: exchange(policy, { target: '/API/Orders/4', status: 200, time: now - 20 * MINUTE, labels: {} }),
      unmatched: exchange(policy, { target: '/health', status: 204, time: now - 10 * MINUTE }),
      noAnswer: exchange(policy, { target: '/api/orders/5', status: 0, time: now - 5 * MINUTE, labels: { tenant: 'acme', plan: 'pro' }, error: 'ECONNREFUSED' }),
    };
    await ctx.h.feed(Object.values(ctx.ex));
  });
  records.after(async (ctx) => {
    await ctx.h.stop();
    await backend.cleanup();
  });

  const ids = async (h: CaptureHarness, query: string) => {
    const res = await h.get<Page>(`/api/gateway/records${query}`);
    assert.is(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
    return res.body.data.map((r) => r.id);
  };
  const expect = async ({ h, ex }: { h: CaptureHarness; ex: Record<string, RawExchange> }, query: string, names: string[]) => {
    assert.equal(await ids(h, query), names.map((n) => ex[n].id), query);
  };

  records('no filter: every record, newest first, with the default page', async (ctx) => {
    const res = await ctx.h.get<Page>('/api/gateway/records');
    assert.is(res.body.limit, 50);
    assert.is(res.body.offset, 0);
    assert.equal(res.body.data.map((r) => r.id), ['noAnswer', 'unmatched', 'upper', 'users', 'orders404', 'oldError'].map((n) => ctx.ex[n].id));
    assert.is(res.body.data[0].status, 0);
  });

  records('route: any matched glob, exactly (case, _ and % are literal)', async (ctx) => {
    await expect(ctx, '?route=/api/orders/**', ['noAnswer', 'upper', 'orders404', 'oldError']);
    await expect(ctx, `?route=${encodeURIComponent('/api/**')}`, ['noAnswer', 'upper', 'users', 'orders404', 'oldError']);
    await expect(ctx, '?route=/api/user_items/**', ['users']);
    await expect(ctx, '?route=/api/user%25items/**', []);
    await expect(ctx, '?route=/api/userXitems/**', []);
    await expect(ctx, '?route=/API/Orders/**', ['noAnswer', 'upper', 'orders404', 'oldError']);
    await expect(ctx, '?route=/api/orders', []);
    await expect(ctx, '?route=unmatched', []);
  });

  records('status: an exact code or a class', async (ctx) => {
    await expect(ctx, '?status=404', ['orders404']);
    await expect(ctx, '?status=4xx', ['orders404']);
    await expect(ctx, '?status=5xx', ['oldError']);
    await expect(ctx, '?status=2xx', ['unmatched', 'upper', 'users']);
    await expect(ctx, '?status=201', ['users']);
    await expect(ctx, '?status=3xx', []);
    await expect(ctx, '?status=0', ['noAnswer']);
  });

  records('since: a duration back from now, epoch ms, or an ISO date-time', async (ctx) => {
    await expect(ctx, '?since=15m', ['noAnswer', 'unmatched']);
    await expect(ctx, '?since=1h', ['noAnswer', 'unmatched', 'upper', 'users']);
    await expect(ctx, `?since=${ctx.now - 25 * MINUTE}`, ['noAnswer', 'unmatched', 'upper']);
    await expect(ctx, `?since=${encodeURIComponent(new Date(ctx.now - 3 * HOUR).toISOString())}`, ['noAnswer', 'unmatched', 'upper', 'users', 'orders404']);
    await expect(ctx, '?since=0', ['noAnswer', 'unmatched', 'upper', 'users', 'orders404', 'oldError']);
  });

  records('label.<name>=<value>: one or several labels, exact values', async (ctx) => {
    await expect(ctx, '?label.tenant=acme', ['noAnswer', 'users', 'oldError']);
    await expect(ctx, '?label.tenant=acme&label.plan=pro', ['noAnswer', 'oldError']);
    await expect(ctx, '?label.tenant=beta', ['orders404']);
    await expect(ctx, '?label.tenant=ACME', []);
    await expect(ctx, '?label.tenant=nobody', []);
    await expect(ctx, '?label.team=acme', []);
  });

  records('filters combine', async (ctx) => {
    await expect(ctx, '?label.tenant=acme&status=5xx', ['oldError']);
    await expect(ctx, '?route=/api/orders/**&since=1h', ['noAnswer', 'upper']);
    await expect(ctx, '?route=/api/orders/**&status=4xx&label.plan=free&since=1d', ['orders404']);
  });

  records('limit and offset page through the newest-first list', async (ctx) => {
    const first = await ctx.h.get<Page>('/api/gateway/records?limit=2');
    assert.is(first.body.limit, 2);
    assert.equal(first.body.data.map((r) => r.id), [ctx.ex.noAnswer.id, ctx.ex.unmatched.id]);
    const second = await ctx.h.get<Page>('/api/gateway/records?limit=2&offset=2');
    assert.is(second.body.offset, 2);
    assert.equal(second.body.data.map((r) => r.id), [ctx.ex.upper.id, ctx.ex.users.id]);
    const past = await ctx.h.get<Page>('/api/gateway/records?offset=100');
    assert.equal(past.body.data, []);
  });

  records('before and after: cursors that walk the list both ways, with filters, and end where the records end', async (ctx) => {
    const names = ['noAnswer', 'unmatched', 'upper', 'users', 'orders404', 'oldError'];
    const first = await ctx.h.get<Page>('/api/gateway/records?limit=2');
    assert.is(first.body.prev, null, 'the newest page has nothing newer');
    assert.is(first.body.next, `${first.body.data[1].time}.${first.body.data[1].id}`);
    const seen: string[] = [];
    let page = first.body;
    const cursors: string[] = [];
    for (;;) {
      seen.push(...page.data.map((r) => r.id));
      if (!page.next) break;
      cursors.push(page.next);
      page = (await ctx.h.get<Page>(`/api/gateway/records?limit=2&before=${encodeURIComponent(page.next)}`)).body;
      assert.is(page.prev, `${page.data[0].time}.${page.data[0].id}`);
    }
    assert.equal(seen, names.map((n) => ctx.ex[n].id), 'every record once, in order');
    assert.is(cursors.length, 2, 'the last page says there is nothing older');
    // Back up from the last page: after= gives the records just newer than its first one.
    const up = (await ctx.h.get<Page>(`/api/gateway/records?limit=2&after=${encodeURIComponent(page.prev!)}`)).body;
    assert.equal(up.data.map((r) => r.id), [ctx.ex.upper.id, ctx.ex.users.id]);
    assert.is(up.prev, `${up.data[0].time}.${up.data[0].id}`, 'newer records remain');
    assert.is(up.next, `${up.data[1].time}.${up.data[1].id}`);
    const top = (await ctx.h.get<Page>(`/api/gateway/records?limit=2&after=${encodeURIComponent(up.prev!)}`)).body;
    assert.equal(top.data.map((r) => r.id), [ctx.ex.noAnswer.id, ctx.ex.unmatched.id]);
    assert.is(top.prev, null, 'the newest records: nothing above');
    // With a filter, the cursor pages through the matches only.
    const acme = (await ctx.h.get<Page>('/api/gateway/records?label.tenant=acme&limit=1')).body;
    assert.equal(acme.data.map((r) => r.id), [ctx.ex.noAnswer.id]);
    const acme2 = (await ctx.h.get<Page>(`/api/gateway/records?label.tenant=acme&limit=1&before=${encodeURIComponent(acme.next!)}`)).body;
    assert.equal(acme2.data.map((r) => r.id), [ctx.ex.users.id]);
    const acme3 = (await ctx.h.get<Page>(`/api/gateway/records?label.tenant=acme&limit=1&before=${encodeURIComponent(acme2.next!)}`)).body;
    assert.equal(acme3.data.map((r) => r.id), [ctx.ex.oldError.id]);
    assert.is(acme3.next, null);
    // A cursor no record has still places the page: by time, then id.
    const at = (await ctx.h.get<Page>(`/api/gateway/records?before=${ctx.now - 25 * MINUTE}.zzz`)).body;
    assert.equal(at.data.map((r) => r.id), ['users', 'orders404', 'oldError'].map((n) => ctx.ex[n].id));
  });

  records('records of the same millisecond: the cursor splits them by id, none lost or repeated, both ways', async (ctx) => {
    const time = ctx.now - 7 * MINUTE;
    const ties = Array.from({ length: 5 }, () => exchange(policy, { target: '/api/orders/9', time, labels: { tenant: 'tie' } }));
    await ctx.h.feed(ties);
    const all = (await ctx.h.get<Page>('/api/gateway/records?label.tenant=tie')).body.data.map((r) => r.id);
    assert.equal([...all].sort(), ties.map((e) => e.id).sort());
    const walked: string[] = [];
    let page = (await ctx.h.get<Page>('/api/gateway/records?label.tenant=tie&limit=2')).body;
    for (;;) {
      walked.push(...page.data.map((r) => r.id));
      if (!page.next) break;
      page = (await ctx.h.get<Page>(`/api/gateway/records?label.tenant=tie&limit=2&before=${encodeURIComponent(page.next)}`)).body;
    }
    assert.equal(walked, all);
    const back = (await ctx.h.get<Page>(`/api/gateway/records?label.tenant=tie&limit=2&after=${encodeURIComponent(page.prev!)}`)).body;
    assert.equal(back.data.map((r) => r.id), all.slice(2, 4));
  });

  records('bad parameters are 400s that say which parameter and why', async (ctx) => {
    const cases: [string, RegExp][] = [
      ['?limit=0', /limit/],
      ['?limit=abc', /limit/],
      ['?limit=1.5', /limit/],
      ['?offset=-1', /offset/],
      ['?status=600', /status/],
      ['?status=2XX', /status/],
      ['?status=ok', /status/],
      ['?status=099', /status/],
      ['?status=00', /status/],
      ['?since=yesterday', /since must be epoch milliseconds/],
      ['?since=2024-02-30', /since/],
      ['?frobnicate=1', /frobnicate/],
      ['?label.bad-name=x', /label\.bad-name/],
      ['?label.=x', /label\./],
      ['?route=a&route=b', /route/],
      ['?before=abc', /before/],
      ['?before=12', /before/],
      ['?after=12.a%20b', /after/],
      ['?before=1.a&after=1.a', /before, after and offset/],
      ['?before=1.a&offset=50', /before, after and offset/],
    ];
    for (const [query, message] of cases) {
      const res = await ctx.h.get<ApiError>(`/api/gateway/records${query}`);
      assert.is(res.status, 400, query);
      assert.type(res.body.error?.code, 'string', query);
      assert.match(res.body.error.message, message, query);
    }
    const since = await ctx.h.get<ApiError>('/api/gateway/records?since=yesterday');
    assert.is(since.body.error.code, 'VIGIL_ERR_CAPTURE_SINCE');
    const page = await ctx.h.get<ApiError>('/api/gateway/records?after=1.a&offset=5');
    assert.is(page.body.error.code, 'VIGIL_ERR_CAPTURE_PAGE');
  });

  records('GET /records/:id: the stored record; an unknown id is a 404 in JSON', async (ctx) => {
    const one = await ctx.h.get<GovernedRecord>(`/api/gateway/records/${ctx.ex.users.id}`);
    assert.is(one.status, 200);
    assert.is(one.body.id, ctx.ex.users.id);
    assert.equal(one.body.matched_rules, ['api', 'users', 'item-3']);
    for (const id of ['does-not-exist', encodeURIComponent("' OR 1=1 --")]) {
      const missing = await ctx.h.get<ApiError>(`/api/gateway/records/${id}`);
      assert.is(missing.status, 404, id);
      assert.match(missing.headers.get('content-type') ?? '', /application\/json/);
      assert.is(missing.body.error.code, 'VIGIL_ERR_CAPTURE_RECORD_NOT_FOUND');
      assert.match(missing.body.error.message, /no record with id/);
    }
  });

  records('the API needs the dashboard credentials', async (ctx) => {
    const res = await ctx.h.rt.fetch('/api/gateway/records', { auth: false });
    assert.is(res.status, 401);
    const one = await ctx.h.rt.fetch(`/api/gateway/records/${ctx.ex.users.id}`, { auth: false });
    assert.is(one.status, 401);
  });

  records.run();
}

// The limit cap needs more than 200 records; SQLite is enough for the arithmetic of a page.
const cap = suite<{ h: CaptureHarness }>('GET /api/gateway/records limit cap');

cap.before(async (ctx) => {
  ctx.h = await startCapture({ policy });
  await ctx.h.feed(Array.from({ length: 205 }, (_, i) => exchange(policy, { target: `/api/orders/${i}`, time: Date.now() - i })));
});
cap.after(async (ctx) => { await ctx.h.stop(); });

cap('limit above 200 is answered with 200 records and limit 200', async ({ h }) => {
  const res = await h.get<Page>('/api/gateway/records?limit=1000');
  assert.is(res.status, 200);
  assert.is(res.body.limit, 200);
  assert.is(res.body.data.length, 200);
  const rest = await h.get<Page>('/api/gateway/records?limit=1000&offset=200');
  assert.is(rest.body.data.length, 5);
});

cap('the default page is 50', async ({ h }) => {
  const res = await h.get<Page>('/api/gateway/records');
  assert.is(res.body.data.length, 50);
});

cap.run();
