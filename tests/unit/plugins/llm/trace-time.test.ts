// A trace's time: the call's start_time from MAX_BACKDATE_MS back to now, both ends included; otherwise its arrival.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_BACKDATE_MS, traceTime } from '../../../../plugins/llm/trace-time.js';

const NOW = Date.UTC(2026, 5, 1, 12);
const iso = (ms: number) => new Date(ms).toISOString();

test('within the bound: the start time; at or past its ends as the bound says', () => {
  assert.is(traceTime(iso(NOW - 3_600_000), NOW), NOW - 3_600_000);
  assert.is(traceTime(iso(NOW), NOW), NOW);
  assert.is(traceTime(iso(NOW - MAX_BACKDATE_MS), NOW), NOW - MAX_BACKDATE_MS, 'the oldest time taken');
  assert.is(traceTime(iso(NOW - MAX_BACKDATE_MS - 1), NOW), NOW, 'a millisecond older: the arrival');
  assert.is(traceTime(iso(NOW + 1), NOW), NOW, 'ahead of the clock: the arrival');
  assert.is(traceTime(undefined, NOW), NOW);
  assert.is(traceTime('2026-06-01T11:00:00+02:00', NOW), NOW - 3 * 3_600_000, 'offsets are read');
});

test.run();
