// GET /api/gateway/policy/usage: what each rule matched, by method and path shape, on SQLite and PostgreSQL, from
// records governed and stored by the real telemetry lane.
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PolicyConfig } from '../../../../../policies/schema.js';
import { ROUTES_PER_RULE } from '../../../../../plugins/capture/routes/rule-usage.js';
import { openStore } from '../../../../../runtime/store/index.js';
import { captureBackends, exchange, startCapture, type CaptureHarness } from '../capture-harness.js';

const backends = await captureBackends('capture_rule_usage_route');

const policy: PolicyConfig = {
  rules: [
    { name: 'api', match: { path: '/api/**' } },
    { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body', 'response_body'] },
    { name: 'payments', match: { path: '/api/payments/**' }, redact: { detect: ['card_number'] } },
    { name: 'bulk', match: { path: '/bulk/**' } },
  ],
};
const DAY = 86_400_000;

interface Route { method: string; path: string; requests: number }
interface Usage { rule: string | null; requests: number; routes: Route[]; other_routes: number; other_requests: number }
interface Answer { range: string; from: number; to: number; rules: Usage[]; unmatched: Usage }

const call = (method: string, target: string, time = Date.now()) => exchange(policy, { method, target, time });

for (const backend of backends) {
  const usage = suite<{ h: CaptureHarness; storage?: { url: string } }>(`GET /api/gateway/policy/usage (${backend.name})`);

  usage.before(async (ctx) => {
    ctx.storage = await backend.storage();
    ctx.h = await startCapture({ policy, storage: ctx.storage });
    await ctx.h.feed([
      call('GET', '/api/users/17'), call('GET', '/api/users/18?x=1'), call('GET', '/api/users/550e8400-e29b-41d4-a716-446655440000'),
      call('GET', '/api/users/17/orders'),
      call('POST', '/admin/users'), call('POST', '/admin/users'), call('GET', '/ADMIN/users'),
      call('POST', '/api/payments/4111111111111111/refund'),
      call('GET', '/health'), call('GET', '/health'),
      ...Array.from({ length: ROUTES_PER_RULE + 5 }, (_, i) => call('PUT', `/bulk/item-${String.fromCharCode(97 + i)}`)),
      call('PUT', '/bulk/item-a'),
      // Three days ago: in 7d, not in 24h.
      call('DELETE', '/admin/users/9', Date.now() - 3 * DAY),
    ]);
  });
  usage.after(async (ctx) => {
    await ctx.h.stop();
    await backend.cleanup();
  });

  usage('each rule with the requests it matched, by method and path shape, busiest first', async ({ h }) => {
    const res = await h.get<Answer>('/api/gateway/policy/usage?range=24h');
    assert.is(res.status, 200);
    assert.is(res.body.range, '24h');
    assert.ok(res.body.to - res.body.from === DAY);
    const rule = (name: string) => res.body.rules.find((r) => r.rule === name);
    // Rules busiest first: bulk 26, api 5, admin 3 (payments 1).
    assert.equal(res.body.rules.map((r) => r.rule), ['bulk', 'api', 'admin', 'payments']);
    assert.equal(rule('api'), {
      rule: 'api', requests: 5,
      // Digits and UUIDs are one route; the query is not part of the path.
      routes: [
        { method: 'GET', path: '/api/users/{id}', requests: 3 },
        { method: 'GET', path: '/api/users/{id}/orders', requests: 1 },
        // The card number the rule's detector masks in the path stays masked here.
        { method: 'POST', path: '/api/payments/[REDACTED]/refund', requests: 1 },
      ],
      other_routes: 0, other_requests: 0,
    });
    // Spellings stay as received: the fold made /ADMIN/users match, and the page shows that it did.
    assert.equal(rule('admin')?.routes, [
      { method: 'POST', path: '/admin/users', requests: 2 },
      { method: 'GET', path: '/ADMIN/users', requests: 1 },
    ]);
    assert.equal(rule('payments')?.routes, [{ method: 'POST', path: '/api/payments/[REDACTED]/refund', requests: 1 }]);
    assert.equal(res.body.unmatched, { rule: null, requests: 2, routes: [{ method: 'GET', path: '/health', requests: 2 }], other_routes: 0, other_requests: 0 });
  });

  usage(`at most ${ROUTES_PER_RULE} routes per rule; the rest are counted`, async ({ h }) => {
    const { body } = await h.get<Answer>('/api/gateway/policy/usage');
    const bulk = body.rules.find((r) => r.rule === 'bulk')!;
    assert.is(bulk.requests, ROUTES_PER_RULE + 6);
    assert.is(bulk.routes.length, ROUTES_PER_RULE);
    assert.equal(bulk.routes[0], { method: 'PUT', path: '/bulk/item-a', requests: 2 });
    assert.is(bulk.other_routes, 5);
    assert.is(bulk.other_requests, 5);
    assert.is(bulk.routes.reduce((n, r) => n + r.requests, 0) + bulk.other_requests, bulk.requests);
  });

  usage('7d takes in the older requests; other ranges are a 400 that names the parameter', async ({ h }) => {
    const week = await h.get<Answer>('/api/gateway/policy/usage?range=7d');
    const admin = week.body.rules.find((r) => r.rule === 'admin')!;
    assert.is(admin.requests, 4);
    assert.ok(admin.routes.some((r) => r.method === 'DELETE' && r.path === '/admin/users/{id}'));
    for (const range of ['1h', '30d']) {
      const bad = await h.get<{ error: { code: string; message: string } }>(`/api/gateway/policy/usage?range=${range}`);
      assert.is(bad.status, 400);
      assert.match(bad.body.error.message, /range/);
    }
    const anonymous = await h.rt.fetch('/api/gateway/policy/usage', { auth: false });
    assert.is(anonymous.status, 401);
  });

  if (backend.name === 'sqlite') {
    usage('the range reads its hours through the primary key, not the whole table', async ({ h }) => {
      const store = await openStore(`sqlite:${join(h.rt.dataDir, 'vigil.db')}`);
      try {
        const plan = await store.forPlugin('capture').query<{ detail: string }>(
          'EXPLAIN QUERY PLAN SELECT rule, method, path, SUM(requests) FROM capture_rule_paths WHERE bucket >= ? AND bucket < ? GROUP BY rule, method, path', [0, 1]);
        assert.ok(plan.some((p) => /SEARCH capture_rule_paths USING INDEX sqlite_autoindex_capture_rule_paths_1 \(bucket>\? AND bucket<\?\)/.test(p.detail)),
          JSON.stringify(plan));
      } finally {
        await store.close();
      }
    });
  }

  usage.run();
}
