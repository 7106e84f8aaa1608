import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildPolicyView, collectBodyFields, type PolicyBodyField } from '../../../policies/wasm-view.js';
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

test('body fields: string and number leaves of both bodies, request first, with paths', () => {
  const view = buildPolicyView({
    ...source,
    requestJson: { card: '4111', n: 12, ok: true, nil: null, nested: { list: ['x', { deep: 'y' }] } },
    responseJson: [{ id: 7 }],
  });
  assert.equal(view.body_fields, [
    { path: '$.card', value: '4111', in: 'request' },
    { path: '$.n', value: 12, in: 'request' },
    { path: '$.nested.list[0]', value: 'x', in: 'request' },
    { path: '$.nested.list[1].deep', value: 'y', in: 'request' },
    { path: '$[0].id', value: 7, in: 'response' },
  ]);
});

test('every body-field path selects exactly its own leaf, whatever the key looks like', () => {
  const body: Record<string, unknown> = {
    'a.b': 'dot', 'a': { b: 'nested' }, 'sp ace': 'space', "quo'te": 'quote', 'back\\slash': 'bs', '0': 'zero',
    '*': 'star', '[x]': 'bracket', '': 'empty', 'ünï': 'unicode', '$': 'dollar', 'arr': [['deep']],
  };
  const fields: PolicyBodyField[] = [];
  collectBodyFields(body, 'request', fields, { maxFields: 100 });
  assert.is(fields.length, 12);
  for (const field of fields) {
    const copy = JSON.parse(JSON.stringify(body));
    const { count } = redactJsonPath(copy, compileJsonPath(field.path));
    assert.is(count, 1, `${field.path} matches one value`);
    const remaining = JSON.stringify(copy);
    assert.not.ok(remaining.includes(`"${field.value}"`), `${field.path} redacts ${field.value}`);
  }
});

test('limits: field count, value length and depth', () => {
  const fields: PolicyBodyField[] = [];
  collectBodyFields({ a: '1', b: '2', c: '3' }, 'request', fields, { maxFields: 2 });
  assert.equal(fields.map((f) => f.path), ['$.a', '$.b']);
  const long: PolicyBodyField[] = [];
  collectBodyFields({ short: 'x', long: 'y'.repeat(300) }, 'request', long);
  assert.equal(long.map((f) => f.path), ['$.short']);
  const deep: PolicyBodyField[] = [];
  collectBodyFields({ a: { b: { c: 'too deep' } }, top: 't' }, 'request', deep, { maxDepth: 2 });
  assert.equal(deep.map((f) => f.path), ['$.top']);
  const numbers: PolicyBodyField[] = [];
  collectBodyFields({ n: Number.NaN, m: 1e400, k: -1.5 }, 'response', numbers);
  assert.equal(numbers, [{ path: '$.k', value: -1.5, in: 'response' }]);
});

test('the field budget is shared by both bodies', () => {
  const view = buildPolicyView({ ...source, requestJson: { a: 'x', b: 'y' }, responseJson: { c: 'z' } }, { maxFields: 2 });
  assert.equal(view.body_fields!.map((f) => f.in), ['request', 'request']);
});

test.run();
