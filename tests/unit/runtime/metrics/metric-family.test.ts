import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MetricsRegistry, OVERFLOW_LABEL_VALUE } from '../../../../runtime/metrics/index.js';
import { parseExposition, samplesOf } from '../../../support/prometheus-text.js';

test('labels() returns the same cached child for the same values', () => {
  const r = new MetricsRegistry();
  const c = r.core.counter('vigil_cache_total', { help: 'c', labelNames: ['a', 'b', 'c', 'd'] });
  const child = c.labels('1', '2', '3', '4');
  assert.is(c.labels('1', '2', '3', '4'), child);
  assert.is.not(c.labels('1', '2', '3', '5'), child);
  const wide = r.core.counter('vigil_wide_total', { help: 'w', labelNames: ['a', 'b', 'c', 'd', 'e', 'f'] });
  assert.is(wide.labels('1', '2', '3', '4', '5', '6'), wide.labels('1', '2', '3', '4', '5', '6'));
  for (const n of [1, 2, 3]) {
    const names = ['a', 'b', 'c'].slice(0, n);
    const m = r.core.gauge(`vigil_arity_${n}`, { help: 'a', labelNames: names });
    const values = names.map((x) => `${x}!`);
    assert.is(m.labels(...values), m.labels(...values));
  }
});

test('values passed as numbers and as strings share one series; missing values are empty strings', () => {
  const r = new MetricsRegistry();
  const c = r.core.counter('vigil_status_total', { help: 's', labelNames: ['route', 'status'] });
  c.labels('/a', 200 as unknown as string).inc();
  c.labels('/a', '200').inc();
  c.labels('/a', 200 as unknown as string).inc();
  c.labels('/a').inc();
  c.inc();
  const parsed = parseExposition(r.expose());
  assert.equal(samplesOf(parsed, 'vigil_status_total').map((s) => [s.labels.route, s.labels.status, s.value]), [
    ['/a', '200', 3], ['/a', '', 1], ['', '', 1],
  ]);
});

test('more values than label names throws VIGIL_ERR_METRIC_VALUE', () => {
  const r = new MetricsRegistry();
  const c = r.core.counter('vigil_two_total', { help: 't', labelNames: ['a', 'b'] });
  let err: { code?: string; message: string } | undefined;
  try { c.labels('1', '2', '3'); } catch (e) { err = e as typeof err; }
  assert.is(err?.code, 'VIGIL_ERR_METRIC_VALUE');
  assert.match(err!.message, /3 label values for 2 label names/);
  const none = r.core.counter('vigil_none_total', { help: 'n' });
  assert.throws(() => none.labels('x'), /1 label values for 0/);
  assert.is(none.labels(), none.labels());
});

test('beyond maxValuesPerLabel distinct values, a value becomes __other__ and the overflow is counted', () => {
  const r = new MetricsRegistry({ defaultMaxValuesPerLabel: 3 });
  const c = r.forPlugin('gw').counter('hits_total', { help: 'h', labelNames: ['tenant', 'method'] });
  for (const t of ['a', 'b', 'c', 'd', 'e', 'd']) c.labels(t, 'GET').inc();
  c.labels('a', 'POST').inc();
  const parsed = parseExposition(r.expose());
  const series = samplesOf(parsed, 'vigil_gw_hits_total').map((s) => [s.labels.tenant, s.labels.method, s.value]);
  assert.equal(series, [['a', 'GET', 1], ['b', 'GET', 1], ['c', 'GET', 1], [OVERFLOW_LABEL_VALUE, 'GET', 3], ['a', 'POST', 1]]);
  assert.equal(
    samplesOf(parsed, 'vigil_metrics_label_overflow_total', { metric: 'vigil_gw_hits_total', label: 'tenant' })[0]?.value, 3);
});

test('the per-metric cap overrides the registry default, per label', () => {
  const r = new MetricsRegistry({ defaultMaxValuesPerLabel: 100 });
  const g = r.core.gauge('vigil_capped', { help: 'c', labelNames: ['k', 'v'], maxValuesPerLabel: 1 });
  g.labels('x', '1').set(1);
  g.labels('y', '1').set(2);
  g.labels('x', '2').set(3);
  const parsed = parseExposition(r.expose());
  assert.equal(samplesOf(parsed, 'vigil_capped').map((s) => [s.labels.k, s.labels.v, s.value]), [
    ['x', '1', 1], [OVERFLOW_LABEL_VALUE, '1', 2], ['x', OVERFLOW_LABEL_VALUE, 3],
  ]);
  assert.equal(samplesOf(parsed, 'vigil_metrics_label_overflow_total', { metric: 'vigil_capped', label: 'k' })[0]?.value, 1);
  assert.equal(samplesOf(parsed, 'vigil_metrics_label_overflow_total', { metric: 'vigil_capped', label: 'v' })[0]?.value, 1);
});

test('a flood of distinct values keeps the series count at the cap', () => {
  const r = new MetricsRegistry({ defaultMaxValuesPerLabel: 10 });
  const c = r.core.counter('vigil_flood_total', { help: 'f', labelNames: ['id'] });
  for (let i = 0; i < 10_000; i++) c.labels(`id-${i}`).inc();
  const series = samplesOf(parseExposition(r.expose()), 'vigil_flood_total');
  assert.is(series.length, 11);
  assert.is(series.find((s) => s.labels.id === OVERFLOW_LABEL_VALUE)?.value, 9_990);
});

test.run();
