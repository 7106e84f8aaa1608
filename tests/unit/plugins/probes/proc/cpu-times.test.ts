import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { availableParallelism } from 'node:os';
import { cpuPercent, cpuPercents, readCpuTimes } from '../../../../../plugins/probes/proc/cpu-times.js';
import { readLoadAverage } from '../../../../../plugins/probes/proc/load-average.js';
import { readUptime } from '../../../../../plugins/probes/proc/uptime.js';
import { empty, laptop } from './fixture-roots.js';

test('the fixture: the total and four cores, each state in its field', async () => {
  const r = await readCpuTimes(laptop);
  assert.ok(r);
  assert.is(r.cores.length, 4);
  assert.equal(r.total, { user: 1000, nice: 50, system: 300, idle: 8000, iowait: 100, irq: 10, softirq: 20, steal: 0 });
  assert.is(r.cores[1].idle, 2000);
});

test('percentages between two readings: busy excludes idle and iowait; no elapsed time gives zeros', () => {
  const before = { user: 100, nice: 0, system: 50, idle: 800, iowait: 50, irq: 0, softirq: 0, steal: 0 };
  const after = { user: 160, nice: 0, system: 70, idle: 900, iowait: 70, irq: 0, softirq: 0, steal: 0 };
  // 200 ticks elapsed: 60 user, 20 system, 100 idle, 20 iowait.
  assert.equal(cpuPercent(before, after), { busy: 40, user: 30, system: 10, iowait: 10, steal: 0 });
  assert.equal(cpuPercent(after, after), { busy: 0, user: 0, system: 0, iowait: 0, steal: 0 });
  assert.equal(cpuPercent(after, before).busy, 0, 'counters that went backwards');
});

test('this machine: one entry per core, and percentages over 200 ms within 0..100', async () => {
  const a = await readCpuTimes();
  await new Promise((r) => setTimeout(r, 200));
  const b = await readCpuTimes();
  assert.ok(a && b);
  assert.is(a.cores.length, availableParallelism());
  assert.ok(b.total.user + b.total.system > 0);
  const p = cpuPercents(a, b);
  assert.is(p.cores.length, a.cores.length);
  for (const x of [p.total, ...p.cores]) assert.ok(x.busy >= 0 && x.busy <= 100, `busy ${x.busy}`);
});

test('load average and uptime: the fixture and this machine', async () => {
  assert.equal(await readLoadAverage(laptop), { load1: 0.52, load5: 0.61, load15: 0.7, running: 2, tasks: 811 });
  assert.is(await readUptime(laptop), 93784.12);
  const load = await readLoadAverage();
  assert.ok(load && load.load1 >= 0 && load.tasks >= load.running && load.tasks > 0);
  const up = await readUptime();
  assert.ok(up !== undefined && up > 0 && up < 10 * 365 * 86400);
});

test('a root without /proc reads as nothing, not an error', async () => {
  assert.is(await readCpuTimes(empty), undefined);
  assert.is(await readLoadAverage(empty), undefined);
  assert.is(await readUptime(empty), undefined);
});

test.run();
