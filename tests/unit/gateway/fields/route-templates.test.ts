// The cached templates of field observations are pathTemplate's, for every shape of path: ids of every format,
// literals, versions, deep paths, a path seen again with a new id, and a tree cleared when full.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pathTemplate } from '../../../../gateway/fields/api-fields.js';
import { templateOf } from '../../../../gateway/fields/route-templates.js';

const PATHS = [
  '/', '/api', '/api/', '/api/users', '/api/users/42', '/api/users/0042', '/api/v2/users/42', '/api/v10/items',
  '/api/users/123e4567-e89b-12d3-a456-426614174000', '/api/users/123E4567-E89B-12D3-A456-426614174000',
  '/api/users/123e4567-e89b-12d3-a456-42661417400g', '/api/users/123e4567e89b12d3a456426614174000abcd',
  '/api/orders/ord_8f3k2j9d1x', '/api/orders/ord_1ak93hx7', '/api/orders/ord_x', '/api/days/2026-11-26',
  '/api/people/ann%40example.com', '/api/people/ann@example.com/orders/7', '/users/1/orders/2/items/3',
  '/users/me', '/users/me/orders', '/files/a1b2c3d4e5', '/files/readme', '//double//slash', '/trailing/42/',
  `/${'x'.repeat(80)}`, `/deep${'/s'.repeat(40)}`, `/deep${'/7'.repeat(40)}`, 'relative/path/42', '',
  '/api/users/-1', '/api/users/1.5',
];

test('templateOf gives pathTemplate\'s template for every path, first seen or again', () => {
  for (let pass = 0; pass < 2; pass++) {
    for (const path of PATHS) assert.equal(templateOf(path), pathTemplate(path), `${path} (pass ${pass})`);
  }
  // A new id in a known shape shares its template.
  assert.equal(templateOf('/api/orders/ord_zz99yy88xx'), pathTemplate('/api/orders/ord_zz99yy88xx'));
  assert.is(templateOf('/api/users/77'), templateOf('/api/users/78'));
});

test('the tree is bounded: thousands of invented literals clear it, and templates stay right', () => {
  for (let i = 0; i < 20_000; i++) templateOf(`/lit/word${String.fromCharCode(97 + (i % 26))}${'abcdefghij'[i % 10]}x${i.toString(36).replace(/[0-9]/g, 'q')}`);
  for (const path of PATHS) assert.equal(templateOf(path), pathTemplate(path), path);
});

test.run();
