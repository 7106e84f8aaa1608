import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { byteRateAxis, celsiusAxis, hasValues, mean, metricSeries, peak, shareAxis } from '../../../../../ui/src/areas/host/trend-series.js';

const minutes = [{ t: 1, cpu: 10, temp: null }, { t: 2, cpu: 30 }, { t: 3, cpu: Number.NaN }];
const hours = [{ hour: 1, cpu_avg: 12, cpu_max: 80, battery_avg: null, battery_max: null }, { hour: 2, cpu_avg: 20, cpu_max: 25 }];

test('minute samples give one line, missing values as gaps', () => {
  assert.equal(metricSeries(minutes, 'cpu', false), { avg: [10, 30, null], max: null });
  assert.equal(metricSeries(minutes, 'temp', false).avg, [null, null, null]);
});

test('hourly rollups give the average and the peak', () => {
  assert.equal(metricSeries(hours, 'cpu', true), { avg: [12, 20], max: [80, 25] });
});

test('a metric with no value anywhere has no chart', () => {
  assert.not.ok(hasValues(metricSeries(hours, 'battery', true).avg));
  assert.ok(hasValues([null, 0]));
  assert.not.ok(hasValues(null));
});

test('peak and mean skip gaps', () => {
  assert.is(peak([null, 3, 9, 1]), 9);
  assert.is(peak([null]), null);
  assert.is(mean([null, 2, 4]), 3);
  assert.is(mean([]), null);
});

test('axes: shares, degrees and byte rates in one unit each', () => {
  assert.equal(shareAxis([0, 25, 50]), ['0 %', '25 %', '50 %']);
  assert.equal(shareAxis([0, 0.5, 1]), ['0 %', '0.5 %', '1 %']);
  assert.equal(celsiusAxis([40, 60.4]), ['40 °C', '60 °C']);
  assert.equal(byteRateAxis([0, 512 * 1024, 1024 * 1024, 1.5 * 1024 * 1024]), ['0', '0.5 MiB/s', '1 MiB/s', '1.5 MiB/s']);
  assert.equal(byteRateAxis([0, 200, 400]), ['0', '200 B/s', '400 B/s']);
});

test.run();
