import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MetricsRegistry } from '../../../../runtime/metrics/index.js';
import { parseExposition, samplesOf } from '../../../support/prometheus-text.js';
import { promtoolCheck } from '../../../support/promtool.js';

function code(fn: () => unknown): string | undefined {
  try { fn(); } catch (err) { return (err as { code?: string }).code; }
  return undefined;
}

test('plugin names get the vigil_<plugin>_ prefix with dashes as underscores; vigil_ names stay as they are', () => {
  const r = new MetricsRegistry();
  r.forPlugin('hello-plugin').counter('greetings_total', { help: 'Greetings.' }).inc();
  r.forPlugin('hello-plugin').counter('vigil_http_requests_total', { help: 'Requests.' }).inc(3);
  r.core.gauge('process_open_fds', { help: 'Open fds.' }).set(7);
  const parsed = parseExposition(r.expose());
  assert.equal(samplesOf(parsed, 'vigil_hello_plugin_greetings_total')[0]?.value, 1);
  assert.equal(samplesOf(parsed, 'vigil_http_requests_total')[0]?.value, 3);
  assert.equal(samplesOf(parsed, 'process_open_fds')[0]?.value, 7);
  assert.is(parsed.type.get('vigil_hello_plugin_greetings_total'), 'counter');
});

test('contentType is the Prometheus text format 0.0.4', () => {
  assert.is(new MetricsRegistry().contentType, 'text/plain; version=0.0.4; charset=utf-8');
});

test('a metric without observations still has HELP and TYPE, and an unlabelled one a 0 sample', () => {
  const r = new MetricsRegistry();
  r.core.counter('vigil_idle_total', { help: 'Never incremented.' });
  r.core.counter('vigil_idle_labelled_total', { help: 'Never incremented, labelled.', labelNames: ['kind'] });
  r.core.histogram('vigil_idle_seconds', { help: 'Never observed.', buckets: [1, 2] });
  const parsed = parseExposition(r.expose());
  assert.is(parsed.help.get('vigil_idle_total'), 'Never incremented.');
  assert.is(parsed.help.get('vigil_idle_labelled_total'), 'Never incremented, labelled.');
  assert.is(parsed.type.get('vigil_idle_labelled_total'), 'counter');
  assert.equal(samplesOf(parsed, 'vigil_idle_total').map((s) => s.value), [0]);
  assert.equal(samplesOf(parsed, 'vigil_idle_labelled_total'), []);
  assert.equal(samplesOf(parsed, 'vigil_idle_seconds_bucket').map((s) => [s.labels.le, s.value]), [['1', 0], ['2', 0], ['+Inf', 0]]);
  assert.equal(samplesOf(parsed, 'vigil_idle_seconds_count')[0]?.value, 0);
  assert.equal(samplesOf(parsed, 'vigil_idle_seconds_sum')[0]?.value, 0);
});

test('label values and help text are escaped, and parse back to the original', () => {
  const r = new MetricsRegistry();
  const nasty = 'a\\b"c\nd';
  r.core.counter('vigil_escape_total', { help: 'Line one\nline two \\ backslash "quotes" stay.', labelNames: ['v'] }).labels(nasty).inc();
  const text = r.expose();
  assert.ok(text.includes('v="a\\\\b\\"c\\nd"'), text);
  assert.ok(text.includes('# HELP vigil_escape_total Line one\\nline two \\\\ backslash "quotes" stay.\n'), text);
  const parsed = parseExposition(text);
  assert.is(samplesOf(parsed, 'vigil_escape_total')[0]?.labels.v, nasty);
  assert.is(parsed.help.get('vigil_escape_total'), 'Line one\nline two \\ backslash "quotes" stay.');
});

test('families are exposed sorted by name, each series once', () => {
  const r = new MetricsRegistry();
  r.core.gauge('vigil_zeta', { help: 'z' }).set(1);
  r.core.gauge('vigil_alpha', { help: 'a', labelNames: ['x'] }).labels('1').set(2);
  r.core.gauge('vigil_alpha', { help: 'a', labelNames: ['x'] }).labels(1 as unknown as string).set(3);
  const parsed = parseExposition(r.expose());
  const names = [...parsed.type.keys()];
  assert.ok(names.indexOf('vigil_alpha') < names.indexOf('vigil_zeta'));
  assert.equal(samplesOf(parsed, 'vigil_alpha').map((s) => [s.labels.x, s.value]), [['1', 3]]);
});

test('registering the same name with the same type and labels returns the same metric', () => {
  const r = new MetricsRegistry();
  const a = r.forPlugin('p').counter('hits_total', { help: 'Hits.', labelNames: ['route'] });
  const b = r.forPlugin('p').counter('hits_total', { help: 'Hits again.', labelNames: ['route'] });
  assert.is(a, b);
  const h1 = r.core.histogram('vigil_wait_seconds', { help: 'w', buckets: [1, 2] });
  assert.is(r.core.histogram('vigil_wait_seconds', { help: 'w', buckets: [1, 2] }), h1);
});

test('registering a name again with another type, labels or buckets throws VIGIL_ERR_METRIC_CONFLICT naming both', () => {
  const r = new MetricsRegistry();
  r.forPlugin('alpha').counter('vigil_shared_total', { help: 'x', labelNames: ['route'] });
  let err: { code?: string; message: string } | undefined;
  try { r.forPlugin('beta').counter('vigil_shared_total', { help: 'x', labelNames: ['path'] }); } catch (e) { err = e as typeof err; }
  assert.is(err?.code, 'VIGIL_ERR_METRIC_CONFLICT');
  assert.match(err!.message, /plugin "alpha"/);
  assert.match(err!.message, /plugin "beta"/);
  assert.match(err!.message, /counter\{route\}/);
  assert.match(err!.message, /counter\{path\}/);
  r.core.gauge('vigil_kind', { help: 'k' });
  assert.is(code(() => r.core.histogram('vigil_kind', { help: 'k' })), 'VIGIL_ERR_METRIC_CONFLICT');
  r.core.histogram('vigil_span_seconds', { help: 's', buckets: [1] });
  assert.is(code(() => r.core.histogram('vigil_span_seconds', { help: 's', buckets: [2] })), 'VIGIL_ERR_METRIC_CONFLICT');
});

test('names promtool would reject are refused at registration', () => {
  const r = new MetricsRegistry();
  assert.is(code(() => r.core.counter('vigil_requests', { help: 'x' })), 'VIGIL_ERR_METRIC_NAME');
  assert.is(code(() => r.core.gauge('vigil_queue_total', { help: 'x' })), 'VIGIL_ERR_METRIC_NAME');
  assert.is(code(() => r.core.gauge('vigil_latency_ms', { help: 'x' })), 'VIGIL_ERR_METRIC_NAME');
  assert.is(code(() => r.forPlugin('p').gauge('queueDepth', { help: 'x' })), 'VIGIL_ERR_METRIC_NAME');
  assert.is(code(() => r.core.counter('vigil_ok_total', { help: '' })), 'VIGIL_ERR_METRIC_OPTIONS');
  assert.is(code(() => r.core.counter('vigil_ok_total', { help: 'x', maxValuesPerLabel: 0 })), 'VIGIL_ERR_METRIC_OPTIONS');
  assert.is(code(() => new MetricsRegistry({ defaultMaxValuesPerLabel: -1 })), 'VIGIL_ERR_METRIC_OPTIONS');
});

test('gauge collect callbacks run at exposition; a throwing one is counted and the rest still exposed', () => {
  const r = new MetricsRegistry();
  let calls = 0;
  r.core.gauge('vigil_queue_depth', { help: 'Depth.', collect: (g) => { calls++; g.set(calls * 10); } });
  r.core.gauge('vigil_broken', { help: 'Broken.', collect: () => { throw new Error('boom'); } });
  r.expose();
  const parsed = parseExposition(r.expose());
  assert.is(calls, 2);
  assert.equal(samplesOf(parsed, 'vigil_queue_depth')[0]?.value, 20);
  assert.equal(samplesOf(parsed, 'vigil_broken')[0]?.value, 0);
  assert.equal(samplesOf(parsed, 'vigil_metrics_collect_errors_total', { metric: 'vigil_broken' })[0]?.value, 2);
});

test('onCollect hooks run before exposition and can be removed', () => {
  const r = new MetricsRegistry();
  const g = r.core.gauge('vigil_hooked', { help: 'h' });
  let n = 0;
  const remove = r.onCollect('hooked', () => g.set(++n));
  r.expose();
  assert.equal(samplesOf(parseExposition(r.expose()), 'vigil_hooked')[0]?.value, 2);
  remove();
  assert.equal(samplesOf(parseExposition(r.expose()), 'vigil_hooked')[0]?.value, 2);
});

test('unregister removes a family; registering it again starts from zero', () => {
  const r = new MetricsRegistry();
  r.core.counter('vigil_gone_total', { help: 'g' }).inc(5);
  assert.ok(r.unregister('vigil_gone_total'));
  assert.not.ok(r.expose().includes('vigil_gone_total'));
  r.core.counter('vigil_gone_total', { help: 'g' }).inc();
  assert.equal(samplesOf(parseExposition(r.expose()), 'vigil_gone_total')[0]?.value, 1);
});

test('promtool check metrics accepts a registry with every metric kind, labels, escapes and overflow', () => {
  const r = new MetricsRegistry({ defaultMaxValuesPerLabel: 2 });
  const p = r.forPlugin('hello-plugin');
  const c = p.counter('greetings_total', { help: 'Greetings said, by language.', labelNames: ['lang'] });
  for (const lang of ['en', 'fr', 'de', 'it']) c.labels(lang).inc();
  p.gauge('queue_depth', { help: 'Items waiting.' }).set(3);
  const h = p.histogram('request_duration_seconds', { help: 'Handling time, in seconds.', labelNames: ['route', 'status'] });
  h.labels('/a/:id', '200').observe(0.03);
  h.labels('/quote"\\\n', '500').observe(12);
  p.histogram('payload_bytes', { help: 'Payload size, in bytes.', buckets: [100, 1000] });
  const result = promtoolCheck(r.expose());
  if (result) assert.ok(result.ok, result.output);
});

test.run();
