// The full live picture of this machine (the Host page, the 2 s stream, the overview the fleet and home tiles read):
// gauges read now, rates against the previous reading this process kept. Every figure comes from files under
// `root`; the only subprocess is nvidia-smi, asked only when the caller wants GPUs and it is on PATH.
import { readBatteries } from './proc/battery.js';
import { cpuPercents, readCpuTimes, type CpuTimesReading } from './proc/cpu-times.js';
import { readDiskIo, type DiskCounters } from './proc/disk-io.js';
import { readDrmGpus } from './proc/drm-gpus.js';
import { readLoadAverage } from './proc/load-average.js';
import { readMemory } from './proc/memory.js';
import { readMounts } from './proc/mounts.js';
import { readNetwork, type InterfaceCounters } from './proc/network.js';
import { readTemperatures } from './proc/temperatures.js';
import { readUptime } from './proc/uptime.js';
import { CORES_MAX, LIVE_LIST_MAX } from './response-schemas.js';
import type { HostLive, HostGpu } from './live-types.js';

/** The counters a reading's rates come from. */
interface Counters {
  at: number;
  cpu?: CpuTimesReading;
  net: Map<string, InterfaceCounters>;
  disks: Map<string, DiskCounters>;
}

/** A reading younger than this is answered again instead of read anew: several pages and the fleet share it. */
const REUSE_MS = 500;
/** Rates are measured over at least this long when a reading that old is kept: a shorter window is mostly noise. */
const MIN_WINDOW_MS = 500;
/** Readings kept as bases: the newest one at least MIN_WINDOW_MS old, and the few younger ones. */
const MAX_BASES = 8;

export interface LiveReaderOptions {
  root: string;
  /** GPUs nvidia-smi reports, or none; called only for readings that ask for GPUs. */
  nvidiaGpus?: () => Promise<HostGpu[]>;
  now?: () => number;
}

export class LiveReader {
  /** Earlier counters, oldest first: the base of the next reading's rates. */
  private bases: Counters[] = [];
  private last: { at: number; gpus: boolean; live: HostLive; cores: number } | undefined;
  private inFlight: { gpus: boolean; reading: Promise<{ live: HostLive; cores: number }> } | undefined;
  private readonly now: () => number;

  constructor(private readonly o: LiveReaderOptions) {
    this.now = o.now ?? Date.now;
  }

  /** Reads the counters only, so the first full reading has rates (called at start). */
  async prime(): Promise<void> {
    if (this.bases.length === 0) this.bases.push(await this.counters(this.now()));
  }

  /**
   * This machine now. `gpus`: also read the GPUs (DRM sysfs, and nvidia-smi when configured). Concurrent calls
   * share one reading; `cores` is the number of cores /proc/stat lists, known even without a previous reading.
   */
  async read(gpus: boolean): Promise<{ live: HostLive; cores: number }> {
    const last = this.last;
    if (last && this.now() - last.at < REUSE_MS && (last.gpus || !gpus)) return { live: last.live, cores: last.cores };
    const running = this.inFlight;
    if (running && (running.gpus || !gpus)) return running.reading;
    // A reading without GPUs is under way and this caller wants them: the next reading starts after it.
    const reading = (running ? running.reading.catch(() => undefined) : Promise.resolve()).then(() => this.take(gpus))
      .finally(() => { if (this.inFlight?.reading === reading) this.inFlight = undefined; });
    this.inFlight = { gpus, reading };
    return reading;
  }

  private async counters(at: number): Promise<Counters> {
    const [cpu, net, disks] = await Promise.all([readCpuTimes(this.o.root), readNetwork(this.o.root), readDiskIo(this.o.root)]);
    return { at, cpu, net: new Map(net.map((i) => [i.name, i])), disks: new Map(disks.map((d) => [d.name, d])) };
  }

  /** The newest base at least MIN_WINDOW_MS before `at`, else the oldest there is (a short window beats none). */
  private baseFor(at: number): Counters | undefined {
    for (let i = this.bases.length - 1; i >= 0; i--) if (at - this.bases[i].at >= MIN_WINDOW_MS) return this.bases[i];
    return this.bases[0];
  }

  /** Adds `now` to the bases, dropping those older than the newest one a full window before it. */
  private keep(now: Counters): void {
    this.bases.push(now);
    let first = 0;
    for (let i = this.bases.length - 1; i >= 0; i--) if (now.at - this.bases[i].at >= MIN_WINDOW_MS) { first = i; break; }
    this.bases = this.bases.slice(Math.max(first, this.bases.length - MAX_BASES));
  }

  private async take(withGpus: boolean): Promise<{ live: HostLive; cores: number }> {
    const at = this.now();
    const root = this.o.root;
    const [now, memory, load, uptime, temps, mounts, batteries, drm, nvidia] = await Promise.all([
      this.counters(at), readMemory(root), readLoadAverage(root), readUptime(root), readTemperatures(root), readMounts(root),
      readBatteries(root), withGpus ? readDrmGpus(root) : Promise.resolve([]),
      withGpus && this.o.nvidiaGpus ? this.o.nvidiaGpus() : Promise.resolve([]),
    ]);
    const before = this.baseFor(at);
    this.keep(now);
    const seconds = before ? (at - before.at) / 1000 : 0;
    const rate = (a: number | undefined, b: number): number | null => (a === undefined || !(seconds > 0) || b < a ? null : (b - a) / seconds);
    const cpu = before?.cpu && now.cpu && seconds > 0 ? cpuPercents(before.cpu, now.cpu) : undefined;

    const live: HostLive = {
      taken_at: new Date(at).toISOString(),
      interval_ms: before && seconds > 0 ? at - before.at : null,
      uptime_s: uptime ?? 0,
      cpu: {
        total: cpu?.total ?? null,
        cores: (cpu?.cores ?? []).slice(0, CORES_MAX).map((c) => c.busy),
        load: [load?.load1 ?? 0, load?.load5 ?? 0, load?.load15 ?? 0],
        running: load?.running ?? 0,
        tasks: load?.tasks ?? 0,
      },
      memory: memory ? {
        total_bytes: memory.total, used_bytes: memory.used, available_bytes: memory.available, cached_bytes: memory.cached,
        buffers_bytes: memory.buffers, percent: memory.usedPercent,
        swap_total_bytes: memory.swapTotal, swap_used_bytes: memory.swapUsed, swap_percent: memory.swapPercent,
      } : null,
      disks: mounts.slice(0, LIVE_LIST_MAX).map((m) => ({
        device: m.device, mount: m.mountPoint, fs_type: m.fsType,
        total_bytes: m.total ?? null, used_bytes: m.used ?? null, available_bytes: m.available ?? null, percent: m.usedPercent ?? null,
      })),
      disk_io: [...now.disks.values()].slice(0, LIVE_LIST_MAX).map((d) => {
        const b = before?.disks.get(d.name);
        const busy = rate(b?.busyMs, d.busyMs);
        return {
          name: d.name, whole_disk: d.wholeDisk,
          read_bps: rate(b?.readBytes, d.readBytes), write_bps: rate(b?.writtenBytes, d.writtenBytes),
          // busyMs grows by at most 1,000 a second; more is a counter quirk, so it is capped.
          busy_percent: busy === null ? null : Math.min(100, busy / 10),
          read_bytes: d.readBytes, written_bytes: d.writtenBytes,
        };
      }),
      network: [...now.net.values()].filter((i) => i.name !== 'lo').slice(0, LIVE_LIST_MAX).map((i) => {
        const b = before?.net.get(i.name);
        return {
          name: i.name, rx_bps: rate(b?.rxBytes, i.rxBytes), tx_bps: rate(b?.txBytes, i.txBytes),
          rx_bytes: i.rxBytes, tx_bytes: i.txBytes, rx_errors: i.rxErrors, tx_errors: i.txErrors, rx_dropped: i.rxDropped, tx_dropped: i.txDropped,
        };
      }),
      temperatures: temps.slice(0, LIVE_LIST_MAX).map((t) => ({ chip: t.chip, label: t.label, celsius: t.celsius })),
      batteries: batteries.slice(0, 8).map((b) => ({
        name: b.name, percent: b.percent, status: b.status, charging: b.charging, plugged: b.plugged, health_percent: b.healthPercent ?? null,
      })),
      gpus: [
        // The proprietary NVIDIA driver shows a DRM card with nothing in it: nvidia-smi's entry replaces it.
        ...drm.filter((g) => !(g.vendor === 'nvidia' && nvidia.length > 0)).map((g): HostGpu => ({
          id: g.card, vendor: g.vendor, source: 'drm', name: null,
          busy_percent: g.busyPercent ?? null, vram_used_bytes: g.vramUsed ?? null, vram_total_bytes: g.vramTotal ?? null,
          freq_mhz: g.freqMhz ?? null, max_freq_mhz: g.maxFreqMhz ?? null, celsius: g.celsius ?? null, power_w: null,
        })),
        ...nvidia,
      ].slice(0, LIVE_LIST_MAX),
    };
    const result = { live, cores: now.cpu?.cores.length ?? 0 };
    this.last = { at, gpus: withGpus, ...result };
    return result;
  }
}
