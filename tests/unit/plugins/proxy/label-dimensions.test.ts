import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compilePolicy } from '../../../../policies/compile.js';
import type { RuleConfig } from '../../../../policies/schema.js';
import { LabelDimensions } from '../../../../plugins/proxy/label-dimensions.js';

const rules: RuleConfig[] = [
  { name: 'all', match: { path: '/**' }, labels: { tenant: 'header:X-Tenant-Id' } },
  { name: 'api', match: { path: '/api/**' }, labels: { plan: 'header:X-Plan', tenant: 'header:X-Tenant-Id' } },
  { name: 'other', match: { path: '/other' }, labels: { region: 'header:x-region' } },
];
const policy = compilePolicy({ rules });
const dims = new LabelDimensions(rules);

test('dimensions are the union of every rule\'s label names, in order of first appearance', () => {
  assert.equal(dims.names, ['tenant', 'plan', 'region']);
});

test('values come from the request headers, matched case-insensitively; labels the route lacks are empty', () => {
  const v = dims.values(policy.decide('GET', '/api/x'), ['x-TENANT-id', 'acme', 'X-Plan', 'gold', 'X-Region', 'eu']);
  assert.equal(v, ['acme', 'gold', '']);
});

test('a missing header gives an empty value; a repeated header gives its first value', () => {
  const v = dims.values(policy.decide('GET', '/api/x'), ['X-Tenant-Id', 'first', 'X-Tenant-Id', 'second']);
  assert.equal(v, ['first', '', '']);
});

test('an unmatched request still has a value for every dimension', () => {
  const v = dims.values(policy.decide('GET', '/other'), ['X-Region', 'us', 'X-Tenant-Id', 't']);
  assert.equal(v, ['t', '', 'us']);
});

test('a policy without labels has no dimensions and no values (nothing to allocate per request)', () => {
  const none = new LabelDimensions([{ name: 'r', match: { path: '/**' } }]);
  assert.equal(none.names, []);
  assert.is(none.values(compilePolicy({ rules: [] }).decide('GET', '/'), ['X-Tenant-Id', 'a']), null);
});

test.run();
