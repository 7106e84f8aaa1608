import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkExpectations } from '../../../../plugins/governance/test-case-expect.js';
import type { GovernedRecord } from '../../../../gateway/govern/types.js';

const R = '[REDACTED]';
function record(over: Partial<GovernedRecord> = {}): GovernedRecord {
  return {
    id: '1', time: 0, method: 'GET', path: '/', route: [], query: {}, status: 200, duration_ms: 0,
    headers: {}, response_headers: {}, request_body: null, response_body: null, labels: {}, matched_rules: [],
    tokens: null, sampled: true, truncated: false, partial: false, dropped_reason: null, error: null, ...over,
  };
}

const input = record({ headers: { Authorization: ['a', 'b'] }, request_body: { card: '4111', n: 1 }, query: { token: 't' } });

test('redacted: passes on the marker (every repetition), fails on a clear value or an absent field', () => {
  const ok = record({ headers: { Authorization: [R, R] }, request_body: { card: R, n: 1 }, query: { token: R } });
  assert.equal(checkExpectations(ok, input, { redacted: ['headers.authorization', 'request_body.card', 'query.token'] }), []);
  const partly = record({ headers: { Authorization: [R, 'b'] }, request_body: { card: '4111', n: 1 } });
  const f = checkExpectations(partly, input, { redacted: ['headers.Authorization', 'request_body.card'] });
  assert.equal(f.map((x) => x.actual), ['["[REDACTED]","b"]', '"4111"']);
  const dropped = record({ request_body: null, dropped_reason: 'request_body: malformed JSON' });
  const d = checkExpectations(dropped, input, { redacted: ['request_body.card'] });
  assert.is(d[0].actual, 'absent: request_body is null (dropped: request_body: malformed JSON)');
});

test('kept: equal to the input; a changed or missing value fails', () => {
  assert.equal(checkExpectations(record({ request_body: { card: R, n: 1 } }), input, { kept: ['request_body.n'] }), []);
  const f = checkExpectations(record({ request_body: { n: 2 } }), input, { kept: ['request_body.n', 'request_body.card'] });
  assert.equal(f.map((x) => [x.expected, x.actual]), [['1', '2'], ['"4111"', 'absent']]);
});

test('a path absent from the input fails, so a typo never passes', () => {
  const f = checkExpectations(record(), input, { redacted: ['request_body.crad'], kept: ['query.tokn'] });
  assert.is(f.length, 2);
  assert.ok(f.every((x) => x.actual === 'not in the input: check the path'));
  assert.is(checkExpectations(record(), input, { redacted: ['request_body..x'] })[0].actual, 'an unreadable path');
});

test('captured, labels, matched_rules, tokens, sampled, dropped_reason and equals', () => {
  const r = record({ request_body: null, labels: { tenant: 'a' }, matched_rules: ['x'], tokens: 3, sampled: false, dropped_reason: 'request_body: truncated at capture limit' });
  assert.equal(checkExpectations(r, input, {
    captured: { request_body: false, headers: true }, labels: { tenant: 'a' }, matched_rules: ['x'], tokens: 3, sampled: false,
    dropped_reason: 'truncated', equals: { 'labels.tenant': 'a', status: 200 },
  }), []);
  const f = checkExpectations(r, input, {
    captured: { request_body: true }, labels: {}, matched_rules: ['x', 'y'], tokens: null, sampled: true, dropped_reason: null,
    equals: { status: 500 },
  });
  assert.equal(f.map((x) => x.what), ['captured.request_body', 'labels', 'matched_rules', 'tokens', 'sampled', 'dropped_reason', 'status']);
  assert.is(f[0].actual, 'not captured (dropped: request_body: truncated at capture limit)');
});

test.run();
