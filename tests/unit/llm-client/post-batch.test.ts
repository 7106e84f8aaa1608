// clients/node/src/post-batch.ts: what each answer of POST /v1/traces means for the batch.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { classify } from '../../../clients/node/src/post-batch.js';

test('202: accepted and rejected counts, and the per-item errors', () => {
  const errors = [{ index: 1, code: 'type', message: 'must be string', path: '/traces/1/model' }];
  assert.equal(classify(202, {}, JSON.stringify({ accepted: 2, rejected: 1, errors, ids: ['a', 'b'] }), 3),
    { kind: 'accepted', accepted: 2, rejected: 1, errors });
});

test('a 2xx without a readable body counts the whole batch as accepted', () => {
  assert.equal(classify(200, {}, '', 4), { kind: 'accepted', accepted: 4, rejected: 0, errors: [] });
  assert.equal(classify(202, {}, '{"errors":[{"index":0}]}', 4), { kind: 'accepted', accepted: 3, rejected: 1, errors: [{ index: 0 }] });
});

test('429 and 5xx are retried, with Retry-After when given', () => {
  assert.equal(classify(429, { 'retry-after': '7' }, '{"error":{"code":"PLAN","message":"over plan"}}', 1),
    { kind: 'retry', status: 429, reason: 'HTTP 429: PLAN: over plan', retryAfterMs: 7000 });
  assert.equal(classify(503, {}, 'Service Unavailable', 1), { kind: 'retry', status: 503, reason: 'HTTP 503: Service Unavailable', retryAfterMs: undefined });
});

test('413 is too large; every other status is refused with the server\'s message', () => {
  assert.equal(classify(413, {}, '{"error":{"message":"over 5 MB"}}', 9), { kind: 'too-large', reason: 'HTTP 413: over 5 MB' });
  assert.equal(classify(401, {}, '{"error":{"code":"KEY","message":"unknown key"}}', 1), { kind: 'refused', status: 401, reason: 'HTTP 401: KEY: unknown key' });
  assert.equal(classify(400, {}, '', 1), { kind: 'refused', status: 400, reason: 'HTTP 400' });
  assert.equal(classify(408, {}, '', 1).kind, 'refused', 'a 4xx that is not 429 is never retried');
  assert.equal(classify(301, {}, '', 1).kind, 'refused', 'a redirect means a wrong URL');
});

test.run();
