import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { httpFailure, isPermanent, parseRetryAfter, retryAfterOf } from '@vigil/plugin-sdk';

const codes = { rejected: 'VIGIL_ERR_TEST_REJECTED', unavailable: 'VIGIL_ERR_TEST_UNAVAILABLE' };

test('parseRetryAfter reads delay-seconds and HTTP dates, and ignores garbage', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.is(parseRetryAfter('120', now), 120_000);
  assert.is(parseRetryAfter(['3', '9'], now), 3_000);
  assert.is(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now), 30_000);
  assert.is(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now), 0);
  assert.is(parseRetryAfter('soon', now), undefined);
  assert.is(parseRetryAfter('', now), undefined);
  assert.is(parseRetryAfter(undefined, now), undefined);
  assert.is(parseRetryAfter('-5', now), undefined);
});

test('httpFailure classifies statuses, with the caller\'s codes', () => {
  for (const s of [300, 301, 400, 401, 403, 404, 409, 413, 422]) {
    const err = httpFailure('x', s, { codes });
    assert.ok(isPermanent(err), String(s));
    assert.is((err as { code: string }).code, codes.rejected);
  }
  for (const s of [408, 429, 500, 502, 503, 504, 599]) {
    const err = httpFailure('x', s, { codes });
    assert.not.ok(isPermanent(err), String(s));
    assert.is((err as { code: string }).code, codes.unavailable);
  }
  assert.match(httpFailure('webhook a', 418, { codes, detail: 'teapot' }).message, 'webhook a answered 418: teapot');
  assert.match(httpFailure('webhook a', 302, { codes }).message, 'redirects are not followed');
});

test('httpFailure honours Retry-After on 429 and 503 only, and a delay the caller read from the body', () => {
  assert.is(retryAfterOf(httpFailure('x', 429, { codes, retryAfter: '7' })), 7_000);
  assert.is(retryAfterOf(httpFailure('x', 503, { codes, retryAfter: '2' })), 2_000);
  assert.is(retryAfterOf(httpFailure('x', 500, { codes, retryAfter: '2' })), undefined);
  assert.is(retryAfterOf(httpFailure('x', 429, { codes, retryAfter: '7', retryAfterMs: 1500 })), 1500);
});

test.run();
