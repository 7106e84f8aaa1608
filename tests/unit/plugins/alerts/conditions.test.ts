import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AlertReading } from '@vigil/plugin-sdk';
import { ANOMALY_BASELINE_WINDOWS, judge, judgeBudget, meanAndStd, windowsNeeded } from '../../../../plugins/alerts/conditions.js';

const r = (value: number | null, samples = 10): AlertReading => ({ value, samples });
const series = (values: number[], samples = 10) => values.map((v) => r(v, samples));

test('gt and lt compare the current window strictly with the threshold', () => {
  assert.is(judge({ type: 'gt', threshold: 0.2 }, [r(0.21)], 1).breach, true);
  assert.is(judge({ type: 'gt', threshold: 0.2 }, [r(0.2)], 1).breach, false);
  assert.is(judge({ type: 'lt', threshold: 0.7 }, [r(0.69)], 1).breach, true);
  assert.is(judge({ type: 'lt', threshold: 0.7 }, [r(0.7)], 1).breach, false);
  const v = judge({ type: 'gt', threshold: 100 }, [r(150, 4)], 1);
  assert.equal([v.value, v.threshold, v.samples], [150, 100, 4]);
});

test('gte and lte fire at the threshold itself (CPU ≥ 90 %, battery ≤ 15 %)', () => {
  assert.is(judge({ type: 'gte', threshold: 90 }, [r(90)], 1).breach, true);
  assert.is(judge({ type: 'gte', threshold: 90 }, [r(89.9)], 1).breach, false);
  assert.is(judge({ type: 'lte', threshold: 15 }, [r(15)], 1).breach, true);
  assert.is(judge({ type: 'lte', threshold: 15 }, [r(15.1)], 1).breach, false);
  assert.is(judge({ type: 'gte', threshold: 90 }, [r(95)], 1).note, '95 ≥ 90');
  assert.is(windowsNeeded({ type: 'lte', threshold: 1 }), 1);
});

test('min_samples: a window with fewer samples never fires, one with exactly as many does', () => {
  assert.is(judge({ type: 'gt', threshold: 0 }, [r(5, 9)], 10).breach, null);
  assert.is(judge({ type: 'gt', threshold: 0 }, [r(5, 10)], 10).breach, true);
  assert.is(judge({ type: 'gt', threshold: 0 }, [r(null, 10)], 1).breach, null, 'no value, no verdict');
  assert.is(judge({ type: 'gt', threshold: 0 }, [r(5, 0)], 0).breach, null, 'an empty window never fires, even with min_samples 0');
});

test('pct_change compares with the window before, in the direction asked', () => {
  assert.is(judge({ type: 'pct_change', direction: 'up', pct: 50 }, series([100, 150]), 1).breach, true);
  assert.is(judge({ type: 'pct_change', direction: 'up', pct: 50 }, series([100, 149]), 1).breach, false);
  assert.is(judge({ type: 'pct_change', direction: 'up', pct: 50 }, series([100, 10]), 1).breach, false, 'a drop is not a rise');
  assert.is(judge({ type: 'pct_change', direction: 'down', pct: 20 }, series([1, 0.8]), 1).breach, true);
  assert.is(judge({ type: 'pct_change', direction: 'down', pct: 20 }, series([1, 0.81]), 1).breach, false);
  assert.is(judge({ type: 'pct_change', direction: 'either', pct: 20 }, series([1, 0.7]), 1).breach, true);
  assert.is(judge({ type: 'pct_change', direction: 'either', pct: 20 }, series([1, 1.3]), 1).breach, true);
  const v = judge({ type: 'pct_change', direction: 'up', pct: 50 }, series([200, 400]), 1);
  assert.is(v.threshold, 300, 'the threshold is the value at which it fires');
  assert.is(judge({ type: 'pct_change', direction: 'up', pct: 50 }, series([0, 5]), 1).breach, null, 'no percentage of zero');
  assert.is(judge({ type: 'pct_change', direction: 'up', pct: 50 }, [r(100, 2), r(300, 10)], 5).breach, null, 'the previous window needs min_samples too');
});

test('anomaly: z-score against the 24 windows before, the deviation floored at 5 % of the mean', () => {
  assert.is(windowsNeeded({ type: 'anomaly' }), 25);
  // Alternating 90 and 110: mean 100, population std 10. z = (131 - 100) / 10 = 3.1.
  const baseline = Array.from({ length: ANOMALY_BASELINE_WINDOWS }, (_, i) => (i % 2 ? 110 : 90));
  assert.equal(meanAndStd(baseline), { mean: 100, std: 10 });
  assert.is(judge({ type: 'anomaly' }, series([...baseline, 131]), 1).breach, true);
  assert.is(judge({ type: 'anomaly' }, series([...baseline, 129]), 1).breach, false);
  assert.is(judge({ type: 'anomaly' }, series([...baseline, 69]), 1).breach, true, 'a fall is an anomaly too');
  assert.is(judge({ type: 'anomaly', z: 2 }, series([...baseline, 121]), 1).breach, true);
  assert.is(judge({ type: 'anomaly' }, series([...baseline, 131]), 1).threshold, 130);
  // A flat baseline of 100: σ = 0, floored to 5 (5 % of 100); 3σ′ = 15.
  const flat = Array(ANOMALY_BASELINE_WINDOWS).fill(100);
  assert.is(judge({ type: 'anomaly' }, series([...flat, 115]), 1).breach, true);
  assert.is(judge({ type: 'anomaly' }, series([...flat, 114.9]), 1).breach, false, 'without the floor any wobble would fire');
  // Below the floor the measured deviation wins: std 10 over a mean of 100 is above 5.
  assert.is(judge({ type: 'anomaly' }, series([...Array(ANOMALY_BASELINE_WINDOWS).fill(0), 5]), 1).breach, null, 'a baseline of zeros has no σ′');
});

test('anomaly: 23 earlier windows or one of them short of samples gives no verdict', () => {
  const baseline = Array(ANOMALY_BASELINE_WINDOWS).fill(100);
  assert.is(judge({ type: 'anomaly' }, series([...baseline.slice(1), 1000]), 1).breach, null);
  const holed = [...series(baseline), r(1000)];
  holed[3] = r(100, 2);
  assert.is(judge({ type: 'anomaly' }, holed, 5).breach, null);
  holed[3] = r(100, 5);
  assert.is(judge({ type: 'anomaly' }, holed, 5).breach, true);
});

test('budget: month-to-date spend against the share of the cap', () => {
  assert.is(judgeBudget({}, { spent: 99.99, cap: 100 }).breach, false);
  assert.is(judgeBudget({}, { spent: 100, cap: 100 }).breach, true);
  assert.is(judgeBudget({ pct: 80 }, { spent: 80, cap: 100 }).breach, true);
  assert.is(judgeBudget({ pct: 80 }, { spent: 80, cap: 100 }).threshold, 80);
  assert.is(judgeBudget({}, { spent: 1e6, cap: null }).breach, null, 'no cap, no verdict');
});

test.run();
