import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MetricsRegistry, registerProcessMetrics } from '../../../../runtime/metrics/index.js';
import { parseExposition, samplesOf } from '../../../support/prometheus-text.js';
import { promtoolCheck } from '../../../support/promtool.js';

const EXPECTED = [
  'process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_start_time_seconds',
  'nodejs_heap_used_bytes', 'nodejs_eventloop_lag_seconds',
];

test('process and Node.js metrics are read at exposition with plausible values', async () => {
  const r = new MetricsRegistry();
  const dispose = registerProcessMetrics(r);
  try {
    const spinUntil = Date.now() + 30;
    while (Date.now() < spinUntil) { /* burn CPU so the counter moves */ }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const parsed = parseExposition(r.expose());
    for (const name of EXPECTED) assert.ok(parsed.type.has(name), `${name} missing`);
    assert.ok(samplesOf(parsed, 'process_cpu_seconds_total')[0].value > 0);
    assert.ok(samplesOf(parsed, 'process_resident_memory_bytes')[0].value > 1_000_000);
    const start = samplesOf(parsed, 'process_start_time_seconds')[0].value;
    assert.ok(Math.abs(start - (Date.now() / 1000 - process.uptime())) < 5, `start time ${start}`);
    assert.ok(samplesOf(parsed, 'nodejs_heap_used_bytes')[0].value > 0);
    assert.ok(samplesOf(parsed, 'nodejs_eventloop_lag_seconds')[0].value >= 0);
    assert.is(samplesOf(parsed, 'nodejs_version_info')[0].labels.version, process.version);
    if (process.platform === 'linux') assert.ok(samplesOf(parsed, 'process_open_fds')[0].value > 0);
    const second = samplesOf(parseExposition(r.expose()), 'process_cpu_seconds_total')[0].value;
    assert.ok(second >= samplesOf(parsed, 'process_cpu_seconds_total')[0].value, 'cpu counter went down');
  } finally {
    dispose();
  }
});

test('promtool accepts the process metrics', () => {
  const r = new MetricsRegistry();
  const dispose = registerProcessMetrics(r);
  const result = promtoolCheck(r.expose());
  dispose();
  if (result) assert.ok(result.ok, result.output);
});

test('dispose removes the metrics and may be called twice', () => {
  const r = new MetricsRegistry();
  const dispose = registerProcessMetrics(r);
  dispose();
  dispose();
  const text = r.expose();
  for (const name of EXPECTED) assert.not.ok(text.includes(name), `${name} still exposed`);
  registerProcessMetrics(r)();
});

test('the observers do not keep a process alive', () => {
  const url = new URL('../../../../runtime/metrics/index.js', import.meta.url).href;
  const script = `import(${JSON.stringify(url)}).then(({ MetricsRegistry, registerProcessMetrics }) => {
    registerProcessMetrics(new MetricsRegistry()); console.log('registered');
  });`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  assert.is(r.signal, null, 'the child had to be killed: something kept it alive');
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout.trim(), 'registered');
});

test.run();
