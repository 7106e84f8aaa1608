import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Counter, Gauge, Metrics } from '@vigil/plugin-sdk';
import { readBatteries, type Battery } from '../proc/battery.js';
import { parseCpuTimes, type CpuTimes } from '../proc/cpu-times.js';
import { parseDiskIo } from '../proc/disk-io.js';
import { parseLoadAverage } from '../proc/load-average.js';
import { meminfoFields } from '../proc/memory.js';
import { readMounts, type MountUsage } from '../proc/mounts.js';
import { parseNetwork } from '../proc/network.js';
import { readTemperatures, type Temperature } from '../proc/temperatures.js';

/** /proc/stat counts CPU time in USER_HZ ticks, 100 a second on every Linux architecture node-exporter supports. */
const USER_HZ = 100;
const CPU_MODES: (keyof CpuTimes)[] = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal'];
/** sysfs and statfs reads (sensors, batteries, filesystems) are refreshed at most this often, in the background. */
export const SLOW_REFRESH_MS = 15_000;
// Hosts with many cores, container interfaces or disks: the cardinality cap per label, above the default of 100.
const MANY = 4096;

/** The parts read with async calls that can be slow (statfs on a network mount, an ACPI battery): kept between scrapes. */
interface SlowReading { at: number; mounts: MountUsage[]; temps: Temperature[]; batteries: Battery[] }

/**
 * A counter that mirrors a kernel counter: it moves by the difference since the last reading, so it equals the
 * kernel's value from the first scrape on. A value that went down (a driver reloaded, an interface re-created) adds
 * nothing and becomes the new base, so the exposed counter never goes backwards.
 */
class MirroredCounter {
  private readonly last = new Map<string, number>();
  constructor(private readonly counter: Counter) {}

  set(value: number, ...labels: string[]): void {
    if (!Number.isFinite(value)) return;
    const key = labels.join('\0');
    const before = this.last.get(key);
    this.last.set(key, value);
    if (before === undefined) this.counter.labels(...labels).inc(value);
    else if (value > before) this.counter.labels(...labels).inc(value - before);
  }
}

export interface NodeMetricsOptions {
  /** `/` on a live machine, a fixture copy in tests. */
  root?: string;
  now?: () => number;
}

/**
 * The host's metrics on `/metrics` under node-exporter's names and labels, so Grafana's node-exporter dashboards and
 * its recording rules work unchanged. /proc files (CPU, memory, network, disks, load) are read synchronously when
 * `/metrics` is rendered, like node-exporter does: procfs text is made in memory by the kernel, a few KiB, no disk
 * I/O. Filesystems, sensors and batteries are read asynchronously (statfs can hang on a network mount) at most every
 * `SLOW_REFRESH_MS`, when a scrape finds them older, so those gauges are as old as the previous scrape at most.
 * Registering again on the same plugin's metrics (a restart) resumes the first registration.
 */
export function registerNodeMetrics(metrics: Metrics, options: NodeMetricsOptions = {}): NodeMetrics {
  const existing = registered.get(metrics);
  if (existing) {
    existing.configure(options);
    return existing;
  }
  const made = makeNodeMetrics(metrics, options);
  registered.set(metrics, made);
  return made;
}

export interface NodeMetrics {
  /** Stops reading at scrapes (the families stay, with their last values). */
  stop(): void;
  refreshSlow(): Promise<void>;
  /** Starts again, with new options: what a plugin restart in the same process does. */
  configure(options: NodeMetricsOptions): void;
}

// Families outlive a plugin restart in the same process (the registry keeps them, and the first registration's
// collect), so a second registration on the same plugin's metrics resumes the first: starting over would add each
// kernel counter's whole value a second time.
const registered = new WeakMap<Metrics, NodeMetrics>();

function makeNodeMetrics(metrics: Metrics, options: NodeMetricsOptions): NodeMetrics {
  let root = options.root ?? '/';
  let now = options.now ?? Date.now;
  const read = (path: string): string | undefined => {
    try { return readFileSync(join(root, path), 'utf8'); } catch { return undefined; }
  };

  const counter = (name: string, help: string, labelNames: string[] = []) =>
    new MirroredCounter(metrics.counter(name, { help, labelNames, maxValuesPerLabel: MANY }));
  const gauge = (name: string, help: string, labelNames: string[] = []): Gauge => metrics.gauge(name, { help, labelNames, maxValuesPerLabel: MANY });

  const cpu = counter('node_cpu_seconds_total', 'Seconds the CPUs spent in each mode.', ['cpu', 'mode']);
  const bootTime = gauge('node_boot_time_seconds', 'Node boot time, in unixtime.');
  const load1 = gauge('node_load1', '1m load average.');
  const load5 = gauge('node_load5', '5m load average.');
  const load15 = gauge('node_load15', '15m load average.');
  // One gauge per /proc/meminfo field, registered now: the kernel's field list does not change while it runs.
  // node-exporter's names: `Active(anon)` becomes `node_memory_Active_anon_bytes`.
  const memory = new Map<string, Gauge>();
  for (const field of meminfoFields(read('proc/meminfo') ?? '').keys()) {
    const name = `${field.replace(/\(/g, '_').replace(/\)/g, '')}_bytes`;
    memory.set(field, gauge(`node_memory_${name}`, `Memory information field ${name}.`));
  }
  const net = {
    receive_bytes: counter('node_network_receive_bytes_total', 'Network device statistic receive_bytes.', ['device']),
    receive_packets: counter('node_network_receive_packets_total', 'Network device statistic receive_packets.', ['device']),
    receive_errs: counter('node_network_receive_errs_total', 'Network device statistic receive_errs.', ['device']),
    receive_drop: counter('node_network_receive_drop_total', 'Network device statistic receive_drop.', ['device']),
    transmit_bytes: counter('node_network_transmit_bytes_total', 'Network device statistic transmit_bytes.', ['device']),
    transmit_packets: counter('node_network_transmit_packets_total', 'Network device statistic transmit_packets.', ['device']),
    transmit_errs: counter('node_network_transmit_errs_total', 'Network device statistic transmit_errs.', ['device']),
    transmit_drop: counter('node_network_transmit_drop_total', 'Network device statistic transmit_drop.', ['device']),
  };
  const disk = {
    reads: counter('node_disk_reads_completed_total', 'The total number of reads completed successfully.', ['device']),
    readBytes: counter('node_disk_read_bytes_total', 'The total number of bytes read successfully.', ['device']),
    readTime: counter('node_disk_read_time_seconds_total', 'The total number of seconds spent by all reads.', ['device']),
    writes: counter('node_disk_writes_completed_total', 'The total number of writes completed successfully.', ['device']),
    writtenBytes: counter('node_disk_written_bytes_total', 'The total number of bytes written successfully.', ['device']),
    writeTime: counter('node_disk_write_time_seconds_total', 'This is the total number of seconds spent by all writes.', ['device']),
    ioTime: counter('node_disk_io_time_seconds_total', 'Total seconds spent doing I/Os.', ['device']),
  };
  const fsLabels = ['device', 'fstype', 'mountpoint'];
  const fsAvail = gauge('node_filesystem_avail_bytes', 'Filesystem space available to non-root users in bytes.', fsLabels);
  const fsSize = gauge('node_filesystem_size_bytes', 'Filesystem size in bytes.', fsLabels);
  const fsFree = gauge('node_filesystem_free_bytes', 'Filesystem free space in bytes.', fsLabels);
  const hwmonTemp = gauge('node_hwmon_temp_celsius', 'Hardware monitor for temperature (input).', ['chip', 'sensor']);
  const thermalZone = gauge('node_thermal_zone_temp', 'Zone temperature in Celsius.', ['type', 'zone']);
  const batteryCapacity = gauge('node_power_supply_capacity', 'capacity value of /sys/class/power_supply/<power_supply>.', ['power_supply']);
  const batteryOnline = gauge('node_power_supply_online', 'online value of /sys/class/power_supply/<power_supply>: 1 on mains power.', ['power_supply']);

  let slow: SlowReading | undefined;
  let refreshing: Promise<void> | undefined;
  let stopped = false;
  const refreshSlow = (): Promise<void> => {
    refreshing ??= (async () => {
      const [mounts, temps, batteries] = await Promise.all([readMounts(root), readTemperatures(root), readBatteries(root)]);
      slow = { at: now(), mounts, temps, batteries };
    })().catch(() => { /* the previous reading stays; the next scrape tries again */ }).finally(() => { refreshing = undefined; });
    return refreshing;
  };

  const collectProc = () => {
    const stat = read('proc/stat');
    if (stat !== undefined) {
      const times = parseCpuTimes(stat);
      times?.cores.forEach((core, i) => {
        for (const mode of CPU_MODES) cpu.set(core[mode] / USER_HZ, String(i), mode);
      });
      const btime = /^btime (\d+)$/m.exec(stat);
      if (btime) bootTime.set(Number(btime[1]));
    }
    const loadText = read('proc/loadavg');
    const load = loadText === undefined ? undefined : parseLoadAverage(loadText);
    if (load) { load1.set(load.load1); load5.set(load.load5); load15.set(load.load15); }
    const meminfo = read('proc/meminfo');
    if (meminfo !== undefined) for (const [field, bytes] of meminfoFields(meminfo)) memory.get(field)?.set(bytes);
    const netdev = read('proc/net/dev');
    for (const i of netdev === undefined ? [] : parseNetwork(netdev)) {
      net.receive_bytes.set(i.rxBytes, i.name); net.receive_packets.set(i.rxPackets, i.name);
      net.receive_errs.set(i.rxErrors, i.name); net.receive_drop.set(i.rxDropped, i.name);
      net.transmit_bytes.set(i.txBytes, i.name); net.transmit_packets.set(i.txPackets, i.name);
      net.transmit_errs.set(i.txErrors, i.name); net.transmit_drop.set(i.txDropped, i.name);
    }
    const diskstats = read('proc/diskstats');
    // Whole disks, as node-exporter's default device filter keeps (a partition's I/O is also its disk's).
    for (const d of diskstats === undefined ? [] : parseDiskIo(diskstats).filter((x) => x.wholeDisk)) {
      disk.reads.set(d.reads, d.name); disk.readBytes.set(d.readBytes, d.name); disk.readTime.set(d.readMs / 1000, d.name);
      disk.writes.set(d.writes, d.name); disk.writtenBytes.set(d.writtenBytes, d.name); disk.writeTime.set(d.writeMs / 1000, d.name);
      disk.ioTime.set(d.busyMs / 1000, d.name);
    }
  };

  const applySlow = () => {
    if (!slow || stopped) return;
    for (const m of slow.mounts) {
      if (m.total === undefined || m.used === undefined || m.available === undefined) continue;
      fsAvail.labels(m.device, m.fsType, m.mountPoint).set(m.available);
      fsSize.labels(m.device, m.fsType, m.mountPoint).set(m.total);
      fsFree.labels(m.device, m.fsType, m.mountPoint).set(m.total - m.used);
    }
    for (const t of slow.temps) {
      if (t.label.startsWith('thermal_zone')) thermalZone.labels(t.chip, t.label.slice('thermal_zone'.length)).set(t.celsius);
      else hwmonTemp.labels(t.chip, t.label).set(t.celsius);
    }
    for (const b of slow.batteries) {
      batteryCapacity.labels(b.name).set(b.percent);
      batteryOnline.labels(b.name).set(b.plugged ? 1 : 0);
    }
  };

  // One gauge's collect refreshes every family: the registry runs each collect before it renders any family.
  metrics.gauge('node_time_seconds', {
    help: 'System time in seconds since epoch (1970).',
    collect(g) {
      if (stopped) return;
      g.set(now() / 1000);
      collectProc();
      applySlow();
      if (!slow || now() - slow.at >= SLOW_REFRESH_MS) void refreshSlow();
    },
  });
  void refreshSlow();
  return {
    stop() { stopped = true; },
    refreshSlow,
    configure(next) {
      root = next.root ?? '/';
      now = next.now ?? Date.now;
      stopped = false;
      slow = undefined;
      void refreshSlow();
    },
  };
}
