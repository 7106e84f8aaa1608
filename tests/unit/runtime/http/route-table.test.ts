import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closedObject, CSV_BODY, HTML_BODY, NO_BODY } from '@vigil/plugin-sdk';
import { pathParamNames, routeShape, RouteTable } from '../../../../runtime/http/route-table.js';
import { createSchemaCompiler } from '../../../../runtime/http/schema-validation.js';

const table = (): RouteTable => new RouteTable(createSchemaCompiler(), 1024, () => {});
const errorOf = (fn: () => void): { code?: string; message: string } | undefined => {
  try { fn(); } catch (e) { return e as { code?: string; message: string }; }
  return undefined;
};
const handler = (): null => null;

test('routeShape erases parameter names and a trailing slash; pathParamNames lists them', () => {
  assert.is(routeShape('/a/:id/b/:x'), routeShape('/a/:key/b/:y'));
  assert.is(routeShape('/a/'), '/a');
  assert.is(routeShape('/'), '/');
  assert.is.not(routeShape('/a/:id'), routeShape('/a/b'));
  assert.equal(pathParamNames('/a/:id/b/:x/*rest'), ['id', 'x', 'rest']);
});

test('invalid definitions are VIGIL_ERR_HTTP_ROUTE_INVALID naming the plugin and the route', () => {
  const t = table();
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ method: 'TRACE', path: '/a', summary: 's', handler }, /method/],
    [{ method: 'GET', path: 'a', summary: 's', handler }, /path/],
    [{ method: 'GET', path: '/a', summary: '', handler }, /summary/],
    [{ method: 'GET', path: '/a', summary: 's' }, /handler/],
    [{ method: 'GET', path: '/a', summary: 's', handler, bodyLimit: -5 }, /bodyLimit/],
    [{ method: 'POST', path: '/a', summary: 's', handler, rawBody: true, body: { type: 'object' } }, /rawBody/],
    [{ method: 'POST', path: '/a', summary: 's', handler, response: {}, body: { type: 'no-such-type' } }, /body schema/],
    [{ method: 'GET', path: '/a', summary: 's', handler, response: { type: 'no-such-type' } }, /response schema of status 200/],
    [{ method: 'GET', path: '/a', summary: 's', handler, response: {}, responses: { 200: {} } }, /exclude each other/],
    [{ method: 'GET', path: '/a', summary: 's', handler, responses: { 2000: {} } }, /not an HTTP status/],
    [{ method: 'GET', path: '/a', summary: 's', handler, responses: {} }, /declares no response/],
  ];
  for (const [definition, message] of cases) {
    const err = errorOf(() => t.addRoute('p', definition as never));
    assert.is(err?.code, 'VIGIL_ERR_HTTP_ROUTE_INVALID', JSON.stringify(definition));
    assert.match(err!.message, message);
    assert.match(err!.message, /plugin "p"/);
  }
  assert.is(t.routes.length, 0);
});

test('a route without a declared response is refused, naming the plugin, the method and the path', () => {
  const t = table();
  const err = errorOf(() => t.addRoute('billing', { method: 'GET', path: '/api/billing/invoices', summary: 's', handler } as never));
  assert.is(err?.code, 'VIGIL_ERR_HTTP_ROUTE_INVALID');
  assert.match(err!.message, /plugin "billing": route GET \/api\/billing\/invoices: declares no response/);
  assert.match(err!.message, /HTML_BODY/);
  assert.is(t.routes.length, 0);
  // A marker is a declaration too.
  t.addRoute('billing', { method: 'GET', path: '/invoices.csv', summary: 's', handler, response: CSV_BODY });
  t.addRoute('billing', { method: 'GET', path: '/page', summary: 's', handler, responses: { 200: HTML_BODY, 304: NO_BODY } });
  assert.equal([...t.routes[1].responses.keys()], [200, 304]);
});

test('one name, one shape: a second schema titled like another but different is refused naming the first route', () => {
  const t = table();
  const invoice = closedObject({ id: { type: 'string' } }, { title: 'Invoice' });
  t.addRoute('billing', { method: 'GET', path: '/a', summary: 's', handler, response: invoice });
  t.addRoute('billing', { method: 'GET', path: '/b', summary: 's', handler, response: { type: 'array', items: invoice } });
  const err = errorOf(() => t.addRoute('shop', {
    method: 'GET', path: '/c', summary: 's', handler, response: closedObject({ number: { type: 'integer' } }, { title: 'Invoice' }),
  }));
  assert.is(err?.code, 'VIGIL_ERR_HTTP_ROUTE_INVALID');
  assert.match(err!.message, /plugin "shop": route GET \/c: the schema named "Invoice" differs from the one of that name declared by plugin "billing": route GET \/a/);
});

test('auth schemes: reserved and duplicate names are refused naming both plugins', () => {
  const t = table();
  const scheme = { openapi: { type: 'apiKey', in: 'header', name: 'X-Key' }, authenticate: () => null };
  t.addScheme('llm', 'project-key', scheme);
  const dup = errorOf(() => t.addScheme('fleet', 'project-key', scheme));
  assert.is(dup?.code, 'VIGIL_ERR_HTTP_AUTH_SCHEME_CONFLICT');
  assert.match(dup!.message, /plugin "llm"/);
  assert.match(dup!.message, /plugin "fleet"/);
  for (const name of ['dashboard', 'none', 'dashboardCookie', '', '9lives']) {
    assert.is(errorOf(() => t.addScheme('x', name, scheme))?.code, 'VIGIL_ERR_HTTP_AUTH_SCHEME_CONFLICT', name);
  }
});

test('version moves with each registration', () => {
  const t = table();
  const v0 = t.version;
  t.addRoute('p', { response: {}, method: 'GET', path: '/a', summary: 's', handler });
  t.addSocket('p', { path: '/ws', summary: 's', handler() {} });
  assert.is(t.version, v0 + 2);
});

test.run();
