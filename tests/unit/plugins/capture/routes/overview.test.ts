// GET /api/gateway/overview against known inputs, on SQLite and PostgreSQL.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PolicyConfig } from '../../../../../policies/schema.js';
import { captureBackends, exchange, startCapture, type CaptureHarness } from '../capture-harness.js';

const backends = await captureBackends('capture_overview_route');

const policy: PolicyConfig = {
  rules: [
    { name: 'orders', match: { path: '/api/orders/**' }, meter: { tokens: '$.usage.tokens' } },
    { name: 'users', match: { path: '/api/users/**' } },
  ],
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Summary { requests: number; errors: number; error_rate: number; p95_ms: number | null; p99_ms: number | null; tokens: number }
interface Overview extends Summary {
  range: string; from: number; to: number; step_ms: number;
  volume: (Summary & { time: number })[];
  top_routes: (Summary & { route: string })[];
}

for (const backend of backends) {
  const overview = suite<{ h: CaptureHarness; now: number }>(`GET /api/gateway/overview (${backend.name})`);

  overview.before(async (ctx) => {
    ctx.h = await startCapture({ policy, storage: await backend.storage() });
    const now = Date.now();
    ctx.now = now;
    // The last hour: 100 exchanges. Latency: 90 at 15 ms, 5 at 150 ms, 4 at 700 ms, 1 at 3 s. Errors: three 500s on
    // orders, one unanswered (status 0) on users. Routes: 70 orders, 30 users. 60 half an hour ago, 40 five minutes ago.
    const lastHour = Array.from({ length: 100 }, (_, i) => exchange(policy, {
      target: i % 10 < 7 ? `/api/orders/${i}` : `/api/users/${i}`,
      durationMs: i < 90 ? 15 : i < 95 ? 150 : i < 99 ? 700 : 3000,
      status: i === 10 || i === 20 || i === 30 ? 500 : i === 47 ? 0 : 200,
      time: i < 60 ? now - 30 * MINUTE : now - 5 * MINUTE,
      responseBody: { usage: { tokens: 10 } },
    }));
    // Outside the hour: 10 three hours ago (in 24h), 5 three days ago (only in 7d), 2 eight days ago (in none).
    const older = [
      ...Array.from({ length: 10 }, () => exchange(policy, { target: '/api/users/x', durationMs: 15, time: now - 3 * HOUR })),
      ...Array.from({ length: 5 }, () => exchange(policy, { target: '/api/users/y', durationMs: 15, status: 502, time: now - 3 * 24 * HOUR })),
      ...Array.from({ length: 2 }, () => exchange(policy, { target: '/api/users/z', durationMs: 15, time: now - 8 * 24 * HOUR })),
    ];
    await ctx.h.feed([...lastHour, ...older]);
  });
  overview.after(async (ctx) => {
    await ctx.h.stop();
    await backend.cleanup();
  });

  overview('1h: totals, error rate and latency percentiles of the last hour', async ({ h }) => {
    const res = await h.get<Overview>('/api/gateway/overview?range=1h');
    assert.is(res.status, 200);
    const o = res.body;
    assert.is(o.range, '1h');
    assert.is(o.requests, 100);
    assert.is(o.errors, 4);
    assert.is(o.error_rate, 0.04);
    assert.is(o.tokens, 700, '70 metered orders × 10 tokens');
    // rank 95 ends the (100, 200] bucket, rank 99 the (500, 1000] bucket.
    assert.ok(o.p95_ms! > 100 && o.p95_ms! <= 200, `p95 ${o.p95_ms} within (100, 200]`);
    assert.ok(o.p99_ms! > 500 && o.p99_ms! <= 1000, `p99 ${o.p99_ms} within (500, 1000]`);
    assert.is(o.p95_ms, 200);
    assert.is(o.p99_ms, 1000);
  });

  overview('1h: volume has one point per minute, zeros included, holding the two busy minutes', async ({ h, now }) => {
    const { body: o } = await h.get<Overview>('/api/gateway/overview?range=1h');
    assert.is(o.step_ms, MINUTE);
    assert.ok(o.volume.length >= 60 && o.volume.length <= 61, `${o.volume.length} points`);
    for (let i = 1; i < o.volume.length; i++) assert.is(o.volume[i].time - o.volume[i - 1].time, MINUTE);
    assert.is(o.volume.reduce((n, p) => n + p.requests, 0), 100);
    const at = (t: number) => o.volume.find((p) => p.time === Math.floor(t / MINUTE) * MINUTE);
    assert.is(at(now - 30 * MINUTE)?.requests, 60);
    assert.is(at(now - 5 * MINUTE)?.requests, 40);
    const busy = o.volume.filter((p) => p.requests > 0);
    assert.is(busy.length, 2);
    const quiet = o.volume.find((p) => p.requests === 0)!;
    assert.equal({ errors: quiet.errors, error_rate: quiet.error_rate, p95: quiet.p95_ms }, { errors: 0, error_rate: 0, p95: null });
  });

  overview('1h: top routes by requests, each with its own error rate and percentiles', async ({ h }) => {
    const { body: o } = await h.get<Overview>('/api/gateway/overview?range=1h');
    assert.equal(o.top_routes.map((r) => [r.route, r.requests, r.errors]), [['/api/orders/**', 70, 3], ['/api/users/**', 30, 1]]);
    const orders = o.top_routes[0];
    assert.is(orders.error_rate, 3 / 70);
    // Orders (i % 10 < 7): 63 at 15 ms, 5 at 150 ms, 2 at 700 ms. Users: 27 at 15 ms, 2 at 700 ms, 1 at 3 s.
    assert.ok(orders.p99_ms! > 500 && orders.p99_ms! <= 1000, `orders p99 ${orders.p99_ms}`);
    const users = o.top_routes[1];
    assert.is(users.error_rate, 1 / 30);
    assert.ok(users.p99_ms! > 2000 && users.p99_ms! <= 5000, `users p99 ${users.p99_ms}: the 3 s exchange is a user's`);
  });

  overview('tokens are metered per point of volume and per route, adding up to the total', async ({ h, now }) => {
    const { body: o } = await h.get<Overview>('/api/gateway/overview?range=1h');
    const at = (t: number) => o.volume.find((p) => p.time === Math.floor(t / MINUTE) * MINUTE)!;
    // Orders are i % 10 < 7: 42 of the first 60 exchanges (30 minutes ago), 28 of the last 40 (5 minutes ago).
    assert.is(at(now - 30 * MINUTE).tokens, 420);
    assert.is(at(now - 5 * MINUTE).tokens, 280);
    assert.is(o.volume.reduce((n, p) => n + p.tokens, 0), o.tokens);
    assert.equal(o.top_routes.map((r) => [r.route, r.tokens]), [['/api/orders/**', 700], ['/api/users/**', 0]]);
  });

  overview('24h and 7d take in the older exchanges; eight days ago is in none', async ({ h }) => {
    const day = (await h.get<Overview>('/api/gateway/overview?range=24h')).body;
    assert.is(day.requests, 110);
    assert.is(day.step_ms, 15 * MINUTE);
    assert.ok(day.volume.length >= 96 && day.volume.length <= 97);
    assert.is(day.volume.reduce((n, p) => n + p.requests, 0), 110);
    const week = (await h.get<Overview>('/api/gateway/overview?range=7d')).body;
    assert.is(week.requests, 115);
    assert.is(week.errors, 4 + 5);
    assert.is(week.step_ms, HOUR);
    assert.ok(week.volume.length >= 168 && week.volume.length <= 169);
    assert.equal(week.top_routes.map((r) => [r.route, r.requests]), [['/api/orders/**', 70], ['/api/users/**', 45]]);
  });

  overview('no range means 24h; an unknown range is a 400', async ({ h }) => {
    const res = await h.get<Overview>('/api/gateway/overview');
    assert.is(res.body.range, '24h');
    assert.is(res.body.requests, 110);
    for (const bad of ['2h', '1H', 'all', '']) {
      const r = await h.get<{ error: { code: string; message: string } }>(`/api/gateway/overview?range=${bad}`);
      assert.is(r.status, 400, bad);
      assert.match(r.body.error.message, /range/);
    }
  });

  overview.run();
}

const empty = suite('GET /api/gateway/overview with nothing captured');

empty('zeros and null percentiles, never NaN', async () => {
  const h = await startCapture({ policy });
  try {
    const { body: o } = await h.get<Overview>('/api/gateway/overview?range=1h');
    assert.equal([o.requests, o.errors, o.error_rate, o.p95_ms, o.p99_ms, o.tokens], [0, 0, 0, null, null, 0]);
    assert.equal(o.top_routes, []);
    assert.ok(o.volume.every((p) => p.requests === 0));
  } finally {
    await h.stop();
  }
});

empty.run();
