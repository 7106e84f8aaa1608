import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compilePolicy } from '../../../policies/compile.js';
import { extractLabels } from '../../../policies/extract-labels.js';

const decision = compilePolicy({ rules: [
  { name: 'a', match: { path: '/**' }, labels: { tenant: 'header:X-Tenant-Id', plan: 'header:x-plan', region: 'header:X-Region' } },
] }).decide('GET', '/');

test('label values come from headers, matched case-insensitively; the first repetition wins', () => {
  const labels = extractLabels(decision, ['x-tenant-id', 'acme', 'X-PLAN', 'gold', 'X-Tenant-Id', 'other']);
  assert.equal(labels, { tenant: 'acme', plan: 'gold' });
});

test('an absent header leaves its label out; no headers give no labels', () => {
  assert.equal(extractLabels(decision, ['Accept', '*/*']), {});
  assert.equal(extractLabels(decision, null), {});
  const none = compilePolicy({ rules: [] }).decide('GET', '/');
  assert.equal(extractLabels(none, ['X-Tenant-Id', 'acme']), {});
});

test.run();
