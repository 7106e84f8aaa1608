// gateway/fields/api-fields.ts: which path segments are values, and the templates routes are keyed by.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classifySegment, pathTemplate, routeTemplate } from '../../../../gateway/fields/api-fields.js';

test('ids, uuids, dates and emails are parameters; words and versions are not', () => {
  const params: Record<string, string> = {
    '123': 'integer', '0': 'integer', '3f2b8c9e-1d4a-4b6e-9f0a-2c3d4e5f6a7b': 'uuid', '2026-11-26': 'date',
    '507f1f77bcf86cd799439011': 'id', 'cus_NffrFeUfNV2Hib': 'id', 'ord_1234': 'id', 'usr_t2': 'id', 'exp_119': 'id', 'a1b2c3d4': 'id', 'ana%40example.com': 'email',
    ['x'.repeat(65)]: 'id',
  };
  for (const [segment, format] of Object.entries(params)) {
    assert.equal(classifySegment(segment), { param: true, format }, segment);
  }
  for (const word of ['users', 'v1', 'v2.1', 'me', 'oauth2', 'utf-8', 'checkout-session', 'ipv4', 'order2024summary', 'deadbeef', 'usr_missing', 'user_profile']) {
    assert.equal(classifySegment(word), { param: false }, word);
  }
});

test('a single parameter is {id}; several are named after the word before each, and kept unique', () => {
  assert.equal(pathTemplate('/users/123'), { path: '/users/{id}', params: [{ name: 'id', format: 'integer' }] });
  assert.is(pathTemplate('/users/456?x=1').path, '/users/{id}');
  assert.is(pathTemplate('/users/7/orders/3f2b8c9e-1d4a-4b6e-9f0a-2c3d4e5f6a7b').path, '/users/{user_id}/orders/{order_id}');
  assert.is(pathTemplate('/categories/1/addresses/2').path, '/categories/{category_id}/addresses/{address_id}');
  assert.is(pathTemplate('/a/1/2').path, '/a/{a_id}/{a_id2}');
  assert.is(pathTemplate('/reports/2026-11-26').path, '/reports/{date}');
  assert.is(pathTemplate('/').path, '/');
  assert.is(pathTemplate('/api/v1/health').path, '/api/v1/health');
  assert.is(routeTemplate('post', '/api/users/42'), 'POST /api/users/{id}');
});

test('a path deeper than 32 segments ends in one {rest} parameter', () => {
  const template = pathTemplate(`/${Array.from({ length: 100 }, (_, i) => `s${'x'.repeat(i % 3)}`).join('/')}`);
  assert.is(template.path.split('/').length, 34);
  assert.ok(template.path.endsWith('/{rest}'));
});

test.run();
