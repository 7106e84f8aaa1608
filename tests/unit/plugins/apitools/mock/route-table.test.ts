import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileTemplate, RouteTable, serverBasePath } from '../../../../../plugins/apitools/mock/route-table.js';
import { stringForPattern } from '../../../../../plugins/apitools/mock/pattern-string.js';
import { seededRandom } from '@vigil/plugin-sdk';

const table = new RouteTable(['/users/{id}', '/users/me', '/users/{id}/orders/{order_id}', '/files/{name}.json'].map((t) => ({ path: compileTemplate(t) })), '/v2');
const first = (path: string) => { for (const m of table.match(path)) return { template: m.route.path.template, params: m.params, path: m.path }; return undefined; };

test('literal paths win over templates; parameters are decoded; a base path is optional', () => {
  assert.equal(first('/users/me')?.template, '/users/me');
  assert.equal(first('/users/42'), { template: '/users/{id}', params: { id: '42' }, path: '/users/42' });
  assert.equal(first('/users/a%20b/orders/7')?.params, { id: 'a b', order_id: '7' });
  assert.equal(first('/v2/users/42')?.path, '/users/42');
  assert.equal(first('/files/report.json')?.params, { name: 'report' });
  assert.is(first('/users'), undefined);
  assert.is(first('/users/%E0%A4%A'), undefined, 'a malformed escape matches nothing');
});

test('the base path comes from the first server URL, variables and all', () => {
  assert.is(serverBasePath([{ url: 'https://api.example.com/v2/' }]), '/v2');
  assert.is(serverBasePath([{ url: '/api' }]), '/api');
  assert.is(serverBasePath([{ url: 'https://{region}.example.com' }]), '');
  assert.is(serverBasePath(undefined), '');
});

test('patterns: strings that match, or undefined beyond the subset', () => {
  for (const pattern of ['^[A-Z]{3}-[0-9]{4}$', '^\\+?[0-9]{7,15}$', '^(draft|live)$', '^[a-z0-9_-]+\\.json$', '^v\\d+(\\.\\d+)*$']) {
    for (let seed = 0; seed < 20; seed++) {
      const s = stringForPattern(pattern, seededRandom(seed));
      assert.ok(s !== undefined && new RegExp(pattern).test(s), `${pattern}: ${s}`);
    }
  }
  assert.is(stringForPattern('^(?!x).+$', seededRandom(1)), undefined);
  assert.is(stringForPattern('(a)\\1', seededRandom(1)), undefined);
});

test.run();
