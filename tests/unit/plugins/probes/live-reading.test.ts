// The live reading over fixture copies of /proc and /sys: a laptop's batteries, sensors and GPUs; rates measured
// against the previous reading on a fake clock, exact because the test writes the counters itself.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LiveReader } from '../../../../plugins/probes/live-reading.js';
import type { HostGpu } from '../../../../plugins/probes/live-types.js';
import { tempDir } from '../../../support/tmp.js';
import { empty, laptop, server } from './proc/fixture-roots.js';

test('a laptop: every sensor, the system battery with its health (the mouse left out), DRM GPUs, no loopback', async () => {
  const { live } = await new LiveReader({ root: laptop }).read(true);
  assert.is(live.batteries.length, 1);
  assert.equal(live.batteries[0], { name: 'BAT0', percent: 42, status: 'Discharging', charging: false, plugged: false, health_percent: (40 / 57) * 100 });
  assert.ok(live.temperatures.length >= 4, `every hwmon sensor (${live.temperatures.length})`);
  assert.ok(live.temperatures.some((t) => t.chip === 'coretemp' || t.chip === 'k10temp' || t.chip === 'nvme'), JSON.stringify(live.temperatures));
  const amd = live.gpus.find((g) => g.id === 'card0');
  assert.equal(amd && { vendor: amd.vendor, source: amd.source, busy: amd.busy_percent, used: amd.vram_used_bytes, total: amd.vram_total_bytes },
    { vendor: 'amd', source: 'drm', busy: 37, used: 1073741824, total: 4294967296 });
  assert.is(live.gpus.find((g) => g.id === 'card1')?.vendor, 'intel');
  assert.equal(live.network.map((i) => i.name), ['wlp2s0', 'enp0s31f6', 'docker0']);
  assert.equal(live.network[0], {
    name: 'wlp2s0', rx_bps: null, tx_bps: null, rx_bytes: 987654321, tx_bytes: 12345678, rx_errors: 3, tx_errors: 1, rx_dropped: 17, tx_dropped: 2,
  });
  assert.is(live.cpu.total, null, 'no previous reading: no share yet');
  assert.equal(live.disk_io.map((d) => d.name), ['nvme0n1', 'nvme0n1p1', 'nvme0n1p2'], 'loop and dm devices left out');
});

test('without GPUs asked for, none is read (nvidia-smi is never called)', async () => {
  let called = 0;
  const reader = new LiveReader({ root: laptop, nvidiaGpus: async () => { called++; return []; } });
  assert.equal((await reader.read(false)).live.gpus, []);
  assert.is(called, 0);
});

test('rates against the previous reading: bytes a second per interface and disk, CPU per core', async () => {
  const dir = tempDir('vigil-live-reading-');
  try {
    cpSync(laptop, dir.path, { recursive: true });
    let now = 1_000_000;
    const reader = new LiveReader({ root: dir.path, now: () => now });
    await reader.prime();
    now += 2000;
    const bump = (file: string, from: string, to: string) => {
      const path = join(dir.path, file);
      writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
    };
    bump('proc/net/dev', 'wlp2s0: 987654321', 'wlp2s0: 987674321'); // +20,000 bytes in 2 s
    bump('proc/diskstats', 'nvme0n1 120000 3000 9600000', 'nvme0n1 120000 3000 9604000'); // +4,000 sectors of 512 bytes
    bump('proc/stat', 'cpu0 500 25 150 4000', 'cpu0 550 25 150 4050'); // cpu0: 50 busy of 100 ticks
    const { live } = await reader.read(false);
    assert.is(live.interval_ms, 2000);
    assert.is(live.network.find((i) => i.name === 'wlp2s0')?.rx_bps, 10_000);
    assert.is(live.network.find((i) => i.name === 'wlp2s0')?.tx_bps, 0);
    assert.is(live.disk_io.find((d) => d.name === 'nvme0n1')?.read_bps, (4000 * 512) / 2);
    assert.is(live.cpu.cores[0], 50);
    assert.is(live.cpu.cores[1], 0);
  } finally {
    dir.cleanup();
  }
});

test('readings within half a second are shared; a counter that went backwards gives no rate', async () => {
  const dir = tempDir('vigil-live-reading-');
  try {
    cpSync(laptop, dir.path, { recursive: true });
    let now = 5_000_000;
    let gpuCalls = 0;
    const nvidiaGpus = async (): Promise<HostGpu[]> => { gpuCalls++; return []; };
    const reader = new LiveReader({ root: dir.path, now: () => now, nvidiaGpus });
    const a = await reader.read(true);
    now += 100;
    const [b, c] = await Promise.all([reader.read(true), reader.read(false)]);
    assert.is(b.live, a.live, 'the same reading');
    assert.is(c.live, a.live);
    assert.is(gpuCalls, 1);
    now += 1000;
    const [plain, withGpus] = await Promise.all([reader.read(false), reader.read(true)]);
    assert.is(plain.live.gpus.length, 0, 'a reading without GPUs');
    assert.ok(withGpus.live.gpus.length > 0, 'a caller that wants GPUs gets a reading with them, even beside one without');
    assert.is(gpuCalls, 2);
    now += 1000;
    const path = join(dir.path, 'proc/net/dev');
    writeFileSync(path, readFileSync(path, 'utf8').replace('wlp2s0: 987654321', 'wlp2s0: 5'));
    const d = await reader.read(false);
    assert.is(d.live.network.find((i) => i.name === 'wlp2s0')?.rx_bps, null, 'the driver reloaded: no negative rate');
  } finally {
    dir.cleanup();
  }
});

test('a machine with only thermal zones and a charge-reporting battery; a root without /proc reads as nothing', async () => {
  const { live } = await new LiveReader({ root: server }).read(true);
  assert.ok(live.temperatures.length > 0);
  assert.ok(live.batteries.length === 1 && live.batteries[0].health_percent !== null);
  const none = await new LiveReader({ root: empty }).read(true);
  assert.is(none.live.memory, null);
  assert.equal(none.live.disks, []);
  assert.is(none.cores, 0);
});

test.run();
