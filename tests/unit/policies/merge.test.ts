import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compilePolicy } from '../../../policies/compile.js';
import type { RuleConfig } from '../../../policies/schema.js';

const policy = (...rules: RuleConfig[]) => compilePolicy({ rules });

test('no matching rule: everything captured, nothing redacted, every body kept', () => {
  const d = policy({ name: 'other', match: { path: '/other' }, restrict: ['headers'] }).decide('GET', '/api/x');
  assert.equal(d.ruleIndexes, []);
  assert.equal(d.matchedRules, []);
  assert.equal(d.routes, []);
  assert.ok(d.captureRequestBody && d.captureResponseBody && d.captureHeaders);
  assert.is(d.redactHeaders.size, 0);
  assert.is(d.redactQuery.size, 0);
  assert.is(d.jsonFields.length, 0);
  assert.is(d.sample, 1);
  assert.is(d.keepErrors, false);
  assert.is(d.meterTokens, null);
});

test('every matching rule applies, in file order', () => {
  const d = policy(
    { name: 'a', match: { path: '/**' } },
    { name: 'b', match: { path: '/nope' } },
    { name: 'c', match: { path: '/api/*' } },
    { name: 'd', match: { path: '/api/**' } },
  ).decide('GET', '/api/x');
  assert.equal(d.ruleIndexes, [0, 2, 3]);
  assert.equal(d.matchedRules, ['a', 'c', 'd']);
  assert.equal(d.routes, ['/**', '/api/*', '/api/**']);
});

test('a repeated glob takes its last rule\'s place, so the last route is the last matching rule\'s glob', () => {
  const d = policy(
    { name: 'all', match: { path: '/**' } },
    { name: 'api', match: { path: '/api/**' } },
    { name: 'all-again', match: { path: '/**' }, sample: 0.5 },
  ).decide('GET', '/api/x');
  assert.equal(d.matchedRules, ['all', 'api', 'all-again']);
  assert.equal(d.routes, ['/api/**', '/**']);
});

test('restrict only narrows: a later rule cannot undo an earlier restriction', () => {
  const d = policy(
    { name: 'lock', match: { path: '/admin/**' }, restrict: ['request_body', 'headers'] },
    { name: 'open', match: { path: '/**' }, restrict: [] },
    { name: 'more', match: { path: '/admin/x' }, restrict: ['response_body'] },
  ).decide('POST', '/admin/x');
  assert.is(d.captureRequestBody, false);
  assert.is(d.captureHeaders, false);
  assert.is(d.captureResponseBody, false);
  const other = policy(
    { name: 'lock', match: { path: '/admin/**' }, restrict: ['request_body'] },
    { name: 'open', match: { path: '/**' } },
  ).decide('POST', '/public');
  assert.is(other.captureRequestBody, true);
});

test('redactions accumulate across matching rules; header and query names are lower-cased', () => {
  const d = policy(
    { name: 'a', match: { path: '/**' }, redact: { headers: ['Authorization'], query_params: ['Token'], json_fields: ['$.a'] } },
    { name: 'b', match: { path: '/api/**' }, redact: { headers: ['X-Api-Key', 'authorization'], query_params: ['sig'], json_fields: ['$.**.b', '$.a'] } },
  ).decide('GET', '/api/x');
  assert.equal([...d.redactHeaders].sort(), ['authorization', 'x-api-key']);
  assert.equal([...d.redactQuery].sort(), ['sig', 'token']);
  assert.equal(d.jsonFields.map((p) => p.expression), ['$.a', '$.**.b']);
});

test('labels accumulate; the same label name from two rules takes the later source', () => {
  const d = policy(
    { name: 'a', match: { path: '/**' }, labels: { tenant: 'header:X-Tenant', region: 'header:X-Region' } },
    { name: 'b', match: { path: '/api/**' }, labels: { tenant: 'header:X-Org', plan: 'header:X-Plan' } },
  ).decide('GET', '/api/x');
  const byName = Object.fromEntries(d.labels.map((l) => [l.name, l.header]));
  assert.equal(byName, { region: 'x-region', tenant: 'x-org', plan: 'x-plan' });
  assert.is(d.labels.length, 3);
});

test('sample: the last matching rule that sets it wins; keep_errors is an OR', () => {
  const p = policy(
    { name: 'a', match: { path: '/**' }, sample: 0.5, keep_errors: true },
    { name: 'b', match: { path: '/api/**' }, sample: 0 },
    { name: 'c', match: { path: '/api/x' }, keep_errors: false },
  );
  const d = p.decide('GET', '/api/x');
  assert.is(d.sample, 0);
  assert.is(d.keepErrors, true);
  assert.is(p.decide('GET', '/other').sample, 0.5);
  const noErrors = policy({ name: 'a', match: { path: '/**' }, keep_errors: false }).decide('GET', '/');
  assert.is(noErrors.keepErrors, false);
});

test('meter.tokens comes from the last matching rule that sets one', () => {
  const d = policy(
    { name: 'a', match: { path: '/**' }, meter: { tokens: '$.usage.total_tokens' } },
    { name: 'b', match: { path: '/v1/**' }, meter: { tokens: '$.tokens' } },
    { name: 'c', match: { path: '/v1/x' } },
  ).decide('POST', '/v1/x');
  assert.is(d.meterTokens?.expression, '$.tokens');
});

test('match.methods filters by method, case-insensitively', () => {
  const p = policy(
    { name: 'writes', match: { path: '/api/**', methods: ['post', 'Put'] }, redact: { json_fields: ['$.a'] } },
    { name: 'all', match: { path: '/api/**' } },
  );
  assert.equal(p.decide('POST', '/api/x').matchedRules, ['writes', 'all']);
  assert.equal(p.decide('PUT', '/api/x').matchedRules, ['writes', 'all']);
  assert.equal(p.decide('put', '/api/x').matchedRules, ['writes', 'all']);
  assert.equal(p.decide('GET', '/api/x').matchedRules, ['all']);
});

test('decisionFor gives the same merge as decide, and the same object for the same set', () => {
  const p = policy(
    { name: 'a', match: { path: '/**' }, redact: { headers: ['A'] } },
    { name: 'b', match: { path: '/api/**' }, restrict: ['headers'] },
  );
  const d = p.decide('GET', '/api/x');
  assert.is(p.decisionFor([0, 1]), d);
  assert.equal(p.decisionFor([0]).captureHeaders, true);
  assert.throws(() => p.decisionFor([2]), /rule index 2 is not in this policy/);
  assert.throws(() => p.decisionFor([-1]), /rule index -1/);
});

test.run();
