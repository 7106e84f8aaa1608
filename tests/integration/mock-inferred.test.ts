// `startMock(document)` in process, over a document shaped as `vigil spec` infers one (OpenAPI 3.1, templated paths
// with differently named parameters, schemas from observed shapes with type arrays and formats, a 200 for a POST, a
// 404 without content, `x-vigil-observed` extensions): the call the lead wires behind `vigil mock -config FILE`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startMock } from '../../plugins/apitools/mock/start-mock.js';
import { asOpenApiDocument } from '../../plugins/apitools/openapi/document.js';

const user = {
  type: 'object',
  required: ['id', 'email', 'created_at'],
  properties: {
    id: { type: 'integer' }, email: { type: 'string', format: 'email' }, display_name: { type: ['string', 'null'] },
    created_at: { type: 'string', format: 'date-time' }, profile: { type: 'object', properties: { homepage: { type: 'string', format: 'uri' }, ip: { type: 'string', format: 'ipv4' } } },
  },
};
const order = { type: 'object', required: ['id', 'total'], properties: { id: { type: 'string', format: 'uuid' }, total: { type: 'number' }, placed_on: { type: 'string', format: 'date' } } };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const observed = { 'x-vigil-observed': { exchanges: 12, first_seen: '2026-11-01T00:00:00.000Z', last_seen: '2026-11-02T00:00:00.000Z' } };

const doc = asOpenApiDocument({
  openapi: '3.1.0',
  info: { title: 'Inferred by vigil spec', version: '2026-11-26' },
  paths: {
    '/api/users': {
      get: { tags: ['users'], responses: { 200: { description: 'OK', ...json({ type: 'array', items: user }) } }, ...observed },
      post: {
        tags: ['users'],
        requestBody: { required: true, ...json({ type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' }, display_name: { type: ['string', 'null'] } } }) },
        responses: { 200: { description: 'OK', ...json(user) }, 400: { description: 'Bad Request', ...json({ type: 'object', required: ['error'], properties: { error: { type: 'string' } } }) } },
        ...observed,
      },
    },
    '/api/users/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 200: { description: 'OK', ...json(user) }, 404: { description: 'Not Found' } },
        ...observed,
      },
    },
    '/api/users/{user_id}/orders': {
      post: {
        parameters: [{ name: 'user_id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: { required: true, ...json({ type: 'object', properties: { total: { type: 'number' } } }) },
        responses: { 201: { description: 'Created', ...json(order) } },
      },
      get: { parameters: [{ name: 'user_id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'OK', ...json({ type: 'object', required: ['items'], properties: { items: { type: 'array', items: order } } }) } } },
    },
    '/api/users/{user_id}/orders/{order_id}': {
      get: {
        parameters: [{ name: 'user_id', in: 'path', required: true, schema: { type: 'integer' } }, { name: 'order_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: { 200: { description: 'OK', ...json(order) } },
      },
    },
    '/api/health': { get: { parameters: [
      { name: 'Authorization', in: 'header', required: true, schema: { type: 'string' } },
      { name: 'X-Tenant', in: 'header', schema: { type: 'string', enum: ['acme', 'globex'] } },
    ], responses: { 200: { description: 'OK', ...json({ type: 'object', required: ['status'], properties: { status: { type: 'string' }, uptime_s: { type: 'integer' } } }) } } } },
  },
}, 'inferred.yaml');

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const valid = (schema: object, value: unknown) => {
  const ok = ajv.validate(schema, value);
  assert.ok(ok, `${JSON.stringify(value)}: ${JSON.stringify(ajv.errors)}`);
};

test('an inferred document mocks statefully in process; close() ends it, twice is fine', async () => {
  const lines: string[] = [];
  const mock = await startMock(doc, { port: 0, seed: 3, log: (l) => lines.push(l) });
  try {
    assert.equal(mock.collections, ['/api/users', '/api/users/{user_id}/orders']);
    const post = (path: string, body: unknown) => fetch(`${mock.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const created = await post('/api/users', { email: 'eve@example.com', display_name: null });
    assert.is(created.status, 200, 'the lowest 2xx the POST declares');
    const eve = await created.json() as any;
    valid(user, eve);
    assert.is(eve.display_name, null, 'a null the client sent is kept where the type array allows it');
    const list = await (await fetch(`${mock.url}/api/users`)).json();
    valid({ type: 'array', items: user }, list);
    assert.equal(list, [eve]);
    const placed = await post(`/api/users/${eve.id}/orders`, { total: 12.5 });
    assert.is(placed.status, 201);
    const o = await placed.json() as any;
    valid(order, o);
    assert.is(o.total, 12.5);
    const orders = await (await fetch(`${mock.url}/api/users/${eve.id}/orders`)).json() as any;
    assert.equal(orders.items, [o]);
    assert.equal(await (await fetch(`${mock.url}/api/users/${eve.id}/orders/${o.id}`)).json(), o);
    const missing = await fetch(`${mock.url}/api/users/999`);
    assert.is(missing.status, 404);
    assert.is(await missing.text(), '', 'the 404 declares no content, so none is sent');
    assert.is(missing.headers.get('x-vigil-mock-reason'), 'no user with id 999');
    const bad = await post('/api/users', { email: 'nope' });
    assert.is(bad.status, 400);
    valid({ type: 'object', required: ['error'], properties: { error: { type: 'string' } } }, await bad.json());
    const tenant = await fetch(`${mock.url}/api/health`, { headers: { 'x-tenant': 'initech' } });
    assert.is(tenant.status, 400, 'a declared header is checked');
    assert.match(await tenant.text(), 'header/x-tenant');
    // No Authorization header, though declared required: OpenAPI says such a parameter is ignored.
    const health = await fetch(`${mock.url}/api/health`, { headers: { 'x-tenant': 'acme' } });
    assert.is(health.status, 200);
    assert.is(health.headers.get('x-vigil-mock'), 'generated');
    assert.type(((await health.json()) as { status: unknown }).status, 'string');
    assert.ok(lines.some((l) => l.startsWith('POST /api/users → 200 stateful')));
  } finally {
    await mock.close();
    await mock.close();
  }
  assert.is(await fetch(`${mock.url}/api/health`).then(() => 'answered', () => 'refused'), 'refused');
});

test.run();
