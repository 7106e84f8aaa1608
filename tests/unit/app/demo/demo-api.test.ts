// The demo API as the gateway sees it: keys checked, JSON answers, failures a real API has, and the outcome of a
// charge following the card, so that the demo's errors and masked fields always show up.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startDemoApi, type DemoApi } from '../../../../app/demo/demo-api.js';
import { ADMIN_KEY, CARDS, REVOKED_KEY, TENANTS } from '../../../../app/demo/demo-data.js';
import { charge, nextRequest, showcase } from '../../../../app/demo/request-mix.js';

let api: DemoApi;
test.before(async () => { api = await startDemoApi({ incidents: { firstAfterMs: 1e9, everyMs: 1e9, lastsMs: 0 } }); });
test.after(() => api.close());

const send = async (req: { method: string; path: string; headers: Record<string, string>; body?: string }) => {
  const res = await fetch(`${api.url}${req.path}`, { method: req.method, headers: req.headers, body: req.body });
  return { status: res.status, body: await res.json() as Record<string, unknown>, type: res.headers.get('content-type') };
};

test('keys: a tenant\'s key passes, a revoked or missing one is 401, the admin console needs the operators\' key', async () => {
  const acme = TENANTS[0];
  const headers = { authorization: `Bearer ${acme.key}` };
  assert.is((await send({ method: 'GET', path: '/api/orders/ord_1234', headers })).status, 200);
  const revoked = await send({ method: 'GET', path: '/api/orders/ord_1234', headers: { authorization: `Bearer ${REVOKED_KEY}` } });
  assert.equal([revoked.status, (revoked.body.error as { code: string }).code], [401, 'invalid_api_key']);
  assert.is((await send({ method: 'GET', path: '/api/orders/ord_1234', headers: {} })).status, 401);
  assert.is((await send({ method: 'GET', path: '/admin/tenants', headers })).status, 403);
  assert.is((await send({ method: 'GET', path: '/admin/tenants', headers: { authorization: `Bearer ${ADMIN_KEY}` } })).status, 200);
});

test('one order number is always the same order; an unknown one is 404; an unknown route is 404', async () => {
  const headers = { authorization: `Bearer ${TENANTS[1].key}` };
  const a = await send({ method: 'GET', path: '/api/orders/ord_4242', headers });
  const b = await send({ method: 'GET', path: '/api/orders/ord_4242', headers });
  assert.equal(a.body, b.body);
  assert.match(a.type ?? '', /application\/json/);
  assert.is((await send({ method: 'GET', path: '/api/orders/ord_999999', headers })).status, 404);
  assert.is((await send({ method: 'DELETE', path: '/api/orders', headers })).status, 404);
});

test('a charge\'s outcome follows the card; a success answers the last four digits only', async () => {
  const expected: Record<string, number> = { succeeded: 201, declined: 402, insufficient_funds: 402, processor_error: 502 };
  for (const card of CARDS.filter((c, i, all) => all.findIndex((x) => x.outcome === c.outcome) === i)) {
    const res = await send(charge(TENANTS[2], card));
    assert.is(res.status, expected[card.outcome], card.outcome);
    if (res.status === 201) {
      assert.is((res.body.card as { last4: string }).last4, card.number.slice(-4));
      assert.not.ok(JSON.stringify(res.body).includes(card.number));
    }
  }
});

test('the mix: every request names its tenant and sends its key; the showcase holds each rule\'s case', () => {
  for (let i = 0; i < 500; i++) {
    const req = nextRequest();
    assert.ok(req.headers['x-tenant-id'], req.path);
    assert.match(req.headers.authorization, /^Bearer demo_/);
    if (req.body !== undefined) assert.is(req.headers['content-type'], 'application/json');
  }
  const paths = showcase().map((r) => r.path.split('?')[0]);
  for (const p of ['/v1/chat/completions', '/api/payments/charge', '/api/support/tickets', '/api/search']) {
    assert.ok(paths.includes(p), p);
  }
  // The admin call is a listing or, one time in five, a suspension: either is the restricted area.
  assert.ok(paths.some((p) => p.startsWith('/admin/tenants')), 'the admin area');
});

test.run();
