// POST /api/gateway/records on SQLite and PostgreSQL: a record governed elsewhere is stored through capture's writer
// (listed, counted in the rollups, published for the exporters, metered), a retry is not stored twice, the dashboard
// token does not open the route, and the agent's policy is the floor: what it masks is masked before storing, and a
// route it restricts is not stored (counted per reason), on every backend (in memory, the main thread stores).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { uuidv7 } from '@vigil/plugin-sdk';
import type { GovernedRecord } from '../../../../../gateway/records/governed-record.js';
import type { PolicyConfig } from '../../../../../policies/schema.js';
import { captureBackends, exchange, startCapture, type CaptureHarness } from '../capture-harness.js';

const backends = await captureBackends('capture_ingest_route');
const INGEST = 'ingest-route-test-token-0123';
const policy: PolicyConfig = {
  rules: [
    { name: 'api', match: { path: '/api/**' }, labels: { tenant: 'header:X-Tenant' } },
    { name: 'secrets', match: { path: '/api/secret/**' }, redact: { headers: ['authorization'], query_params: ['token'], json_fields: ['$.password'] } },
    { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body', 'response_body', 'headers'] },
  ],
};
const regoverned = (metrics: string, reason: string): number =>
  Number(new RegExp(`^vigil_capture_records_regoverned_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);

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
    assert.equal(await res.json(), { stored: 1, duplicates: 0, redacted_by_agent: 0, restricted: 0 });
    const listed = await h.get<{ data: GovernedRecord[] }>(`/api/gateway/records/${record.id}`);
    assert.equal(listed.body, record);
    const overview = await h.get<{ requests: number; errors: number; tokens: number }>('/api/gateway/overview?range=1h');
    assert.equal({ requests: overview.body.requests, errors: overview.body.errors, tokens: overview.body.tokens }, { requests: 2, errors: 1, tokens: 42 });
    assert.ok(h.received.some((r) => r.id === record.id), 'published on gateway.record');
    assert.match(await h.rt.metrics(), /vigil_tokens_total\{route="\/api\/\*\*",tenant="acme"\} 42/);
  });

  ingest('a batch sent again is not stored or counted twice', async ({ h, template }) => {
    const record = { ...template, id: uuidv7(), path: '/api/twice' };
    assert.equal(await (await post(h, [record, record])).json(), { stored: 1, duplicates: 1, redacted_by_agent: 0, restricted: 0 });
    assert.equal(await (await post(h, [record])).json(), { stored: 0, duplicates: 1, redacted_by_agent: 0, restricted: 0 });
    const overview = await h.get<{ requests: number }>('/api/gateway/overview?range=1h');
    assert.is(overview.body.requests, 3);
  });

  ingest('the dashboard token is not an ingest token; malformed records are refused whole', async ({ h, template }) => {
    assert.is((await post(h, [template], h.rt.token)).status, 401);
    const res = await post(h, [{ ...template, id: uuidv7() }, { ...template, id: uuidv7(), extra: 1 }]);
    assert.is(res.status, 400);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /records\[1\]\.extra/);
    assert.is((await post(h, [{ ...template, id: 'not-a-uuid' }])).status, 400);
    // A record dated ahead of the server's clock would sort first in every list and outlive retention.
    const ahead = await post(h, [{ ...template, id: uuidv7() }, { ...template, id: uuidv7(), time: Date.now() + 3_600_000 }]);
    assert.is(ahead.status, 400);
    assert.match(((await ahead.json()) as { error: { message: string } }).error.message, /records\[1\]\.time .* ahead of the server's clock/);
    assert.is((await h.get<{ requests: number }>('/api/gateway/overview?range=1h')).body.requests, 3);
  });

  ingest('the agent\'s policy is the floor: masked before storing, a restricted route not stored, counted once', async ({ h, template }) => {
    const leaky = {
      ...template, id: uuidv7(), path: '/api/secret/1', query: { token: 'q-secret' }, headers: { Authorization: 'Bearer h-secret' },
      request_body: { password: 'b-secret', keep: 1 },
    };
    const admin = { ...template, id: uuidv7(), path: '/admin/users', request_body: { password: 'a-secret' } };
    const res = await post(h, [leaky, admin]);
    assert.equal(await res.json(), { stored: 1, duplicates: 0, redacted_by_agent: 1, restricted: 1 });
    const one = (await h.get(`/api/gateway/records/${leaky.id}`)).body;
    assert.equal({ query: one.query, headers: one.headers, body: one.request_body, masked: one.agent_masked }, {
      query: { token: '[REDACTED]' }, headers: { Authorization: '[REDACTED]' }, body: { password: '[REDACTED]', keep: 1 },
      masked: ['query.token', 'headers.Authorization', 'request_body.$.password'],
    });
    assert.is((await h.get(`/api/gateway/records/${admin.id}`)).status, 404);
    const published = h.received.find((r) => r.id === leaky.id);
    assert.ok(published, 'published on gateway.record');
    assert.not.ok(/[abhq]-secret/.test(JSON.stringify(published)), 'the exporters get the governed record');
    const metrics = await h.rt.metrics();
    assert.equal(['header', 'query_param', 'json_field', 'route_restricted'].map((r) => regoverned(metrics, r)), [1, 1, 1, 1]);
    assert.equal(await (await post(h, [leaky, admin])).json(), { stored: 0, duplicates: 1, redacted_by_agent: 0, restricted: 1 });
    assert.is(regoverned(await h.rt.metrics(), 'header'), 1, 'a batch sent again counts no record twice');
  });

  ingest('a body that is not JSON is refused whole: 415 for another type, 400 for bytes or JSON that do not parse', async ({ h, template }) => {
    const raw = (body: string | Uint8Array, type = 'application/json') => h.rt.fetch('/api/gateway/records', {
      method: 'POST', auth: false, body, headers: { 'content-type': type, authorization: `Bearer ${INGEST}` },
    });
    const code = async (res: Response) => ({ status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code });
    assert.equal(await code(await raw(JSON.stringify({ records: [template] }), 'text/plain')), { status: 415, code: 'VIGIL_ERR_CAPTURE_INGEST_MEDIA_TYPE' });
    assert.equal(await code(await raw('{"records":[')), { status: 400, code: 'VIGIL_ERR_CAPTURE_INGEST_BODY' });
    assert.equal(await code(await raw(new Uint8Array([0x7b, 0xff, 0x7d]))), { status: 400, code: 'VIGIL_ERR_CAPTURE_INGEST_BODY' });
    assert.equal(await code(await raw('{"records":[]}')), { status: 400, code: 'VIGIL_ERR_CAPTURE_INGEST_BODY' });
  });

  ingest.run();
}
