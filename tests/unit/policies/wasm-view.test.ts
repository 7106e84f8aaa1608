import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildPolicyView, collectBodyFields, type PolicyBodyFields } from '../../../policies/wasm-view.js';
import { compileJsonPath, redactJsonPath } from '../../../policies/compile-json-path.js';

const source = {
  method: 'POST', path: '/api/pay', target: '/api/pay?tag=a&tag=b&page=2&empty=',
  requestHeaders: ['Host', 'x', 'Accept', 'a/b', 'X-Multi', '1', 'x-multi', '2'],
  status: 201, labels: { team: 'payments' }, matchedRules: ['r1', 'r2'],
};

test('a view carries method, path, lower-case headers, query, status, labels and matched rules', () => {
  const view = buildPolicyView(source);
  assert.equal(JSON.parse(JSON.stringify(view)), {
    method: 'POST', path: '/api/pay',
    headers: { host: 'x', accept: 'a/b', 'x-multi': '1, 2' },
    query: { tag: ['a', 'b'], page: '2', empty: '' },
    status: 201, labels: { team: 'payments' }, matched_rules: ['r1', 'r2'],
  });
  assert.not.ok('body_fields' in view, 'no body parsed, no body_fields');
});

test('restricted headers give an empty map', () => {
  assert.equal({ ...buildPolicyView({ ...source, requestHeaders: null }).headers }, {});
});

test('the view does not alias the source', () => {
  const labels = { team: 'a' };
  const view = buildPolicyView({ ...source, labels });
  view.labels.team = 'changed';
  assert.is(labels.team, 'a');
});

test('body fields: string and number leaves of both bodies, keyed by path, request first', () => {
  const view = buildPolicyView({
    ...source,
    requestJson: { card: '4111', n: 12, ok: true, nil: null, nested: { list: ['x', { deep: 'y' }] } },
    responseJson: [{ id: 7 }],
  });
  assert.equal(view.body_fields, {
    request: { '$.card': '4111', '$.n': 12, '$.nested.list[0]': 'x', '$.nested.list[1].deep': 'y' },
    response: { '$[0].id': 7 },
  });
  assert.equal(Object.keys(view.body_fields!.request!), ['$.card', '$.n', '$.nested.list[0]', '$.nested.list[1].deep'], 'document order');
  const onlyResponse = buildPolicyView({ ...source, responseJson: { a: 'b' } });
  assert.equal(onlyResponse.body_fields, { response: { '$.a': 'b' } });
});

test('every body-field path selects exactly its own leaf, whatever the key looks like', () => {
  const body: Record<string, unknown> = {
    'a.b': 'dot', 'a': { b: 'nested' }, 'sp ace': 'space', "quo'te": 'quote', 'back\\slash': 'bs', '0': 'zero',
    '*': 'star', '[x]': 'bracket', '': 'empty', 'ünï': 'unicode', '$': 'dollar', 'arr': [['deep']],
  };
  const fields: PolicyBodyFields = {};
  assert.is(collectBodyFields(body, fields, { maxFields: 100 }), 12);
  for (const [path, value] of Object.entries(fields)) {
    const copy = JSON.parse(JSON.stringify(body));
    const { count } = redactJsonPath(copy, compileJsonPath(path));
    assert.is(count, 1, `${path} matches one value`);
    assert.not.ok(JSON.stringify(copy).includes(`"${value}"`), `${path} redacts ${value}`);
  }
});

test('limits: field count, value length and depth', () => {
  const fields: PolicyBodyFields = {};
  assert.is(collectBodyFields({ a: '1', b: '2', c: '3' }, fields, { maxFields: 2 }), 2);
  assert.equal(Object.keys(fields), ['$.a', '$.b']);
  const long: PolicyBodyFields = {};
  collectBodyFields({ short: 'x', long: 'y'.repeat(300) }, long);
  assert.equal(Object.keys(long), ['$.short']);
  const deep: PolicyBodyFields = {};
  collectBodyFields({ a: { b: { c: 'too deep' } }, top: 't' }, deep, { maxDepth: 2 });
  assert.equal(Object.keys(deep), ['$.top']);
  const numbers: PolicyBodyFields = {};
  collectBodyFields({ n: Number.NaN, m: Number.POSITIVE_INFINITY, k: -1.5 }, numbers);
  assert.equal(numbers, { '$.k': -1.5 });
});

test('the field budget is shared by both bodies', () => {
  const view = buildPolicyView({ ...source, requestJson: { a: 'x', b: 'y' }, responseJson: { c: 'z' } }, { maxFields: 2 });
  assert.equal(view.body_fields, { request: { '$.a': 'x', '$.b': 'y' }, response: {} });
});

test.run();
