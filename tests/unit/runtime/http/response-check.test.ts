import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closedObject, CSV_BODY, NO_BODY } from '@vigil/plugin-sdk';
import { errorOf, startControlPlane, type Harness } from './control-plane-harness.js';

const invoice = closedObject({ id: { type: 'string' }, lines: { type: 'array', items: closedObject({ amount: { type: 'number' } }) } }, { title: 'Invoice' });
let answer: unknown;

const register = (cp: Harness['cp']): void => {
  const billing = cp.forPlugin('billing');
  billing.route({ method: 'GET', path: '/api/billing/invoice', summary: 'One invoice', response: invoice, handler: () => answer });
  billing.route({
    method: 'GET', path: '/api/billing/raw', summary: 'JSON text set as the body', response: invoice,
    handler(ctx) { ctx.type = 'application/json'; return Buffer.from(JSON.stringify(answer)); },
  });
  billing.route({ method: 'GET', path: '/api/billing/export.csv', summary: 'CSV', response: CSV_BODY, handler: () => answer });
  billing.route({ method: 'POST', path: '/api/billing/run', summary: 'Starts a run', status: 204, response: NO_BODY, handler: () => answer });
  billing.route({
    method: 'GET', path: '/api/billing/accepted', summary: 'Answers a status it did not declare', response: invoice,
    handler(ctx) { ctx.status = 202; return answer; },
  });
};

const good = { id: 'inv-1', lines: [{ amount: 3 }] };

test('with validation on, an answer that departs from its schema is a 500 naming the route and the key path, and a log line', async () => {
  const h = await startControlPlane({ register, validateResponses: true });
  try {
    answer = good;
    assert.is((await h.bearer('/api/billing/invoice')).status, 200);
    assert.is((await h.bearer('/api/billing/raw')).status, 200);

    answer = { id: 'inv-1', lines: [{ amount: '3' }] };
    let res = await h.bearer('/api/billing/invoice');
    assert.is(res.status, 500);
    const error = await errorOf(res);
    assert.is(error.code, 'VIGIL_ERR_HTTP_INTERNAL');
    assert.match(error.message, /GET \/api\/billing\/invoice of plugin "billing" does not match its declared response: body\.lines\[0\]\.amount must be number/);
    const line = h.logs.find((l) => l.msg === 'answer does not match the declared response');
    assert.ok(line, 'a log line names the mismatch');
    assert.equal([line!.fields.plugin, line!.fields.method, line!.fields.route], ['billing', 'GET', '/api/billing/invoice']);

    answer = { ...good, total: 3 };
    res = await h.bearer('/api/billing/raw');
    assert.is(res.status, 500);
    assert.match((await errorOf(res)).message, /body\.total is not allowed/);

    answer = { id: 'x' };
    assert.match((await errorOf(await h.bearer('/api/billing/invoice'))).message, /body\.lines is required/);
    answer = good;
    assert.match((await errorOf(await h.bearer('/api/billing/export.csv'))).message, /JSON where status 200 declares text\/csv/);
    assert.match((await errorOf(await h.bearer('/api/billing/run', { method: 'POST' }))).message, /a body where status 204 declares none/);
    assert.match((await errorOf(await h.bearer('/api/billing/accepted'))).message, /status 202 is not declared \(declared: 200\)/);
    answer = undefined;
    assert.is((await h.bearer('/api/billing/run', { method: 'POST' })).status, 204);
  } finally {
    await h.close();
  }
});

test('with validation off (production), the same drift goes out as the handler wrote it', async () => {
  const h = await startControlPlane({ register, validateResponses: false });
  try {
    answer = { id: 'inv-1', lines: [{ amount: '3' }] };
    const res = await h.bearer('/api/billing/invoice');
    assert.is(res.status, 200);
    assert.equal(await res.json(), answer);
  } finally {
    await h.close();
  }
});

test.run();
