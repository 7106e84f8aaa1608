import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closedObject, CSV_BODY, HTML_BODY, NO_BODY } from '@vigil/plugin-sdk';
import { openApiPath } from '../../../../runtime/http/openapi.js';
import { startControlPlane, type Harness } from './control-plane-harness.js';

type Doc = {
  openapi: string;
  info: { title: string; version: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Record<string, unknown> & {
    parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
    requestBody?: { content: Record<string, { schema: unknown }> };
    security?: unknown[];
    tags?: string[];
  }>>;
  components: { securitySchemes: Record<string, Record<string, unknown>> };
};

const register = (cp: Harness['cp']): void => {
  const gw = cp.forPlugin('gateway');
  gw.route({
    method: 'GET',
    path: '/api/gateway/records/:id',
    summary: 'One governed record',
    description: 'By id.',
    query: { type: 'object', required: ['fields'], properties: { fields: { type: 'string', description: 'Comma-separated' }, limit: { type: 'integer' } } },
    response: { type: 'object', properties: { id: { type: 'string' } } },
    handler: () => ({}),
  });
  gw.route({ response: {},
    method: 'POST',
    path: '/api/gateway/records',
    summary: 'Add a record',
    status: 201,
    body: { type: 'object', properties: { name: { type: 'string' } } },
    handler: () => ({}),
  });
  const llm = cp.forPlugin('llm');
  llm.authScheme('project-key', { openapi: { type: 'apiKey', in: 'header', name: 'X-Service-Project-Key' }, authenticate: () => null });
  llm.route({ response: {}, method: 'POST', path: '/v1/traces', auth: 'project-key', summary: 'Ingest traces', rawBody: true, handler: () => undefined });
  cp.forPlugin('terminal').websocket({ path: '/api/terminal/ws', summary: 'Terminal', handler() {} });
};

test('openApiPath turns router parameters into OpenAPI templates', () => {
  assert.is(openApiPath('/api/records/:id'), '/api/records/{id}');
  assert.is(openApiPath('/a/:x/b/:y'), '/a/{x}/b/{y}');
  assert.is(openApiPath('/files/*rest'), '/files/{rest}');
  assert.is(openApiPath('/plain'), '/plain');
});

test('GET /api is an OpenAPI 3.1 document of every registered route, tagged by plugin', async () => {
  const h = await startControlPlane({ register });
  try {
    assert.is((await h.get('/api')).status, 401, 'the listing is behind the dashboard token');
    const res = await h.bearer('/api');
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const doc = (await res.json()) as Doc;
    assert.is(doc.openapi, '3.1.0');
    assert.equal(doc.info, { title: 'Vigil', version: '0.0.0-test' });

    const one = doc.paths['/api/gateway/records/{id}']?.get;
    assert.ok(one, 'route with a path parameter missing');
    assert.is(one.summary, 'One governed record');
    assert.is(one.description, 'By id.');
    assert.equal(one.tags, ['gateway']);
    assert.equal(one.parameters, [
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'fields', in: 'query', required: true, description: 'Comma-separated', schema: { type: 'string', description: 'Comma-separated' } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer' } },
    ]);
    assert.equal(one.security, [{ dashboard: [] }, { dashboardCookie: [] }]);
    assert.ok((one.responses as Record<string, unknown>)['200']);

    const add = doc.paths['/api/gateway/records']?.post;
    assert.equal(add?.requestBody?.content['application/json'].schema, { type: 'object', properties: { name: { type: 'string' } } });
    assert.ok((add?.responses as Record<string, unknown>)['201']);

    const ingest = doc.paths['/v1/traces']?.post;
    assert.equal(ingest?.security, [{ 'project-key': [] }]);
    assert.equal(ingest?.tags, ['llm']);
    assert.ok(ingest?.requestBody?.content['application/octet-stream']);

    assert.equal(doc.paths['/api/health']?.get?.security, []);
    assert.equal(doc.paths['/metrics']?.get?.security, []);
    assert.ok(doc.paths['/api']?.get);
    assert.is(doc.paths['/api/terminal/ws']?.get?.['x-websocket'], true);

    assert.equal(doc.components.securitySchemes['project-key'], { type: 'apiKey', in: 'header', name: 'X-Service-Project-Key' });
    assert.equal(doc.components.securitySchemes.dashboard, { type: 'http', scheme: 'bearer', description: 'The dashboard token as a bearer token.' });
    assert.is(doc.components.securitySchemes.dashboardCookie.in, 'cookie');
    assert.equal(doc.tags.map((t) => t.name), ['control-plane', 'gateway', 'llm', 'terminal']);
  } finally {
    await h.close();
  }
});

test('named shapes are components referenced by $ref; every operation has its success and the one error shape', async () => {
  const line = closedObject({ amount: { type: 'number' } }, { title: 'InvoiceLine' });
  const invoice = closedObject({ id: { type: 'string' }, lines: { type: 'array', items: line } }, { title: 'Invoice' });
  const h = await startControlPlane({
    register(cp) {
      const billing = cp.forPlugin('billing');
      billing.route({ method: 'GET', path: '/api/billing/invoices/:id', summary: 'One invoice', response: invoice, handler: () => ({}) });
      billing.route({ method: 'GET', path: '/api/billing/export.csv', summary: 'CSV', response: CSV_BODY, handler: () => '' });
      billing.route({ method: 'GET', path: '/billing', summary: 'Page', responses: { 200: HTML_BODY, 304: NO_BODY }, handler: () => '' });
    },
  });
  try {
    const doc = (await (await h.bearer('/api')).json()) as Doc & { components: { schemas: Record<string, unknown> } };
    const one = doc.paths['/api/billing/invoices/{id}'].get.responses as Record<string, { content?: Record<string, { schema: unknown }> }>;
    assert.equal(one['200'].content, { 'application/json': { schema: { $ref: '#/components/schemas/Invoice' } } });
    assert.equal(one['4XX'].content, { 'application/json': { schema: { $ref: '#/components/schemas/ErrorAnswer' } } });
    assert.equal(one['5XX'].content, { 'application/json': { schema: { $ref: '#/components/schemas/ErrorAnswer' } } });
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, unknown>; additionalProperties: boolean }>;
    assert.equal(schemas.Invoice.properties.lines, { type: 'array', items: { $ref: '#/components/schemas/InvoiceLine' } });
    assert.is(schemas.InvoiceLine.additionalProperties, false);
    assert.equal(Object.keys(schemas.ErrorAnswer.properties), ['error']);
    const csv = doc.paths['/api/billing/export.csv'].get.responses as Record<string, { content: Record<string, unknown> }>;
    assert.equal(Object.keys(csv['200'].content), ['text/csv']);
    const page = doc.paths['/billing'].get.responses as Record<string, { content?: Record<string, unknown> }>;
    assert.equal(Object.keys(page['200'].content!), ['text/html']);
    assert.is(page['304'].content, undefined);
  } finally {
    await h.close();
  }
});

test('a route registered after the first request appears in the next listing', async () => {
  const h = await startControlPlane();
  try {
    const before = (await (await h.bearer('/api')).json()) as Doc;
    assert.not.ok(before.paths['/api/late']);
    h.cp.forPlugin('late').route({ response: {}, method: 'GET', path: '/api/late', summary: 'Late', handler: () => 1 });
    const after = (await (await h.bearer('/api')).json()) as Doc;
    assert.ok(after.paths['/api/late']?.get);
    assert.is((await h.bearer('/api/late')).status, 200);
  } finally {
    await h.close();
  }
});

test.run();
