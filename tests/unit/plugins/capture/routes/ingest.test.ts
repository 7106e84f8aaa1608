// POST /api/gateway/records on SQLite and PostgreSQL: a record governed elsewhere is stored through capture's writer
// (listed, counted in the rollups, published for the exporters, metered), a retry is not stored twice, and the
// dashboard token does not open the route.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { uuidv7, type GovernedRecord } from '@vigil/plugin-sdk';
import type { PolicyConfig } from '../../../../../policies/schema.js';
import { captureBackends, exchange, startCapture, type CaptureHarness } from '../capture-harness.js';

const backends = await captureBackends('capture_ingest_route');
const INGEST = 'ingest-route-test-token-0123';
const policy: PolicyConfig = { rules: [{ name: 'api', match: { path: '/api/**' }, labels: { tenant: 'header:X-Tenant' } }] };

for (const backend of backends) {
  const ingest = suite<{ h: CaptureHarness; storage?: { url: string }; template: GovernedRecord }>(`POST /api/gateway/records (${backend.name})`);

  ingest.before(async (ctx) => {
    ctx.storage = await backend.storage();
    ctx.h = await startCapture({ policy, storage: ctx.storage, capture: { ingest_token: INGEST, batch_delay: '5ms' } });
    // A record as the real lane governs it: the shape the middleware sends.
    [ctx.template] = await ctx.h.feed([exchange(policy, { method: 'GET', target: '/api/template' })]);
  });
  ingest.after(async (ctx) => {
    await ctx.h.stop();
    await backend.cleanup();
  });

  const post = (h: CaptureHarness, records: unknown[], token: string | null = INGEST) => h.rt.fetch('/api/gateway/records', {
    method: 'POST', auth: false, body: JSON.stringify({ records }),
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

  ingest('stored like the lane\'s own records: listed, in the rollups, published, metered', async ({ h, template }) => {
    const record = { ...template, id: uuidv7(), path: '/api/ingested', labels: { tenant: 'acme' }, tokens: 42, status: 503 };
    const res = await post(h, [record]);
    assert.is(res.status, 200);
    assert.equal(await res.json(), { stored: 1, duplicates: 0 });
    const listed = await h.get<{ data: GovernedRecord[] }>(`/api/gateway/records/${record.id}`);
    assert.equal(listed.body, record);
    const overview = await h.get<{ requests: number; errors: number; tokens: number }>('/api/gateway/overview?range=1h');
    assert.equal({ requests: overview.body.requests, errors: overview.body.errors, tokens: overview.body.tokens }, { requests: 2, errors: 1, tokens: 42 });
    assert.ok(h.received.some((r) => r.id === record.id), 'published on gateway.record');
    assert.match(await h.rt.metrics(), /vigil_tokens_total\{route="\/api\/\*\*",tenant="acme"\} 42/);
  });

  ingest('a batch sent again is not stored or counted twice', async ({ h, template }) => {
    const record = { ...template, id: uuidv7(), path: '/api/twice' };
    assert.equal(await (await post(h, [record, record])).json(), { stored: 1, duplicates: 1 });
    assert.equal(await (await post(h, [record])).json(), { stored: 0, duplicates: 1 });
    const overview = await h.get<{ requests: number }>('/api/gateway/overview?range=1h');
    assert.is(overview.body.requests, 3);
  });

  ingest('the dashboard token is not an ingest token; malformed records are refused whole', async ({ h, template }) => {
    assert.is((await post(h, [template], h.rt.token)).status, 401);
    const res = await post(h, [{ ...template, id: uuidv7() }, { ...template, id: uuidv7(), extra: 1 }]);
    assert.is(res.status, 400);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /records\[1\]\.extra/);
    assert.is((await post(h, [{ ...template, id: 'not-a-uuid' }])).status, 400);
    assert.is((await h.get<{ requests: number }>('/api/gateway/overview?range=1h')).body.requests, 3);
  });

  ingest.run();
}
