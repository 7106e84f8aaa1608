process.env.TZ = 'UTC';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatAgo, formatClock, formatDateTime, formatSpan, formatTick, formatWhen } from '../../../../ui/src/format/time.js';

const at = Date.UTC(2024, 4, 6, 14, 5, 9); // Monday 6 May 2024, 14:05:09 UTC
const HOUR = 3_600_000;

test('clock and date-time, zero-padded, 24-hour', () => {
  assert.is(formatClock(at), '14:05');
  assert.is(formatDateTime(at), '2024-05-06 14:05:09');
  assert.is(formatDateTime(Date.UTC(2024, 0, 2, 3, 4, 5)), '2024-01-02 03:04:05');
});

test('chart ticks: the clock within a day, the weekday for hourly steps, the date at midnight', () => {
  assert.is(formatTick(at, 60_000), '14:05');
  assert.is(formatTick(at, 15 * 60_000), '14:05');
  assert.is(formatTick(at, HOUR), 'Mon 14:05');
  assert.is(formatTick(Date.UTC(2024, 4, 7), HOUR), 'Tue 7 May');
});

test('hover spans name the whole step', () => {
  assert.is(formatSpan(Date.UTC(2024, 4, 6, 14, 0), 60_000), '14:00');
  assert.is(formatSpan(Date.UTC(2024, 4, 6, 14, 0), 15 * 60_000), '14:00–14:15');
  assert.is(formatSpan(Date.UTC(2024, 4, 6, 14, 0), HOUR), 'Mon 14:00–15:00');
});

test('ago, in the largest unit', () => {
  assert.is(formatAgo(at, at + 2000), 'just now');
  assert.is(formatAgo(at, at + 40_000), '40 s ago');
  assert.is(formatAgo(at, at + 5 * 60_000 + 10_000), '5 min ago');
  assert.is(formatAgo(at, at + 3 * HOUR), '3 h ago');
  assert.is(formatAgo(at, at + 50 * HOUR), '2 d ago');
});

test("a record's time: the clock to the second today, the day before it otherwise, the full date in another year", () => {
  assert.is(formatWhen(at, at + 2000), '14:05:09', 'not "just now": rows of one minute stay apart');
  assert.is(formatWhen(at - 30_000, at), '14:04:39');
  assert.is(formatWhen(Date.UTC(2024, 4, 6, 0, 0, 1), at), '00:00:01');
  assert.is(formatWhen(Date.UTC(2024, 4, 5, 23, 59, 59), at), '5 May 23:59:59');
  assert.is(formatWhen(Date.UTC(2024, 0, 2, 3, 4, 5), at), '2 Jan 03:04:05');
  assert.is(formatWhen(Date.UTC(2023, 11, 31, 23, 59, 59), at), '2023-12-31 23:59:59');
});

test.run();
