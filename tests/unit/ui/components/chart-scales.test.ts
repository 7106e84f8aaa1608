import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  countAxis, latencyAxis, moneyAxis, partialBucket, percentAxis, rangeForData, tickInterval, tickTimes,
} from '../../../../ui/src/components/chart-scales.js';

test('a latency axis keeps one unit, chosen from its largest label: ms below a second, else seconds for all', () => {
  assert.equal(latencyAxis([0, 200, 400, 600]), ['0 ms', '200 ms', '400 ms', '600 ms']);
  assert.equal(latencyAxis([0, 500, 1000, 1500, 2000]), ['0 s', '0.5 s', '1 s', '1.5 s', '2 s']);
  assert.equal(latencyAxis([0, 250, 500, 750, 1000]), ['0 s', '0.25 s', '0.5 s', '0.75 s', '1 s']);
  assert.equal(latencyAxis([0, 10_000, 20_000]), ['0 s', '10 s', '20 s']);
  assert.equal(latencyAxis([0, 2.5, 5]), ['0 ms', '2.5 ms', '5 ms']);
});

test('a count axis writes every label in the largest one\'s unit', () => {
  assert.equal(countAxis([0, 200, 400, 600]), ['0', '200', '400', '600']);
  assert.equal(countAxis([0, 500, 1000, 1500]), ['0', '0.5k', '1k', '1.5k']);
  assert.equal(countAxis([0, 2_000_000, 4_000_000]), ['0', '2M', '4M']);
});

test('percent and money axes: as many decimals as the step needs', () => {
  assert.equal(percentAxis([0, 0.005, 0.01]), ['0 %', '0.5 %', '1 %']);
  assert.equal(percentAxis([0, 0.2, 0.4]), ['0 %', '20 %', '40 %']);
  assert.equal(moneyAxis('USD')([0, 0.005, 0.01]), ['$0', '$0.005', '$0.010']);
  assert.equal(moneyAxis('EUR')([0, 5, 10]), ['€0', '€5', '€10']);
});

test('time ticks: one interval per bucket size, twice as sparse when narrow, on the local clock\'s round values', () => {
  assert.is(tickInterval(60_000, false), 10 * 60_000);
  assert.is(tickInterval(900_000, false), 3 * 3_600_000);
  assert.is(tickInterval(900_000, true), 6 * 3_600_000);
  assert.is(tickInterval(3_600_000, false), 86_400_000);
  const h = 3_600_000;
  // UTC+2: three-hour ticks fall on 00:00, 03:00… local, i.e. 22:00, 01:00… UTC.
  const from = Date.UTC(2025, 0, 1, 0, 30);
  assert.equal(tickTimes(from, from + 7 * h, 3 * h, 2 * h).map((t) => new Date(t).getUTCHours()), [1, 4, 7]);
  assert.equal(tickTimes(from, from + 7 * h, 3 * h, 0).map((t) => new Date(t).getUTCHours()), [3, 6]);
});

test('the bucket still filling is the last one, while now is inside it', () => {
  const times = [0, 60_000, 120_000];
  assert.is(partialBucket(times, 60_000, 150_000), 2);
  assert.is(partialBucket(times, 60_000, 180_000), -1, 'complete once its end has passed');
  assert.is(partialBucket([], 60_000, 0), -1);
});

test('the opening range: the last hour when every bucket with data is under two hours old, else the default', () => {
  const step = 900_000;
  const now = 96 * step;
  const times = Array.from({ length: 96 }, (_, i) => i * step);
  const counts = (busyFrom: number) => times.map((_, i) => (i >= busyFrom ? 5 : 0));
  assert.is(rangeForData(times, counts(95), now, '24h', '1h'), '1h', 'a demo two minutes old');
  assert.is(rangeForData(times, counts(88), now, '24h', '1h'), '1h', 'two hours of data');
  assert.is(rangeForData(times, counts(80), now, '24h', '1h'), '24h', 'four hours of data');
  assert.is(rangeForData(times, counts(96), now, '24h', '1h'), '24h', 'no data: the default, whose empty state says so');
});

test.run();
