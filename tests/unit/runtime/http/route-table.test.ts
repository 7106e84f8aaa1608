import { test } from 'uvu';
import * as assert from 'uvu/assert';
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
    [{ method: 'POST', path: '/a', summary: 's', handler, body: { type: 'no-such-type' } }, /body schema/],
  ];
  for (const [definition, message] of cases) {
    const err = errorOf(() => t.addRoute('p', definition as never));
    assert.is(err?.code, 'VIGIL_ERR_HTTP_ROUTE_INVALID', JSON.stringify(definition));
    assert.match(err!.message, message);
    assert.match(err!.message, /plugin "p"/);
  }
  assert.is(t.routes.length, 0);
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
  t.addRoute('p', { method: 'GET', path: '/a', summary: 's', handler });
  t.addSocket('p', { path: '/ws', summary: 's', handler() {} });
  assert.is(t.version, v0 + 2);
});

test.run();
