import type { Sample } from './history/metrics.js';
import { readBatteries } from './proc/battery.js';
import { cpuPercent, readCpuTimes, type CpuTimes } from './proc/cpu-times.js';
import { readDiskIo } from './proc/disk-io.js';
import { readLoadAverage } from './proc/load-average.js';
import { readMemory } from './proc/memory.js';
import { readMounts } from './proc/mounts.js';
import { readNetwork } from './proc/network.js';
import { hottest, readTemperatures } from './proc/temperatures.js';

/** The cumulative counters a sample's rates come from, and when they were read (epoch ms). */
export interface SampleCounters {
  at: number;
  cpu?: CpuTimes;
  /** Bytes since boot over every interface but loopback. */
  netRx: number; netTx: number;
  /** Bytes since boot over whole disks (partitions would count each byte twice). */
  ioRead: number; ioWrite: number;
}

export async function readCounters(root: string, at: number): Promise<SampleCounters> {
  const [cpu, net, disks] = await Promise.all([readCpuTimes(root), readNetwork(root), readDiskIo(root)]);
  const external = net.filter((i) => i.name !== 'lo');
  const whole = disks.filter((d) => d.wholeDisk);
  const add = <T>(list: T[], pick: (x: T) => number) => list.reduce((s, x) => s + pick(x), 0);
  return {
    at, cpu: cpu?.total,
    netRx: add(external, (i) => i.rxBytes), netTx: add(external, (i) => i.txBytes),
    ioRead: add(whole, (d) => d.readBytes), ioWrite: add(whole, (d) => d.writtenBytes),
  };
}

/**
 * Per-second rates and the CPU share between two readings. Null without a previous reading (the first sample after
 * a start), when no time passed, or when a counter went backwards (an interface or disk vanished, a driver reloaded).
 */
export function counterRates(before: SampleCounters | undefined, after: SampleCounters):
  Pick<Sample, 'cpu' | 'net_rx' | 'net_tx' | 'io_read' | 'io_write'> {
  const seconds = before ? (after.at - before.at) / 1000 : 0;
  const rate = (a: number | undefined, b: number) => (a === undefined || !(seconds > 0) || b < a ? null : (b - a) / seconds);
  return {
    cpu: before?.cpu && after.cpu && seconds > 0 ? cpuPercent(before.cpu, after.cpu).busy : null,
    net_rx: rate(before?.netRx, after.netRx), net_tx: rate(before?.netTx, after.netTx),
    io_read: rate(before?.ioRead, after.ioRead), io_write: rate(before?.ioWrite, after.ioWrite),
  };
}

/**
 * The minute sample at `now`: gauges read now, rates against `previous` (keep the returned counters for the next
 * call). Everything is read from files under `root`; nothing here starts a process.
 */
export async function takeSample(root: string, now: number, previous?: SampleCounters): Promise<{ sample: Sample; counters: SampleCounters }> {
  const [counters, memory, load, temps, mounts, batteries] = await Promise.all([
    readCounters(root, now), readMemory(root), readLoadAverage(root), readTemperatures(root), readMounts(root), readBatteries(root),
  ]);
  const fullest = mounts.reduce<number | null>((max, m) => (m.usedPercent === undefined || (max !== null && max >= m.usedPercent) ? max : m.usedPercent), null);
  const sample: Sample = {
    t: now,
    ...counterRates(previous, counters),
    mem: memory?.usedPercent ?? null,
    swap: memory?.swapPercent ?? null,
    load1: load?.load1 ?? null,
    temp: hottest(temps)?.celsius ?? null,
    disk: fullest,
    battery: batteries[0]?.percent ?? null,
  };
  return { sample, counters };
}
