import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatCheckValue, formatMetric, formatScore, formatThreshold, formatUsd } from '../../../../../ui/src/areas/llm/figures.js';
import { chosenVersions } from '../../../../../ui/src/areas/llm/prompt-view.js';

test('dollars: a bill\'s cents from a dollar up, hundredths of a cent below, two significant digits under a cent', () => {
  assert.is(formatUsd(1234.5), '$1,234.50');
  assert.is(formatUsd(0.0252), '$0.0252');
  assert.is(formatUsd(0.01), '$0.01');
  assert.is(formatUsd(0.00042), '$0.00042');
  assert.is(formatUsd(0.000126), '$0.00013');
  assert.is(formatUsd(0), '$0');
  assert.is(formatUsd(null), '—');
});

test('scores, and the gate\'s checks in their own units', () => {
  assert.is(formatScore(null), 'no evals yet');
  assert.is(formatScore(0.8456), '0.85');
  assert.is(formatMetric('max_p95_increase_pct', 1180), '1.18\u00a0s');
  assert.is(formatMetric('max_error_rate_increase', 0.2), '20%');
  assert.is(formatMetric('max_cost_increase_pct', 0.0004), '$0.00040');
  assert.is(formatMetric('min_score', null), '—');
  assert.is(formatCheckValue('max_p95_increase_pct', 14.06), '+14.1%');
  assert.is(formatCheckValue('max_p95_increase_pct', -17), '−17%');
  assert.is(formatCheckValue('max_error_rate_increase', 0.2), '+20 points');
  assert.is(formatCheckValue('max_error_rate_increase', 0), '0 points');
  assert.is(formatCheckValue('max_cost_increase_pct', null), '—');
  assert.is(formatThreshold('max_error_rate_increase', 0.02), '≤ +2 points');
  assert.is(formatThreshold('max_p95_increase_pct', 20), '≤ +20%');
  assert.is(formatThreshold('max_error_rate', 0.05), '≤ 5%');
  assert.is(formatThreshold('min_score', 0.8), '≥ 0.80');
});

test('the template page shows the version the URL names against another, or the latest against the one before', () => {
  assert.equal(chosenVersions('', [1, 2, 3]), { version: 3, against: 2 });
  assert.equal(chosenVersions('?version=3&against=1', [1, 2, 3]), { version: 3, against: 1 });
  assert.equal(chosenVersions('?version=1&against=3', [1, 2, 3]), { version: 1, against: 3 }, 'backwards too');
  assert.equal(chosenVersions('?version=2&against=none', [1, 2, 3]), { version: 2, against: null });
  assert.equal(chosenVersions('?version=9&against=2', [1, 2, 3]), { version: 3, against: 2 }, 'an unknown version falls back to the latest');
  assert.equal(chosenVersions('?version=1', [1, 2]), { version: 1, against: null }, 'nothing before version 1');
  assert.equal(chosenVersions('?version=2&against=2', [1, 2]), { version: 2, against: null });
});

test.run();
