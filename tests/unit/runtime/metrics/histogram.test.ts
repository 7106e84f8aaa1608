import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MetricsRegistry, DEFAULT_BUCKETS } from '../../../../runtime/metrics/index.js';
import { parseExposition, samplesOf } from '../../../support/prometheus-text.js';

test('buckets are cumulative, bounds inclusive, with +Inf, _sum and _count', () => {
  const r = new MetricsRegistry();
  const h = r.core.histogram('vigil_size_bytes', { help: 's', buckets: [10, 100], labelNames: ['route'] });
  for (const v of [1, 10, 11, 100, 1000]) h.labels('/x').observe(v);
  const parsed = parseExposition(r.expose());
  assert.equal(samplesOf(parsed, 'vigil_size_bytes_bucket', { route: '/x' }).map((s) => [s.labels.le, s.value]), [
    ['10', 2], ['100', 4], ['+Inf', 5],
  ]);
  assert.equal(samplesOf(parsed, 'vigil_size_bytes_sum', { route: '/x' })[0]?.value, 1122);
  assert.equal(samplesOf(parsed, 'vigil_size_bytes_count', { route: '/x' })[0]?.value, 5);
  assert.is(parsed.type.get('vigil_size_bytes'), 'histogram');
});

test('default buckets are Prometheus seconds buckets; a trailing Infinity bound is implicit', () => {
  const r = new MetricsRegistry();
  r.core.histogram('vigil_default_seconds', { help: 'd' }).observe(0.3);
  r.core.histogram('vigil_inf_seconds', { help: 'i', buckets: [1, Infinity] }).observe(5);
  const parsed = parseExposition(r.expose());
  const les = samplesOf(parsed, 'vigil_default_seconds_bucket').map((s) => s.labels.le);
  assert.equal(les, [...DEFAULT_BUCKETS.map(String), '+Inf']);
  assert.equal(samplesOf(parsed, 'vigil_default_seconds_bucket', { le: '0.5' })[0]?.value, 1);
  assert.equal(samplesOf(parsed, 'vigil_default_seconds_bucket', { le: '0.25' })[0]?.value, 0);
  assert.equal(samplesOf(parsed, 'vigil_inf_seconds_bucket').map((s) => [s.labels.le, s.value]), [['1', 0], ['+Inf', 1]]);
});

test('NaN observations are not recorded; negative values land in the first bucket', () => {
  const r = new MetricsRegistry();
  const h = r.core.histogram('vigil_delta_seconds', { help: 'd', buckets: [0, 1] });
  h.observe(NaN);
  h.observe(-2);
  const parsed = parseExposition(r.expose());
  assert.equal(samplesOf(parsed, 'vigil_delta_seconds_count')[0]?.value, 1);
  assert.equal(samplesOf(parsed, 'vigil_delta_seconds_sum')[0]?.value, -2);
  assert.equal(samplesOf(parsed, 'vigil_delta_seconds_bucket', { le: '0' })[0]?.value, 1);
});

test('unsorted, duplicate or non-finite bounds and the reserved le label are rejected', () => {
  const r = new MetricsRegistry();
  const codeOf = (fn: () => unknown): string | undefined => {
    try { fn(); } catch (e) { return (e as { code?: string }).code; }
    return undefined;
  };
  assert.is(codeOf(() => r.core.histogram('vigil_unsorted_seconds', { help: 'a', buckets: [2, 1] })), 'VIGIL_ERR_METRIC_OPTIONS');
  assert.is(codeOf(() => r.core.histogram('vigil_repeated_seconds', { help: 'b', buckets: [1, 1] })), 'VIGIL_ERR_METRIC_OPTIONS');
  assert.is(codeOf(() => r.core.histogram('vigil_nan_seconds', { help: 'c', buckets: [NaN] })), 'VIGIL_ERR_METRIC_OPTIONS');
  assert.is(codeOf(() => r.core.histogram('vigil_le_seconds', { help: 'd', labelNames: ['le'] })), 'VIGIL_ERR_METRIC_NAME');
});

test.run();
