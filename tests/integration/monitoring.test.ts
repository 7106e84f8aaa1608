// Issue 25, "Provisioned alerting" (seed item 12): examples/monitoring. promtool checks the scrape config and the
// rules and runs the rules' unit tests; every metric a rule or a Grafana panel reads is looked up in a real /metrics
// scrape of `vigil run` with the gateway and traffic, so that renaming a metric fails here, not on someone's pager.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { startDashboard, waitForRequests, type Dashboard } from '../support/dashboard.js';
import { waitFor } from '../support/net.js';
import { fromRoot } from '../support/paths.js';
import { parseExposition, samplesOf, type ParsedExposition } from '../support/prometheus-text.js';
import { familyOf, metricNames, selectorLabels } from '../support/promql-names.js';
import { promtool } from '../support/promtool.js';
import { runVigil } from '../support/vigil-process.js';

const test = suite('examples/monitoring');
const dir = fromRoot('examples/monitoring');

interface Rule { alert?: string; record?: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> }
interface Target { expr?: string; datasource?: { type?: string; uid?: string } }
interface Panel { type: string; title: string; datasource?: { type?: string; uid?: string }; targets?: Target[]; panels?: Panel[] }

const rules: Rule[] = (parseYaml(readFileSync(join(dir, 'vigil-rules.yml'), 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
const alerts = rules.filter((r) => r.alert !== undefined);
const recorded = new Set(rules.flatMap((r) => (r.record ? [r.record] : [])));
const dashboard = JSON.parse(readFileSync(join(dir, 'grafana/dashboards/vigil.json'), 'utf8')) as {
  uid: string; title: string; panels: Panel[]; templating: { list: { query: string | { query: string } }[] };
};
const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]).filter((p) => p.type !== 'row');
/** Series Prometheus makes itself for each target, never on /metrics. */
const PROMETHEUS_SERIES = new Set(['up', 'scrape_duration_seconds', 'scrape_samples_scraped', 'scrape_samples_post_metric_relabeling', 'scrape_series_added', 'ALERTS', 'ALERTS_FOR_STATE']);

/** Every PromQL expression of the example, with where it comes from. */
function expressions(): { where: string; expr: string }[] {
  const out = rules.map((r) => ({ where: `rule ${r.alert ?? r.record}`, expr: r.expr }));
  for (const p of panels) for (const t of p.targets ?? []) if (t.expr) out.push({ where: `panel "${p.title}"`, expr: t.expr });
  for (const v of dashboard.templating.list) {
    const q = typeof v.query === 'string' ? v.query : v.query.query;
    const lv = /^label_values\((.*),\s*\w+\)$/.exec(q.trim());
    out.push({ where: 'dashboard variable', expr: lv ? lv[1] : q });
  }
  return out;
}

let vigil: Dashboard;
let scrape: ParsedExposition;

test.before(async () => {
  vigil = await startDashboard();
  // 2xx, 5xx (the upstream's 503) and a metered LLM route, so that request, duration and token series have samples.
  await vigil.traffic(['/api/ok', '/api/fail', '/v1/chat/completions'], 9);
  await waitForRequests(vigil, 9);
  // The overview's rollups are committed by the capture worker, but vigil_capture_records_total and vigil_tokens_total
  // are counted afterwards, when the event loop takes the batch's result: scrape until the series the tests read are there.
  let status = 0;
  scrape = await waitFor(async () => {
    const res = await fetch(`${vigil.url}/metrics`);
    status = res.status;
    const parsed = parseExposition(await res.text());
    return status === 200 && hasTrafficSeries(parsed) ? parsed : undefined;
  }, { timeoutMs: 15_000, intervalMs: 250, what: 'the traffic\'s requests, durations, tokens and stored records on /metrics' }) as ParsedExposition;
  assert.is(status, 200, '/metrics needs no token by default, as prometheus.yml assumes');
});

/** What the scrape test below asserts: 2xx and 5xx requests, duration buckets, metered tokens, stored records. */
function hasTrafficSeries(p: ParsedExposition): boolean {
  return samplesOf(p, 'vigil_http_requests_total', { status_class: '5xx' }).some((s) => s.value > 0)
    && samplesOf(p, 'vigil_http_requests_total', { status_class: '2xx' }).some((s) => s.value > 0)
    && samplesOf(p, 'vigil_http_request_duration_seconds_bucket').length > 0
    && samplesOf(p, 'vigil_tokens_total').some((s) => s.value > 0)
    && samplesOf(p, 'vigil_capture_records_total', { outcome: 'stored' }).some((s) => s.value > 0);
}

test.after(async () => {
  await vigil?.stop();
});

test('the metric-name reader finds metrics, not functions, labels, keywords, durations or variables', () => {
  assert.equal(metricNames('histogram_quantile(0.99, sum by (job, le) (rate(a_seconds_bucket{x="y z", route=~"/api/.*"}[$__rate_interval])))').sort(), ['a_seconds_bucket']);
  assert.equal(metricNames('x:y:z > on() group_left() b offset 5m and c_total{a="1"} or sum(d) without (e) unless bool_val == bool 1e6').sort(), ['b', 'bool_val', 'c_total', 'd', 'x:y:z']);
  assert.equal(metricNames('sum(rate(foo_total[5m])) / sum(rate(foo_total [5m:1m]))'), ['foo_total']);
  assert.equal(metricNames('sum by (job) (rate(a_total[5m])) > count without(x)(b) + topk by (le) (3, c)').sort(), ['a_total', 'b', 'c']);
  assert.equal(selectorLabels('rate(a{status_class="5xx", job=~"v"}[5m]) / b{outcome!="x"}'), [
    { name: 'a', labels: ['status_class', 'job'] }, { name: 'b', labels: ['outcome'] }]);
  assert.is(familyOf('vigil_http_request_duration_seconds_bucket', new Map([['vigil_http_request_duration_seconds', 'histogram']])), 'vigil_http_request_duration_seconds');
  assert.is(familyOf('vigil_http_request_duration_seconds_bucket', new Map([['vigil_http_request_duration_seconds', 'counter']])), undefined);
});

test('prometheus.yml passes promtool check config, with its rule file found by a relative path', () => {
  const config = parseYaml(readFileSync(join(dir, 'prometheus.yml'), 'utf8')) as { rule_files: string[]; scrape_configs: { job_name: string; metrics_path?: string }[] };
  assert.equal(config.rule_files, ['vigil-rules.yml']);
  const job = config.scrape_configs.find((c) => c.job_name === 'vigil');
  assert.ok(job, 'a scrape job named vigil (the rules select job="vigil")');
  assert.is(job.metrics_path ?? '/metrics', '/metrics');
  const r = promtool(['check', 'config', 'prometheus.yml'], { cwd: dir });
  if (r) assert.ok(r.ok && /SUCCESS: 1 rule files found/.test(r.output), r.output);
});

test('vigil-rules.yml: promtool check rules; seven alerts, each with for, a severity, a summary, a description and a runbook', () => {
  const r = promtool(['check', 'rules', 'vigil-rules.yml'], { cwd: dir });
  if (r) assert.ok(r.ok, r.output);
  assert.equal(alerts.map((a) => a.alert), [
    'VigilDown', 'VigilTelemetryLaneDropping', 'VigilStoreWriteFailures', 'VigilSandboxRestarts',
    'VigilApiHighErrorRate', 'VigilApiHighLatencyP99', 'VigilTokenBudgetExceeded',
  ]);
  for (const a of alerts) {
    assert.match(a.for ?? '', /^\d+[smh]$/, `${a.alert}: for`);
    assert.ok(['critical', 'warning'].includes(a.labels?.severity ?? ''), `${a.alert}: severity`);
    for (const k of ['summary', 'description', 'runbook']) assert.ok((a.annotations?.[k] ?? '').length > 10, `${a.alert}: ${k}`);
  }
  assert.match(alerts.find((a) => a.alert === 'VigilApiHighLatencyP99')!.expr, /histogram_quantile\(0\.99,.*vigil_http_request_duration_seconds_bucket/s);
});

test('vigil-rules.test.yml: promtool test rules passes, and every alert is tested firing and not firing', () => {
  const tests = (parseYaml(readFileSync(join(dir, 'vigil-rules.test.yml'), 'utf8')) as {
    tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
  }).tests.flatMap((t) => t.alert_rule_test ?? []);
  for (const a of alerts) {
    const cases = tests.filter((t) => t.alertname === a.alert);
    assert.ok(cases.some((c) => c.exp_alerts.length > 0), `${a.alert}: no case where it fires`);
    assert.ok(cases.some((c) => c.exp_alerts.length === 0), `${a.alert}: no case where it stays quiet`);
  }
  const r = promtool(['test', 'rules', 'vigil-rules.test.yml'], { cwd: dir });
  if (r) assert.ok(r.ok && /SUCCESS/.test(r.output), r.output);
});

test('the real scrape has the series the example is about: 2xx and 5xx requests, durations, tokens, stored records', () => {
  assert.ok(samplesOf(scrape, 'vigil_http_requests_total', { status_class: '5xx' }).some((s) => s.value > 0), '5xx counted');
  assert.ok(samplesOf(scrape, 'vigil_http_requests_total', { status_class: '2xx' }).some((s) => s.value > 0), '2xx counted');
  assert.ok(samplesOf(scrape, 'vigil_http_request_duration_seconds_bucket').length > 0, 'duration buckets');
  assert.ok(samplesOf(scrape, 'vigil_tokens_total').some((s) => s.value > 0), 'tokens metered');
  assert.ok(samplesOf(scrape, 'vigil_capture_records_total', { outcome: 'stored' }).some((s) => s.value > 0), 'records stored');
});

test('every metric a rule, a panel or a dashboard variable reads is on the real /metrics, with the labels it selects', () => {
  const missing: string[] = [];
  const seen = new Set<string>();
  for (const { where, expr } of expressions()) {
    const names = metricNames(expr);
    // A constant (the token budget) reads nothing; any other expression that seems to read nothing was misread.
    if (names.length === 0) assert.match(expr.trim(), /^vector\([\d.e+]+\)$/, `${where}: no metric found in ${expr}`);
    for (const name of names) {
      if (recorded.has(name) || PROMETHEUS_SERIES.has(name)) continue;
      const family = familyOf(name, scrape.type);
      if (family === undefined) { missing.push(`${where}: ${name}`); continue; }
      seen.add(family);
    }
    for (const { name, labels } of selectorLabels(expr)) {
      if (recorded.has(name) || PROMETHEUS_SERIES.has(name)) continue;
      const series = scrape.samples.filter((s) => s.name === name);
      if (series.length === 0) continue; // a family with no series yet (no sandbox restarted): its name was checked above
      for (const label of labels) {
        // job and instance are the target's labels, added by Prometheus.
        if (label === 'job' || label === 'instance') continue;
        if (!series.some((s) => label in s.labels)) missing.push(`${where}: ${name} has no label ${label}`);
      }
    }
  }
  assert.equal(missing, [], `not on /metrics:\n${missing.join('\n')}`);
  for (const family of ['vigil_http_requests_total', 'vigil_http_request_duration_seconds', 'vigil_capture_records_total', 'vigil_store_errors_total', 'vigil_sandbox_restarts_total', 'vigil_tokens_total']) {
    assert.ok(seen.has(family), `nothing reads ${family}`);
  }
});

test('the recording rules the dashboard and the budget alert read are defined', () => {
  const used = new Set(expressions().flatMap(({ expr }) => metricNames(expr)).filter((n) => n.includes(':')));
  assert.ok(used.size > 0);
  for (const n of used) assert.ok(recorded.has(n), `${n} is not a recording rule of vigil-rules.yml`);
});

test('the Grafana dashboard: panels for each area, each with the provisioned data source and PromQL targets', () => {
  const ds = (parseYaml(readFileSync(join(dir, 'grafana/provisioning/datasources/prometheus.yml'), 'utf8')) as {
    datasources: { uid: string; type: string; url: string }[];
  }).datasources[0];
  assert.is(ds.type, 'prometheus');
  assert.match(ds.url, /^http:\/\/prometheus:9090$/);
  assert.is(dashboard.uid, 'vigil');
  assert.ok(panels.length >= 7);
  for (const p of panels) {
    assert.is(p.datasource?.uid, ds.uid, `panel "${p.title}": data source`);
    assert.ok((p.targets ?? []).length > 0, `panel "${p.title}": targets`);
    for (const t of p.targets!) {
      assert.ok(typeof t.expr === 'string' && t.expr.length > 0, `panel "${p.title}": a target without expr`);
      assert.is(t.datasource?.uid ?? ds.uid, ds.uid);
    }
  }
  const text = JSON.stringify(dashboard.panels.map((p) => p.title));
  for (const area of ['Traffic', 'Errors', 'Latency', 'Telemetry lane', 'Store', 'Sandbox', 'Tokens']) assert.ok(text.includes(`"${area}"`), `a ${area} row`);
  const exprs = panels.flatMap((p) => p.targets!.map((t) => t.expr!)).join('\n');
  assert.match(exprs, /histogram_quantile\(0\.95,/);
  assert.match(exprs, /histogram_quantile\(0\.99,/);
  const providers = (parseYaml(readFileSync(join(dir, 'grafana/provisioning/dashboards/vigil.yml'), 'utf8')) as {
    providers: { type: string; options: { path: string } }[];
  }).providers;
  assert.is(providers[0].type, 'file');
  const compose = readFileSync(join(dir, 'compose.yaml'), 'utf8');
  assert.ok(compose.includes(`./grafana/dashboards:${providers[0].options.path}`), 'compose mounts the dashboards where the provider reads them');
});

test('compose.yaml wires Vigil, Prometheus and Grafana, and the README says it does not run in CI', () => {
  const compose = parseYaml(readFileSync(join(dir, 'compose.yaml'), 'utf8')) as { services: Record<string, unknown> };
  for (const s of ['vigil', 'prometheus', 'grafana']) assert.ok(s in compose.services, s);
  assert.ok(existsSync(join(dir, 'Dockerfile')));
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  assert.match(readme, /cannot be run in this project's CI/);
});

test('the composition\'s vigil.yaml is valid, and allows the host name Prometheus scrapes', async () => {
  const r = await runVigil(['validate', '-config', join(dir, 'vigil.yaml')]);
  assert.is(r.code, 0, `${r.stdout}${r.stderr}`);
  const config = parseYaml(readFileSync(join(dir, 'vigil.yaml'), 'utf8')) as { control_plane: { allowed_hosts: string[] } };
  const scraped = (parseYaml(readFileSync(join(dir, 'prometheus.yml'), 'utf8')) as {
    scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
  }).scrape_configs.find((c) => c.job_name === 'vigil')!.static_configs[0].targets[0];
  assert.ok(config.control_plane.allowed_hosts.includes(scraped.split(':')[0]), `${scraped} not in allowed_hosts`);
});

test.run();
