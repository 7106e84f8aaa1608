import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isPermanent } from '@vigil/plugin-sdk';
import { httpFailure, parseRetryAfter } from '../../../../plugins/exporters/http-failure.js';

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

test('httpFailure classifies statuses', () => {
  for (const s of [300, 301, 400, 401, 403, 404, 409, 413, 422]) assert.ok(isPermanent(httpFailure('x', s)), String(s));
  for (const s of [408, 429, 500, 502, 503, 504, 599]) assert.not.ok(isPermanent(httpFailure('x', s)), String(s));
  assert.match(httpFailure('webhook a', 418, undefined, 'teapot').message, 'webhook a answered 418: teapot');
});

test.run();
