// The host metrics under node-exporter's names: on this machine's /proc promtool accepts the scrape (the one lint it
// raises, camelCase, is on node-exporter's own meminfo names) and node-exporter's recording rules evaluate on two real
// scrapes with `promtool test rules`, against values computed here from the same scrapes; a fixture laptop gives
// sensors and batteries; counters never go back.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { registerNodeMetrics } from '../../../../../plugins/probes/node-exporter/node-metrics.js';
import { MetricsRegistry } from '../../../../../runtime/metrics/registry.js';
import { promtool, promtoolCheck } from '../../../../support/promtool.js';
import { laptop } from '../proc/fixture-roots.js';

/** `name{labels} value` lines of an exposition, by the whole series key. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    out.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return out;
}

async function scrapeOf(root?: string) {
  const registry = new MetricsRegistry();
  const node = registerNodeMetrics(registry.forPlugin('probes'), root ? { root } : {});
  await node.refreshSlow();
  return { registry, node, expose: () => registry.expose() };
}

test('this machine: the families node-exporter dashboards query, with its label sets; promtool accepts the scrape', async () => {
  const { expose, node } = await scrapeOf();
  const text = expose();
  node.stop();
  const s = samples(text);
  const cores = readFileSync('/proc/stat', 'utf8').split('\n').filter((l) => /^cpu\d+ /.test(l)).length;
  for (let cpu = 0; cpu < cores; cpu++) {
    for (const mode of ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal']) {
      assert.ok(s.has(`node_cpu_seconds_total{cpu="${cpu}",mode="${mode}"}`), `cpu ${cpu} ${mode}`);
    }
  }
  const meminfo = readFileSync('/proc/meminfo', 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(meminfo)![1]) * 1024;
  assert.is(s.get('node_memory_MemTotal_bytes'), kib('MemTotal'));
  assert.is(s.get('node_memory_SwapTotal_bytes'), kib('SwapTotal'));
  for (const name of ['MemAvailable', 'MemFree', 'Buffers', 'Cached', 'SwapFree']) assert.ok(s.has(`node_memory_${name}_bytes`), name);
  const root = [...s.keys()].find((k) => k.startsWith('node_filesystem_avail_bytes{') && k.includes('mountpoint="/"'));
  assert.ok(root, 'the root filesystem has its gauges');
  assert.ok(s.get(root!.replace('avail', 'size'))! >= s.get(root!.replace('avail', 'free'))!, 'size ≥ free');
  assert.ok(s.get(root!.replace('avail', 'free'))! >= s.get(root!)!, 'free ≥ avail (root\'s reserve)');
  assert.ok(s.has('node_network_receive_bytes_total{device="lo"}'));
  for (const f of ['transmit_bytes', 'receive_packets', 'transmit_packets', 'receive_errs', 'transmit_errs', 'receive_drop', 'transmit_drop']) {
    assert.ok(s.has(`node_network_${f}_total{device="lo"}`), f);
  }
  for (const f of ['node_load1', 'node_load5', 'node_load15', 'node_boot_time_seconds', 'node_time_seconds']) assert.ok(s.has(f), f);
  assert.ok(Math.abs(s.get('node_time_seconds')! - Date.now() / 1000) < 5);
  const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))![1]);
  assert.is(s.get('node_boot_time_seconds'), btime);
  assert.ok(![...s.keys()].some((k) => k.startsWith('vigil_probes_node')), 'node-exporter names are not prefixed');
  const check = promtoolCheck(text);
  if (check) assert.ok(check.ok, check.output);
});

test('counters follow the kernel and never go back; a scrape costs a few ms at most', async () => {
  const { expose, node } = await scrapeOf();
  const first = samples(expose());
  await new Promise((r) => setTimeout(r, 300));
  const started = performance.now();
  const second = samples(expose());
  const ms = performance.now() - started;
  node.stop();
  for (const [key, value] of first) {
    if (key.includes('_total')) assert.ok(second.get(key)! >= value, `${key} went from ${value} to ${second.get(key)}`);
  }
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith('cpu0 '))!.trim().split(/\s+/);
  assert.ok(second.get('node_cpu_seconds_total{cpu="0",mode="idle"}')! <= Number(ticks[4]) / 100, 'idle is /proc/stat\'s, in seconds');
  assert.ok(ms < 50, `one scrape took ${ms.toFixed(1)} ms`);
});

test('a plugin restart in the same process resumes: counters are not added twice, and scrapes read again', async () => {
  const registry = new MetricsRegistry();
  const first = registerNodeMetrics(registry.forPlugin('probes'), { root: laptop, now: () => 1_000 });
  const before = samples(registry.expose());
  first.stop();
  const again = registerNodeMetrics(registry.forPlugin('probes'), { root: laptop, now: () => 2_000 });
  await again.refreshSlow();
  const after = samples(registry.expose());
  assert.is(after.get('node_cpu_seconds_total{cpu="0",mode="user"}'), before.get('node_cpu_seconds_total{cpu="0",mode="user"}'));
  assert.is(after.get('node_cpu_seconds_total{cpu="0",mode="user"}'), 5);
  assert.is(before.get('node_time_seconds'), 1);
  assert.is(after.get('node_time_seconds'), 2, 'the scrape reads with the new registration\'s options');
  again.stop();
});

test('a fixture laptop: sensors, batteries (not the mouse) and its meminfo under node-exporter\'s names', async () => {
  const { expose, node } = await scrapeOf(laptop);
  const s = samples(expose());
  node.stop();
  assert.is(s.get('node_hwmon_temp_celsius{chip="coretemp",sensor="Core 1"}'), 87.5);
  assert.is(s.get('node_hwmon_temp_celsius{chip="nvme",sensor="Composite"}'), 44.85);
  assert.is(s.get('node_power_supply_capacity{power_supply="BAT0"}'), 42);
  assert.ok(!s.has('node_power_supply_capacity{power_supply="hidpp_battery_0"}'), 'a mouse is not the machine\'s battery');
  assert.is(s.get('node_cpu_seconds_total{cpu="0",mode="user"}'), 5);
  assert.is(s.get('node_cpu_seconds_total{cpu="1",mode="idle"}'), 20);
});

test('node-exporter recording rules evaluate on two real scrapes (promtool test rules)', async () => {
  const { expose, node } = await scrapeOf();
  const a = samples(expose());
  await new Promise((r) => setTimeout(r, 2000));
  const b = samples(expose());
  node.stop();
  // The series as Prometheus would store them after two scrapes 2 s apart, with the job and instance labels it adds.
  const series = [...b.keys()].filter((k) => a.has(k) && /^node_(cpu_seconds_total|memory_(MemAvailable|MemTotal)_bytes|filesystem_(avail|size)_bytes)/.test(k))
    .map((k) => {
      const [name, labels = ''] = k.replace('}', '').split('{');
      return { series: `${name}{${[labels, 'job="node"', 'instance="host:9100"'].filter(Boolean).join(',')}}`, values: `${a.get(k)} ${b.get(k)}` };
    });
  const cores = [...b.keys()].filter((k) => k.startsWith('node_cpu_seconds_total{') && k.includes('mode="idle"')).length;
  const memory = 1 - b.get('node_memory_MemAvailable_bytes')! / b.get('node_memory_MemTotal_bytes')!;
  // 1 - the idle share between the scrapes, per core then averaged, as irate computes it: (b - a) / 2 s.
  const idleShare = Array.from({ length: cores }, (_, cpu) => ['idle', 'iowait', 'steal']
    .reduce((sum, mode) => sum + (b.get(`node_cpu_seconds_total{cpu="${cpu}",mode="${mode}"}`)! - a.get(`node_cpu_seconds_total{cpu="${cpu}",mode="${mode}"}`)!) / 2, 0));
  const cpu = 1 - idleShare.reduce((x, y) => x + y, 0) / cores;
  const round = (v: number) => Math.floor(v * 1000 + 0.5) / 1000;
  const dir = mkdtempSync(join(tmpdir(), 'vigil-node-rules-'));
  try {
    // The first two rules are node-mixin's (kubernetes-monitoring/node-mixin, rules.libsonnet), the third its
    // CPU rule over irate, since two scrapes are one interval.
    writeFileSync(join(dir, 'rules.yml'), JSON.stringify({
      groups: [{
        name: 'node-exporter.rules',
        rules: [
          { record: 'instance:node_num_cpu:sum', expr: 'count without (cpu, mode) (node_cpu_seconds_total{job="node",mode="idle"})' },
          { record: 'instance:node_memory_utilisation:ratio', expr: '1 - ((node_memory_MemAvailable_bytes{job="node"} or (node_memory_Buffers_bytes{job="node"} + node_memory_Cached_bytes{job="node"} + node_memory_MemFree_bytes{job="node"} + node_memory_Slab_bytes{job="node"})) / node_memory_MemTotal_bytes{job="node"})' },
          { record: 'instance:node_cpu_utilisation:irate1m', expr: '1 - avg without (cpu) (sum without (mode) (irate(node_cpu_seconds_total{job="node", mode=~"idle|iowait|steal"}[1m])))' },
        ],
      }],
    }));
    const labels = '{instance="host:9100", job="node"}';
    writeFileSync(join(dir, 'rules.test.yml'), JSON.stringify({
      rule_files: ['rules.yml'],
      evaluation_interval: '2s',
      tests: [{
        interval: '2s',
        input_series: series,
        promql_expr_test: [
          { expr: 'instance:node_num_cpu:sum', eval_time: '2s', exp_samples: [{ labels: `instance:node_num_cpu:sum${labels}`, value: cores }] },
          { expr: 'instance:node_memory_utilisation:ratio', eval_time: '2s', exp_samples: [{ labels: `instance:node_memory_utilisation:ratio${labels}`, value: memory }] },
          { expr: 'round(instance:node_cpu_utilisation:irate1m, 0.001)', eval_time: '2s', exp_samples: [{ labels, value: round(cpu) }] },
        ],
      }],
    }));
    const result = promtool(['test', 'rules', 'rules.test.yml'], { cwd: dir });
    if (result) assert.ok(result.ok, result.output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
