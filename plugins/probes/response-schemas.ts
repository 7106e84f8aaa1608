// What the probes routes answer with. The UI's types are generated from these (npm run api-types), so a field
// renamed here is renamed there; the stated maxItems are the answers' bounds, which the handlers enforce.
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { SAMPLE_METRICS } from './history/metrics.js';

const count: JsonSchema = { type: 'number', minimum: 0 };
const percent: JsonSchema = { type: 'number', minimum: 0, maximum: 100 };
const maybe = (s: JsonSchema): JsonSchema => ({ ...s, type: [s.type as string, 'null'] });
const maybeCount = maybe(count);
const maybePercent = maybe(percent);

/** Mounts, interfaces, disks, sensors and GPUs listed at most in one live sample. */
export const LIVE_LIST_MAX = 64;
/** Per-core figures at most (a 2-socket server has 256 threads at most today; more are cut). */
export const CORES_MAX = 1024;
/** Processes one answer lists at most. */
export const PROCESSES_MAX = 100;
/** Kernel tunables one answer lists at most (a desktop has about 1,000). */
export const KERNEL_MAX = 500;

export const capsSchema: JsonSchema = closedObject({
  os: { enum: ['linux', 'other'], description: 'linux, or another system whose /proc the probes cannot read.' },
  package_manager: { enum: ['apt', 'dnf', 'pacman', 'zypper', null], description: 'The native package manager, found on PATH.' },
  snap: { type: 'boolean' },
  flatpak: { type: 'boolean' },
  gnome: { type: 'boolean', description: 'A GNOME session, or gnome-shell installed.' },
  wayland: { type: 'boolean', description: 'The session Vigil runs in is a Wayland one.' },
  battery: { type: 'boolean' },
  systemd: { type: 'boolean', description: 'systemd is the init system (/run/systemd/system).' },
  journal: { type: 'boolean', description: 'journalctl is on PATH and systemd runs.' },
  gpu: { type: 'boolean', description: 'A GPU is visible in DRM sysfs, or nvidia-smi is on PATH.' },
  nvidia_smi: { type: 'boolean' },
  containers: {
    type: 'array', maxItems: 6, items: { enum: ['docker', 'podman', 'nerdctl', 'lxd', 'incus', 'kubernetes'] },
    description: 'Container environments: those the containers plugin finds (sockets, kubeconfig, nerdctl) when it is on, else the engines whose command is on PATH.',
  },
}, { title: 'HostCaps', description: 'What this machine has, so the UI hides what does not apply. Detected from files and PATH, cached 5 minutes.' });

const sampleRow = closedObject(
  { t: { type: 'integer', description: 'The minute, epoch ms.' }, ...Object.fromEntries(SAMPLE_METRICS.map((m) => [m, { type: ['number', 'null'] }])) },
  { title: 'HostSampleRow' },
);
const hourRow = closedObject({
  hour: { type: 'integer', description: 'The hour\'s start, epoch ms.' },
  n: { type: 'integer', minimum: 0, description: 'Minute samples the hour was made of.' },
  ...Object.fromEntries(SAMPLE_METRICS.flatMap((m) => [[`${m}_avg`, { type: ['number', 'null'] }], [`${m}_max`, { type: ['number', 'null'] }]])),
}, { title: 'HostHourRow' });

export const TREND_RANGES = ['24h', '7d', '30d', '90d'] as const;
export type TrendRange = (typeof TREND_RANGES)[number];

export const trendQuery: JsonSchema = {
  type: 'object',
  properties: { range: { type: 'string', enum: [...TREND_RANGES], default: '24h', description: '24h (minute rows), 7d, 30d or 90d (hourly rows), ending now.' } },
};

export const trendSchema: JsonSchema = closedObject({
  range: { enum: [...TREND_RANGES] },
  resolution: { enum: ['minute', 'hour'] },
  from: { type: 'integer', description: 'Epoch ms, inclusive.' },
  until: { type: 'integer', description: 'Epoch ms, exclusive.' },
  metrics: { type: 'array', items: { enum: [...SAMPLE_METRICS] }, description: 'Units: percentages 0..100, °C, bytes a second; load1 is the 1-minute load.' },
  samples: { type: 'array', maxItems: 1440, items: sampleRow, description: 'For 24h: one row a minute, oldest first (empty for the other ranges).' },
  hours: { type: 'array', maxItems: 2160, items: hourRow, description: 'For 7d, 30d, 90d: one row per finished hour with each metric\'s average and peak, oldest first (empty for 24h).' },
}, { title: 'HostTrend' });

const cpuShare = closedObject({ busy: percent, user: percent, system: percent, iowait: percent, steal: percent }, { title: 'HostCpuShare' });

const gpuSchema = closedObject({
  id: { type: 'string', description: 'card0 (DRM) or nvidia0 (nvidia-smi).' },
  vendor: { enum: ['amd', 'intel', 'nvidia', 'other'] },
  source: { enum: ['drm', 'nvidia-smi'] },
  name: { type: ['string', 'null'] },
  busy_percent: maybePercent,
  vram_used_bytes: maybeCount,
  vram_total_bytes: maybeCount,
  freq_mhz: maybeCount,
  max_freq_mhz: maybeCount,
  celsius: { type: ['number', 'null'] },
  power_w: maybeCount,
}, { title: 'HostGpu' });

export const liveSchema: JsonSchema = closedObject({
  taken_at: { type: 'string', format: 'date-time' },
  interval_ms: { type: ['integer', 'null'], minimum: 0, description: 'Time since the reading the rates are measured against; null when there was none.' },
  uptime_s: count,
  cpu: closedObject({
    total: maybe(cpuShare),
    cores: { type: 'array', maxItems: CORES_MAX, items: percent, description: 'Busy share of each core, in the kernel\'s order; empty without a previous reading.' },
    load: { type: 'array', items: count, minItems: 3, maxItems: 3 },
    running: count,
    tasks: count,
  }, { title: 'HostLiveCpu' }),
  memory: maybe(closedObject({
    total_bytes: count, used_bytes: count, available_bytes: count, cached_bytes: count, buffers_bytes: count, percent,
    swap_total_bytes: count, swap_used_bytes: count, swap_percent: percent,
  }, { title: 'HostLiveMemory' })),
  disks: {
    type: 'array', maxItems: LIVE_LIST_MAX,
    items: closedObject({
      device: { type: 'string' }, mount: { type: 'string' }, fs_type: { type: 'string' },
      total_bytes: maybeCount, used_bytes: maybeCount, available_bytes: maybeCount, percent: maybePercent,
    }, { title: 'HostMount' }),
    description: 'Real partitions (not tmpfs, squashfs, overlay), each device once; usage null when statfs failed or took over 2 s.',
  },
  disk_io: {
    type: 'array', maxItems: LIVE_LIST_MAX,
    items: closedObject({
      name: { type: 'string' }, whole_disk: { type: 'boolean' },
      read_bps: maybeCount, write_bps: maybeCount, busy_percent: maybePercent,
      read_bytes: count, written_bytes: count,
    }, { title: 'HostDiskIo' }),
  },
  network: {
    type: 'array', maxItems: LIVE_LIST_MAX,
    items: closedObject({
      name: { type: 'string' }, rx_bps: maybeCount, tx_bps: maybeCount,
      rx_bytes: count, tx_bytes: count, rx_errors: count, tx_errors: count, rx_dropped: count, tx_dropped: count,
    }, { title: 'HostInterface' }),
    description: 'Every interface but loopback, with rates since the previous reading and the counters since boot.',
  },
  temperatures: {
    type: 'array', maxItems: LIVE_LIST_MAX,
    items: closedObject({ chip: { type: 'string' }, label: { type: 'string' }, celsius: { type: 'number' } }, { title: 'HostSensor' }),
  },
  batteries: {
    type: 'array', maxItems: 8,
    items: closedObject({
      name: { type: 'string' }, percent, status: { type: 'string' }, charging: { type: 'boolean' }, plugged: { type: 'boolean' },
      health_percent: { type: ['number', 'null'], minimum: 0, description: 'Full capacity against design capacity (wear), over 100 for some new batteries; null when the firmware does not say.' },
    }, { title: 'HostLiveBattery' }),
  },
  gpus: { type: 'array', maxItems: LIVE_LIST_MAX, items: gpuSchema },
}, { title: 'HostLive', description: 'This machine now, in full: what the Host page shows and the live stream (topic host.live) sends.' });

export const processesQuery: JsonSchema = {
  type: 'object',
  properties: {
    sort: { type: 'string', enum: ['cpu', 'mem'], default: 'cpu' },
    q: { type: 'string', maxLength: 200, description: 'Keeps processes whose name or command line contains this, ignoring case.' },
    limit: { type: 'integer', minimum: 1, maximum: PROCESSES_MAX, default: 25 },
  },
};

export const processesSchema: JsonSchema = closedObject({
  sort: { enum: ['cpu', 'mem'] },
  total: { type: 'integer', minimum: 0, description: 'Processes running (matching q when given).' },
  interval_ms: { type: 'integer', minimum: 0, description: 'The window CPU shares are measured over.' },
  processes: {
    type: 'array', maxItems: PROCESSES_MAX,
    items: closedObject({
      pid: { type: 'integer' }, ppid: { type: 'integer' }, name: { type: 'string' }, state: { type: 'string' },
      cpu_percent: { type: 'number', minimum: 0, description: 'Share of one core, as top shows it: 200 is two cores busy.' },
      rss_bytes: count,
      mem_percent: percent,
      command: { type: 'string', maxLength: 1000, description: 'The command line, cut at 1,000 characters; empty for kernel threads.' },
    }, { title: 'HostProcess' }),
  },
}, { title: 'HostProcesses' });

export const kernelQuery: JsonSchema = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 200, description: 'Keeps tunables whose key or value contains this, ignoring case.' },
    limit: { type: 'integer', minimum: 1, maximum: KERNEL_MAX, default: 200 },
  },
};

export const kernelSchema: JsonSchema = closedObject({
  total: { type: 'integer', minimum: 0, description: 'Tunables matching q (all readable ones without it).' },
  tunables: {
    type: 'array', maxItems: KERNEL_MAX,
    items: closedObject({ key: { type: 'string' }, value: { type: 'string', maxLength: 512 } }, { title: 'KernelTunable' }),
    description: 'Sorted by key; read-only (sysctl -a), values cut at 512 characters.',
  },
}, { title: 'KernelTunables' });
