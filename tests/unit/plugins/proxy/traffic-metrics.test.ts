import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MetricsRegistry } from '../../../../runtime/metrics/index.js';
import { statusClass, TrafficMetrics } from '../../../../plugins/proxy/traffic-metrics.js';
import { parseExposition, samplesOf } from '../../../support/prometheus-text.js';

test('status classes', () => {
  assert.is(statusClass(200), '2xx');
  assert.is(statusClass(204), '2xx');
  assert.is(statusClass(302), '3xx');
  assert.is(statusClass(404), '4xx');
  assert.is(statusClass(499), '4xx');
  assert.is(statusClass(502), '5xx');
  assert.is(statusClass(101), '1xx');
  assert.is(statusClass(0), '1xx');
  assert.is(statusClass(999), '5xx');
});

test('without policy labels: requests and durations by route, method and status class', () => {
  const registry = new MetricsRegistry();
  const m = new TrafficMetrics(registry.forPlugin('proxy'), []);
  m.observe('/api/**', 'GET', 200, null, 0.002);
  m.observe('/api/**', 'GET', 201, null, 0.004);
  m.observe('/api/**', 'POST', 503, null, 0.1);
  m.observe('unmatched', 'GET', 404, null, 0.001);
  const parsed = parseExposition(registry.expose());
  assert.is(samplesOf(parsed, 'vigil_http_requests_total', { route: '/api/**', method: 'GET', status_class: '2xx' })[0]?.value, 2);
  assert.is(samplesOf(parsed, 'vigil_http_requests_total', { route: '/api/**', method: 'POST', status_class: '5xx' })[0]?.value, 1);
  assert.is(samplesOf(parsed, 'vigil_http_requests_total', { route: 'unmatched', status_class: '4xx' })[0]?.value, 1);
  const count = samplesOf(parsed, 'vigil_http_request_duration_seconds_count', { route: '/api/**', method: 'GET' });
  assert.is(count[0]?.value, 2);
  const sum = samplesOf(parsed, 'vigil_http_request_duration_seconds_sum', { route: '/api/**', method: 'GET' });
  assert.ok(Math.abs((sum[0]?.value ?? 0) - 0.006) < 1e-9);
});

test('with policy labels: each label is a dimension; the request counts once with its values', () => {
  const registry = new MetricsRegistry();
  const m = new TrafficMetrics(registry.forPlugin('proxy'), ['tenant', 'plan']);
  m.observe('/**', 'GET', 200, ['acme', 'gold'], 0.01);
  m.observe('/**', 'GET', 200, ['acme', ''], 0.01);
  const parsed = parseExposition(registry.expose());
  const s = samplesOf(parsed, 'vigil_http_requests_total');
  assert.is(s.length, 2);
  assert.equal(s.find((x) => x.labels.plan === 'gold')?.labels, { route: '/**', method: 'GET', status_class: '2xx', tenant: 'acme', plan: 'gold' });
  assert.ok(s.find((x) => x.labels.plan === ''));
});

test('label values beyond the cardinality cap go to __other__ and are counted as overflow', () => {
  const registry = new MetricsRegistry({ defaultMaxValuesPerLabel: 3 });
  const m = new TrafficMetrics(registry.forPlugin('proxy'), ['tenant']);
  for (let i = 0; i < 10; i++) m.observe('/**', 'GET', 200, [`t${i}`], 0.01);
  const parsed = parseExposition(registry.expose());
  assert.is(samplesOf(parsed, 'vigil_http_requests_total', { tenant: '__other__' })[0]?.value, 7);
  const overflow = samplesOf(parsed, 'vigil_metrics_label_overflow_total', { metric: 'vigil_http_requests_total', label: 'tenant' });
  assert.is(overflow[0]?.value, 7);
});

test('body copies and failures are counted by part and code', () => {
  const registry = new MetricsRegistry();
  const m = new TrafficMetrics(registry.forPlugin('proxy'), []);
  m.bodyCopy('request_body');
  m.bodyCopy('response_body');
  m.bodyCopy('response_body');
  m.failure('VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT');
  const parsed = parseExposition(registry.expose());
  assert.is(samplesOf(parsed, 'vigil_proxy_body_copies_total', { part: 'request_body' })[0]?.value, 1);
  assert.is(samplesOf(parsed, 'vigil_proxy_body_copies_total', { part: 'response_body' })[0]?.value, 2);
  assert.is(samplesOf(parsed, 'vigil_proxy_failures_total', { code: 'VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT' })[0]?.value, 1);
});

test.run();
