import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { counterRates, readCounters, takeSample, type SampleCounters } from '../../../../plugins/probes/minute-sample.js';
import { SAMPLE_METRICS } from '../../../../plugins/probes/history/metrics.js';
import { laptop, server } from './proc/fixture-roots.js';

const counters = (at: number, n: number): SampleCounters => ({
  at, netRx: n, netTx: 2 * n, ioRead: 3 * n, ioWrite: 4 * n,
  cpu: { user: n, nice: 0, system: 0, idle: 3 * n, iowait: 0, irq: 0, softirq: 0, steal: 0 },
});

test('rates per second between two readings; null first, with no elapsed time and after a counter reset', () => {
  assert.equal(counterRates(counters(0, 6000), counters(60_000, 12_000)), { cpu: 25, net_rx: 100, net_tx: 200, io_read: 300, io_write: 400 });
  const none = { cpu: null, net_rx: null, net_tx: null, io_read: null, io_write: null };
  assert.equal(counterRates(undefined, counters(0, 1)), none);
  assert.equal(counterRates(counters(5, 1), counters(5, 2)), none);
  assert.is(counterRates(counters(0, 10), counters(1000, 5)).net_rx, null);
});

test('the laptop fixture: loopback and partitions left out of the totals; gauges from each reader', async () => {
  const c = await readCounters(laptop, 1);
  assert.is(c.netRx, 987654321 + 5000);
  assert.is(c.netTx, 12345678 + 7000);
  assert.is(c.ioRead, 9600000 * 512);
  const { sample } = await takeSample(laptop, 60_001, { ...c, netRx: c.netRx - 6000 });
  assert.is(sample.t, 60_001);
  assert.is(sample.net_rx, 100);
  assert.is(sample.mem, 50);
  assert.is(sample.swap, 25);
  assert.is(sample.load1, 0.52);
  assert.is(sample.temp, 87.5);
  assert.is(sample.battery, 42);
  assert.ok(sample.disk !== null && sample.disk >= 0 && sample.disk <= 100, 'the fixture\'s mount points exist, so usage is read');
  const { sample: bare } = await takeSample(server, 0);
  assert.equal([bare.cpu, bare.disk, bare.temp, bare.battery], [null, null, 47, 75]);
});

test('this machine, two samples a second apart: every metric a number in its range, or null where absent', async () => {
  const first = await takeSample('/', Date.now());
  await new Promise((r) => setTimeout(r, 1000));
  const { sample } = await takeSample('/', Date.now(), first.counters);
  for (const m of SAMPLE_METRICS) assert.ok(sample[m] === null || Number.isFinite(sample[m]), `${m}: ${sample[m]}`);
  for (const m of ['cpu', 'mem', 'swap', 'disk'] as const) assert.ok(sample[m] !== null && sample[m] >= 0 && sample[m] <= 100, `${m}: ${sample[m]}`);
  for (const m of ['net_rx', 'net_tx', 'io_read', 'io_write'] as const) assert.ok(sample[m] !== null && sample[m] >= 0, `${m}: ${sample[m]}`);
  assert.ok(sample.load1 !== null && sample.load1 >= 0);
});

test.run();
