import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MetricsRegistry } from '../../../../runtime/metrics/index.js';
import { parseExposition, samplesOf } from '../../../support/prometheus-text.js';

test('inc adds 1 by default and the given amount otherwise', () => {
  const r = new MetricsRegistry();
  const c = r.core.counter('vigil_things_total', { help: 't', labelNames: ['kind'] });
  c.labels('a').inc();
  c.labels('a').inc(2.5);
  c.labels('b').inc(0);
  const parsed = parseExposition(r.expose());
  assert.equal(samplesOf(parsed, 'vigil_things_total').map((s) => [s.labels.kind, s.value]), [['a', 3.5], ['b', 0]]);
});

test('a counter refuses to go down or to take NaN', () => {
  const r = new MetricsRegistry();
  const c = r.core.counter('vigil_up_only_total', { help: 'u' });
  for (const bad of [-1, NaN]) {
    let code: string | undefined;
    try { c.inc(bad); } catch (e) { code = (e as { code?: string }).code; }
    assert.is(code, 'VIGIL_ERR_METRIC_VALUE');
  }
  assert.equal(samplesOf(parseExposition(r.expose()), 'vigil_up_only_total')[0]?.value, 0);
});

test.run();
