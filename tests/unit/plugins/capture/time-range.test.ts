import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError } from '@vigil/plugin-sdk';
import { parseSince, RANGES, resolveRange } from '../../../../plugins/capture/time-range.js';

const NOW = Date.UTC(2024, 4, 1, 12, 0, 0);

function rejects(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (err) {
    assert.instance(err, HttpError);
    return err as HttpError;
  }
  throw new Error('expected an HttpError');
}

test('resolveRange: each named range ends now, with its step', () => {
  assert.equal(resolveRange('1h', NOW), { from: NOW - 3_600_000, to: NOW, step: 60_000 });
  assert.equal(resolveRange('24h', NOW), { from: NOW - 86_400_000, to: NOW, step: 900_000 });
  assert.equal(resolveRange('7d', NOW), { from: NOW - 604_800_000, to: NOW, step: 3_600_000 });
  assert.equal(Object.keys(RANGES), ['1h', '24h', '7d']);
});

test('resolveRange: anything else is a 400 naming the allowed ranges, prototype keys included', () => {
  for (const bad of ['2h', '', '1H', 'toString', '__proto__', 'constructor']) {
    const err = rejects(() => resolveRange(bad, NOW));
    assert.is(err.status, 400, bad);
    assert.is(err.code, 'VIGIL_ERR_CAPTURE_RANGE');
    assert.match(err.message, /1h, 24h, 7d/);
  }
});

test('parseSince: digits are epoch milliseconds', () => {
  assert.is(parseSince('0', NOW), 0);
  assert.is(parseSince('1714564800000', NOW), 1714564800000);
  assert.is(parseSince(' 1714564800000 ', NOW), 1714564800000);
});

test('parseSince: durations count back from now, in the config syntax', () => {
  assert.is(parseSince('90s', NOW), NOW - 90_000);
  assert.is(parseSince('15m', NOW), NOW - 900_000);
  assert.is(parseSince('2h', NOW), NOW - 7_200_000);
  assert.is(parseSince('7d', NOW), NOW - 604_800_000);
  assert.is(parseSince('1h30m', NOW), NOW - 5_400_000);
  assert.is(parseSince('1.5h', NOW), NOW - 5_400_000);
  assert.is(parseSince('500ms', NOW), NOW - 500);
});

test('parseSince: ISO 8601 dates and date-times; no offset means UTC', () => {
  assert.is(parseSince('2024-05-01T10:00:00Z', NOW), Date.UTC(2024, 4, 1, 10));
  assert.is(parseSince('2024-05-01T10:00:00.250Z', NOW), Date.UTC(2024, 4, 1, 10, 0, 0, 250));
  assert.is(parseSince('2024-05-01T12:00:00+02:00', NOW), Date.UTC(2024, 4, 1, 10));
  assert.is(parseSince('2024-05-01T10:00:00', NOW), Date.UTC(2024, 4, 1, 10));
  assert.is(parseSince('2024-05-01T10:00', NOW), Date.UTC(2024, 4, 1, 10));
  assert.is(parseSince('2024-05-01 10:00:00Z', NOW), Date.UTC(2024, 4, 1, 10));
  assert.is(parseSince('2024-05-01', NOW), Date.UTC(2024, 4, 1));
});

test('parseSince: anything Date.parse would guess at, or a day that does not exist, is a 400', () => {
  for (const bad of ['', 'yesterday', 'March 7', '1/2/2024', 'Tue, 01 May 2024 10:00:00 GMT', '-5', '1.5', '15 m', '15M',
    '2024-02-30', '2024-13-01', '2024-05-01T25:00:00Z', '2024-05-01T10:00:00+2', 'h', '5x']) {
    const err = rejects(() => parseSince(bad, NOW));
    assert.is(err.status, 400, bad);
    assert.is(err.code, 'VIGIL_ERR_CAPTURE_SINCE', bad);
    assert.match(err.message, /epoch milliseconds, an ISO 8601 date-time .* or a duration/);
    assert.ok(err.message.includes(JSON.stringify(bad)), `message names the value ${bad}`);
  }
});

test.run();
