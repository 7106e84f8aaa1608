// How `vigil check` reads a route and a field: templated like the stored routes, JSON paths spelled as the
// recorder spells them, locations by prefix; anything else is a usage error with the syntax.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fieldSpec, normalizeJsonPath, parseField, parseRoute } from '../../../../plugins/apitools/check/field-spec.js';

test('routes: a concrete path is templated; a template stays as it is', () => {
  assert.equal(parseRoute('POST /api/users/42'), { key: 'POST /api/users/{id}' });
  assert.equal(parseRoute('post /api/users/{id}'), { key: 'POST /api/users/{id}' });
  assert.equal(parseRoute('GET /api/orders/123e4567-e89b-12d3-a456-426614174000/items'), { key: 'GET /api/orders/{id}/items' });
  for (const bad of ['/api/users', 'POST api/users', 'POST /a /b', '']) assert.ok('error' in parseRoute(bad), bad);
});

test('JSON paths: dots, quoted keys, indexes and wildcards as the recorder writes them', () => {
  assert.is(normalizeJsonPath('$.a.b'), '$.a.b');
  assert.is(normalizeJsonPath("$['a']['b c']"), "$.a['b c']");
  assert.is(normalizeJsonPath('$["legacy_id"]'), '$.legacy_id');
  assert.is(normalizeJsonPath('$.items[0].id'), '$.items[*].id');
  assert.is(normalizeJsonPath('$.items.0.id'), '$.items[*].id');
  assert.is(normalizeJsonPath('$.items[*].id'), '$.items[*].id');
  assert.is(normalizeJsonPath('$'), '$');
  for (const bad of ['a.b', '$..a', '$[a]', '$.a[']) assert.is(normalizeJsonPath(bad), null, bad);
});

test('fields: locations by prefix, header names lowercased', () => {
  assert.equal(parseField('$.legacy_id'), { location: 'request_body', name: '$.legacy_id' });
  assert.equal(parseField('request:$.a'), { location: 'request_body', name: '$.a' });
  assert.equal(parseField('response:$.a[0]'), { location: 'response_body', name: '$.a[*]' });
  assert.equal(parseField('?page'), { location: 'query', name: 'page' });
  assert.equal(parseField('query:page'), { location: 'query', name: 'page' });
  assert.equal(parseField('header:X-Api-Key'), { location: 'request_header', name: 'x-api-key' });
  assert.equal(parseField('response_header:ETag'), { location: 'response_header', name: 'etag' });
  assert.equal(parseField('path:id'), { location: 'path', name: 'id' });
  for (const bad of ['legacy_id', '?', 'cookie:x', 'header:', 'response:nope']) {
    const got = parseField(bad);
    assert.ok('error' in got && got.error.includes('$.a.b (request body)'), bad);
  }
  assert.equal(fieldSpec('DELETE /x/9', '$.a'), { route: 'DELETE /x/9', field: '$.a', routeKey: 'DELETE /x/{id}', location: 'request_body', name: '$.a' });
});

test.run();
