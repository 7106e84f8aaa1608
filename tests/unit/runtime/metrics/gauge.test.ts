import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MetricsRegistry } from '../../../../runtime/metrics/index.js';
import { parseExposition, samplesOf } from '../../../support/prometheus-text.js';

test('set, inc and dec move a gauge both ways, including below zero', () => {
  const r = new MetricsRegistry();
  const g = r.core.gauge('vigil_level', { help: 'l' });
  g.set(5);
  g.inc();
  g.dec(10);
  const child = r.core.gauge('vigil_pool_threads', { help: 't', labelNames: ['pool'] }).labels('capture');
  child.inc(4);
  child.dec();
  const parsed = parseExposition(r.expose());
  assert.equal(samplesOf(parsed, 'vigil_level')[0]?.value, -4);
  assert.equal(samplesOf(parsed, 'vigil_pool_threads', { pool: 'capture' })[0]?.value, 3);
});

test('non-finite gauge values are exposed as +Inf, -Inf and NaN', () => {
  const r = new MetricsRegistry();
  r.core.gauge('vigil_pos', { help: 'p' }).set(Infinity);
  r.core.gauge('vigil_neg', { help: 'n' }).set(-Infinity);
  r.core.gauge('vigil_nan', { help: 'n' }).set(NaN);
  const text = r.expose();
  assert.ok(text.includes('vigil_pos +Inf\n'));
  assert.ok(text.includes('vigil_neg -Inf\n'));
  assert.ok(text.includes('vigil_nan NaN\n'));
});

test.run();
