// GET /api/gateway/usage/series: per-step requests, tokens and cost of the top tenants and the rest, on SQLite and
// PostgreSQL, through a real runtime's control plane.
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PolicyConfig } from '../../../../../policies/schema.js';
import { rankTenants } from '../../../../../plugins/capture/routes/usage-series.js';
import { captureBackends, exchange, startCapture, type CaptureHarness } from '../capture-harness.js';

const backends = await captureBackends('capture_usage_series');

const policy: PolicyConfig = {
  rules: [{ name: 'llm', match: { path: '/v1/**' }, labels: { org: 'header:X-Org' }, meter: { tokens: '$.usage.total_tokens' } }],
};
const pricing = { per_1k_tokens: 2, per_request: 0.01, currency: 'GBP' };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEP_24H = 15 * 60_000;

type Points = { requests: number[]; tokens: number[]; cost: number[] };
interface Series {
  range: string; from: number; to: number; step_ms: number; by: string; tenant_label: string; currency: string;
  pricing: { per_1k_tokens: number; per_request: number };
  totals: { requests: number; tokens: number; cost: number; tenants: number };
  times: number[];
  series: { tenant: string; requests: number; tokens: number; cost: number; points: Points }[];
  other: { tenants: number; requests: number; tokens: number; cost: number; points: Points };
}

const call = (tenant: string | null, tokens: number, time: number) => exchange(policy, {
  target: '/v1/chat/completions',
  labels: tenant === null ? {} : { org: tenant },
  responseBody: { usage: { total_tokens: tokens } },
  time,
});

/** The index of the step holding `time`. */
const stepOf = (s: Series, time: number) => s.times.findIndex((t) => t <= time && time < t + s.step_ms);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

for (const backend of backends) {
  const series = suite<{ h: CaptureHarness; now: number; earlier: number }>(`GET /api/gateway/usage/series (${backend.name})`);

  series.before(async (ctx) => {
    ctx.h = await startCapture({ policy, storage: await backend.storage(), capture: { tenant_label: 'org', pricing } });
    const now = Date.now();
    ctx.now = now;
    ctx.earlier = now - 2 * HOUR;
    // Requests: acme 4, beta 3, gamma 2, delta 1, unlabelled 1. Tokens: gamma leads (9000), then acme (400).
    await ctx.h.feed([
      call('acme', 100, now), call('acme', 100, now), call('acme', 100, ctx.earlier), call('acme', 100, ctx.earlier),
      call('beta', 0, now), call('beta', 0, now), call('beta', 0, ctx.earlier),
      call('gamma', 4500, now), call('gamma', 4500, ctx.earlier),
      call('delta', 10, now),
      call(null, 5, now),
      call('acme', 50_000, now - 3 * DAY),
    ]);
  });
  series.after(async (ctx) => {
    await ctx.h.stop();
    await backend.cleanup();
  });

  series('the top tenants by requests, each step, and the rest summed under other', async ({ h, now, earlier }) => {
    const res = await h.get<Series>('/api/gateway/usage/series?range=24h&top=2');
    assert.is(res.status, 200);
    const s = res.body;
    assert.is(s.step_ms, STEP_24H);
    assert.is(s.tenant_label, 'org');
    assert.is(s.currency, 'GBP');
    assert.equal(s.pricing, { per_1k_tokens: 2, per_request: 0.01 });
    assert.equal(s.series.map((t) => t.tenant), ['acme', 'beta']);
    // acme: 4 requests, 400 tokens: 0.4 × 2 + 4 × 0.01.
    assert.equal({ ...s.series[0], points: undefined }, { tenant: 'acme', requests: 4, tokens: 400, cost: 0.84, points: undefined });
    assert.equal(s.totals, { requests: 11, tokens: 9415, cost: 18.94, tenants: 5 });
    assert.equal({ ...s.other, points: undefined }, { tenants: 3, requests: 4, tokens: 9015, cost: 18.07, points: undefined });

    const nowAt = stepOf(s, now);
    const earlierAt = stepOf(s, earlier);
    assert.ok(nowAt > earlierAt && earlierAt >= 0);
    const acme = s.series[0].points;
    assert.is(acme.requests[nowAt], 2);
    assert.is(acme.requests[earlierAt], 2);
    assert.is(acme.tokens[nowAt], 200);
    assert.is(acme.cost[nowAt], 0.42);
    // gamma 1 + delta 1 + unlabelled 1 now; gamma 1 two hours ago.
    assert.is(s.other.points.requests[nowAt], 3);
    assert.is(s.other.points.requests[earlierAt], 1);
    assert.is(s.other.points.tokens[nowAt], 4515);
    // Every request is in exactly one series, in exactly one step.
    assert.is(sum(s.series.flatMap((t) => t.points.requests)) + sum(s.other.points.requests), 11);
    for (const t of s.series) assert.is(sum(t.points.requests), t.requests, `${t.tenant}'s points add up to its total`);
  });

  series('steps cover the range without gaps; a quiet step is zero, never missing', async ({ h }) => {
    const s = (await h.get<Series>('/api/gateway/usage/series?range=24h')).body;
    assert.ok(s.times[0] <= s.from && s.times[0] % STEP_24H === 0);
    assert.ok(s.times[s.times.length - 1] < s.to && s.times[s.times.length - 1] + STEP_24H >= s.to);
    for (let i = 1; i < s.times.length; i++) assert.is(s.times[i] - s.times[i - 1], STEP_24H);
    for (const p of [...s.series.map((t) => t.points), s.other.points]) {
      for (const column of [p.requests, p.tokens, p.cost]) {
        assert.is(column.length, s.times.length);
        assert.ok(column.every((v) => typeof v === 'number' && v >= 0));
      }
    }
    assert.is(s.series.length, 5, 'top 5 by default; all five tenants of the day fit');
    assert.is(s.other.tenants, 0);
    assert.ok(s.other.points.requests.every((v) => v === 0));
    const hour = (await h.get<Series>('/api/gateway/usage/series?range=1h')).body;
    assert.is(hour.step_ms, 60_000);
    assert.is(hour.totals.requests, 7, 'two hours ago is outside the last hour');
  });

  series('ranked by tokens or by cost; 7d takes in the older usage', async ({ h }) => {
    const tokens = (await h.get<Series>('/api/gateway/usage/series?range=24h&by=tokens&top=2')).body;
    assert.is(tokens.by, 'tokens');
    assert.equal(tokens.series.map((t) => t.tenant), ['gamma', 'acme']);
    const cost = (await h.get<Series>('/api/gateway/usage/series?range=24h&by=cost&top=3')).body;
    assert.equal(cost.series.map((t) => [t.tenant, t.cost]), [['gamma', 18.02], ['acme', 0.84], ['beta', 0.03]]);
    const week = (await h.get<Series>('/api/gateway/usage/series?range=7d&top=1')).body;
    assert.is(week.step_ms, HOUR);
    assert.equal({ ...week.series[0], points: undefined }, { tenant: 'acme', requests: 5, tokens: 50_400, cost: 100.85, points: undefined });
  });

  series('named tenants instead of the top ones: the unlabelled tenant, and one without usage, as zeros', async ({ h, now }) => {
    const s = (await h.get<Series>('/api/gateway/usage/series?range=24h&tenant=&tenant=delta&tenant=nobody')).body;
    assert.equal(s.series.map((t) => [t.tenant, t.requests, t.tokens]), [['', 1, 5], ['delta', 1, 10], ['nobody', 0, 0]]);
    assert.is(s.series[0].points.requests[stepOf(s, now)], 1);
    assert.ok(s.series[2].points.requests.every((v) => v === 0));
    assert.equal({ ...s.other, points: undefined }, { tenants: 3, requests: 9, tokens: 9400, cost: 18.89, points: undefined });
  });

  series('the same totals as the usage list', async ({ h }) => {
    const list = (await h.get<{ data: { requests: number; tokens: number }[] }>('/api/gateway/usage?range=7d')).body;
    const s = (await h.get<Series>('/api/gateway/usage/series?range=7d')).body;
    assert.is(s.totals.requests, sum(list.data.map((t) => t.requests)));
    assert.is(s.totals.tokens, sum(list.data.map((t) => t.tokens)));
    assert.is(s.totals.tenants, list.data.length);
  });

  series('bad parameters are 400s that name them; credentials are needed like everywhere', async ({ h }) => {
    for (const [query, name] of [['top=0', 'top'], ['top=11', 'top'], ['by=latency', 'by'], ['range=30d', 'range'], ['colour=red', 'colour']]) {
      const res = await h.get<{ error: { code: string; message: string } }>(`/api/gateway/usage/series?${query}`);
      assert.is(res.status, 400, query);
      assert.match(res.body.error.message + JSON.stringify(res.body.error), new RegExp(name), query);
    }
    const many = Array.from({ length: 11 }, (_, i) => `tenant=t${i}`).join('&');
    assert.is((await h.get(`/api/gateway/usage/series?${many}`)).status, 400);
    assert.is((await h.rt.fetch('/api/gateway/usage/series', { auth: false })).status, 401);
  });

  series.run();
}

test('rankTenants: by the measure, then requests, then name; the input is left as it was', () => {
  const t = (tenant: string, requests: number, tokens: number, cost: number) => ({ tenant, requests, tokens, cost });
  const input = [t('b', 5, 10, 1), t('a', 5, 10, 1), t('c', 9, 0, 0.5), t('d', 1, 99, 3)];
  assert.equal(rankTenants(input, 'requests').map((x) => x.tenant), ['c', 'a', 'b', 'd']);
  assert.equal(rankTenants(input, 'tokens').map((x) => x.tenant), ['d', 'a', 'b', 'c']);
  assert.equal(rankTenants(input, 'cost').map((x) => x.tenant), ['d', 'a', 'b', 'c']);
  assert.equal(input.map((x) => x.tenant), ['b', 'a', 'c', 'd']);
});

test.run();
