import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkLabelNames, checkMetricName } from '../../../../runtime/metrics/metric-name-rules.js';

const rejects = (fn: () => void, pattern: RegExp): void => {
  let err: { code?: string; message: string } | undefined;
  try { fn(); } catch (e) { err = e as typeof err; }
  assert.is(err?.code, 'VIGIL_ERR_METRIC_NAME', `expected a name error matching ${pattern}`);
  assert.match(err!.message, pattern);
};

test('accepts conventional names', () => {
  checkMetricName('vigil_http_requests_total', 'counter');
  checkMetricName('process_resident_memory_bytes', 'gauge');
  checkMetricName('vigil_control_plane_request_duration_seconds', 'histogram');
  checkMetricName('nodejs_version_info', 'gauge');
  checkLabelNames('x', 'counter', ['route', 'method', 'status_code', '_private']);
});

test('counters end in _total and nothing else does', () => {
  rejects(() => checkMetricName('vigil_requests', 'counter'), /_total/);
  rejects(() => checkMetricName('vigil_requests_total', 'gauge'), /only counters/);
  rejects(() => checkMetricName('vigil_requests_total', 'histogram'), /only counters/);
});

test('histogram series suffixes are reserved', () => {
  rejects(() => checkMetricName('vigil_queue_count', 'gauge'), /_count/);
  rejects(() => checkMetricName('vigil_latency_sum', 'gauge'), /_sum/);
  rejects(() => checkMetricName('vigil_latency_bucket', 'gauge'), /_bucket/);
});

test('snake_case only; no colons, capitals or leading digits', () => {
  rejects(() => checkMetricName('vigilRequests_total', 'counter'), /snake_case/);
  rejects(() => checkMetricName('vigil:requests_total', 'counter'), /snake_case/);
  rejects(() => checkMetricName('9lives', 'gauge'), /snake_case/);
  rejects(() => checkMetricName('', 'gauge'), /snake_case/);
});

test('units: base units spelt out, no abbreviations, no type in the name', () => {
  rejects(() => checkMetricName('vigil_latency_ms', 'gauge'), /abbreviated unit "ms"/);
  rejects(() => checkMetricName('vigil_latency_milliseconds', 'histogram'), /base unit "seconds" instead of "milliseconds"/);
  rejects(() => checkMetricName('vigil_size_kilobytes', 'gauge'), /base unit "bytes"/);
  rejects(() => checkMetricName('vigil_uptime_hours', 'gauge'), /base unit "seconds"/);
  rejects(() => checkMetricName('vigil_requests_counter_total', 'counter'), /metric type "counter"/);
});

test('label names: snake_case, no __ prefix, no duplicates, le and quantile reserved', () => {
  rejects(() => checkLabelNames('m', 'counter', ['statusCode']), /snake_case/);
  rejects(() => checkLabelNames('m', 'counter', ['__name']), /reserved/);
  rejects(() => checkLabelNames('m', 'counter', ['a', 'a']), /twice/);
  rejects(() => checkLabelNames('m', 'histogram', ['le']), /"le" is reserved/);
  rejects(() => checkLabelNames('m', 'gauge', ['quantile']), /"quantile" is reserved/);
  checkLabelNames('m', 'gauge', ['le']);
});

test.run();
