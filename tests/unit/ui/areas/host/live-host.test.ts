import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addReading, lineFigures, NO_LINES, sumPresent, WINDOW_POINTS } from '../../../../../ui/src/areas/host/live-host.js';
import type { LiveReading } from '../../../../../ui/src/areas/host/host-api.js';

const reading = (busy: number | null, rx: (number | null)[], disks: { name: string; whole_disk: boolean; read_bps: number | null }[]): LiveReading => ({
  taken_at: '2026-12-03T17:00:00.000Z', interval_ms: 2000, uptime_s: 100,
  cpu: { total: busy === null ? null : { busy, user: busy, system: 0, iowait: 0, steal: 0 }, cores: [], load: [0, 0, 0], running: 1, tasks: 10 },
  memory: null,
  disks: [],
  disk_io: disks.map((d) => ({ ...d, write_bps: 0, busy_percent: 0, read_bytes: 0, written_bytes: 0 })),
  network: rx.map((v, i) => ({ name: `eth${i}`, rx_bps: v, tx_bps: v, rx_bytes: 0, tx_bytes: 0, rx_errors: 0, tx_errors: 0, rx_dropped: 0, tx_dropped: 0 })),
  temperatures: [], batteries: [], gpus: [],
});

test('sumPresent adds what is there and says null when nothing is', () => {
  assert.is(sumPresent([1, null, 2]), 3);
  assert.is(sumPresent([null]), null);
  assert.is(sumPresent([]), null);
});

test('a reading gives the CPU busy share, the traffic of all interfaces and the I/O of whole disks only', () => {
  const f = lineFigures(reading(12, [100, null, 50], [
    { name: 'sda', whole_disk: true, read_bps: 1000 }, { name: 'sda1', whole_disk: false, read_bps: 1000 },
  ]));
  assert.is(f.cpu, 12);
  assert.is(f.rx, 150);
  assert.is(f.read, 1000, 'a partition is not counted twice');
  assert.is(f.memory, null, 'no memory reading is a gap, not zero');
  assert.is(lineFigures(reading(null, [], [])).cpu, null, 'the first reading has no CPU share yet');
});

test('the window keeps the newest WINDOW_POINTS readings', () => {
  let lines = NO_LINES;
  for (let i = 0; i < WINDOW_POINTS + 5; i++) lines = addReading(lines, reading(i, [], []));
  assert.is(lines.cpu.length, WINDOW_POINTS);
  assert.is(lines.cpu[lines.cpu.length - 1], WINDOW_POINTS + 4);
  assert.is(lines.cpu[0], 5);
});

test.run();
