import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChartSeries } from '../../../../ui/src/components/chart.js';
import { stackForDrawing } from '../../../../ui/src/components/stack-series.js';

const bars = (label: string, values: (number | null)[]): ChartSeries => ({ label, color: '--chart-1', kind: 'bars', values });

test('running totals from the bottom series up, drawn tallest first', () => {
  const drawn = stackForDrawing([bars('a', [1, 2, 0]), bars('b', [3, 0, 0]), bars('c', [5, 1, 2])]);
  assert.equal(drawn.map((s) => s.label), ['c', 'b', 'a']);
  assert.equal(drawn.map((s) => s.values), [[9, 3, 2], [4, 2, 0], [1, 2, 0]]);
});

test('a gap in one series counts as nothing; a time where every series has a gap stays a gap', () => {
  const drawn = stackForDrawing([bars('a', [1, null, null]), bars('b', [null, 2, null])]);
  assert.equal(drawn.map((s) => s.values), [[1, 2, null], [1, 0, null]]);
});

test('the input series are left as they were; no series, no stack', () => {
  const input = [bars('a', [1, 2]), bars('b', [3, 4])];
  stackForDrawing(input);
  assert.equal(input.map((s) => s.values), [[1, 2], [3, 4]]);
  assert.equal(stackForDrawing([]), []);
});

test.run();
