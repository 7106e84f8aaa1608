import { parseDuration, type HostService, type PluginContext } from '@vigil/plugin-sdk';
import { cachedCaps, detectCaps } from './capabilities.js';
import type { ProbesConfig } from './config-schema.js';
import { procUnreadable } from './errors.js';
import { probesMigrations } from './history/migrations.js';
import { MINUTE_MS } from './history/retention.js';
import { maintainHistory, recordSample } from './history/sample-store.js';
import { hostOverview, readHostIdentity } from './host-overview.js';
import { KernelTable } from './kernel-table.js';
import { LiveReader } from './live-reading.js';
import { LiveStream } from './live-stream.js';
import type { HostGpu } from './live-types.js';
import { readCounters, takeSample, type SampleCounters } from './minute-sample.js';
import { queryNvidiaSmi } from './nvidia-smi.js';
import { ProcessTable } from './process-table.js';
import { readNetwork } from './proc/network.js';
import { registerLogRoutes } from './logs/logs-routes.js';
import { setupLogwatch } from './logwatch/start-logwatch.js';
import { registerNodeMetrics } from './node-exporter/node-metrics.js';
import { registerProbesRoutes } from './routes.js';
import { setupHostAlerts } from './host-alerts/start-host-alerts.js';

/** How often finished hours are rolled up and old rows deleted: a finished hour appears within this. */
const ROLLUP_INTERVAL_MS = 10 * MINUTE_MS;
/** The shortest window a minute sample's CPU share and rates are measured over (the first one after a start). */
const FIRST_WINDOW_MS = 1000;

export interface RunningProbes {
  start(): Promise<void>;
  stop(): void;
}

/**
 * Builds the plugin: the history tables, the `host` service, the dashboard API, the minute sample and the rollup on
 * the lease scheduler (one run per tick across processes), and the live stream that runs only while a page watches.
 */
export async function startProbes(ctx: PluginContext, config: ProbesConfig): Promise<RunningProbes> {
  const root = ctx.resolvePath(config.root);
  await ctx.store.migrate(probesMigrations);

  const caps = cachedCaps(async () => {
    const found = await detectCaps(root);
    // The containers plugin knows its configured sockets and kubeconfig: its answer replaces the PATH guess.
    const containers = ctx.services.find('containers');
    return containers ? { ...found, containers: await containers.engines() } : found;
  });
  let nvidiaFailed = false;
  const nvidiaGpus = async (): Promise<HostGpu[]> => {
    if (!config.nvidia_smi || !(await caps()).nvidia_smi) return [];
    try {
      const gpus = await queryNvidiaSmi();
      nvidiaFailed = false;
      return gpus;
    } catch (err) {
      // Said once per run of failures, not every 2 s.
      if (!nvidiaFailed) ctx.log.warn('nvidia-smi failed; NVIDIA GPUs are left out of the live sample', { err });
      nvidiaFailed = true;
      return [];
    }
  };
  const reader = new LiveReader({ root, nvidiaGpus });
  // Read once: a renamed host shows its new name after a restart.
  const identity = await readHostIdentity(root);
  const live = async () => {
    const { live: reading } = await reader.read(true);
    if (reading.memory === null) throw procUnreadable(root, 'proc/meminfo');
    return reading;
  };
  const host: HostService = {
    async overview() {
      const overview = await hostOverview(reader, identity);
      if (overview.memory.total_bytes === 0) throw procUnreadable(root, 'proc/meminfo');
      return overview;
    },
    async interfaces() {
      return (await readNetwork(root)).map((i) => ({
        name: i.name, rx_bytes: i.rxBytes, rx_packets: i.rxPackets, rx_errors: i.rxErrors, rx_dropped: i.rxDropped,
        tx_bytes: i.txBytes, tx_packets: i.txPackets, tx_errors: i.txErrors, tx_dropped: i.txDropped,
      }));
    },
  };
  ctx.services.provide('host', host);

  registerProbesRoutes(ctx.http, {
    host, live, caps, store: ctx.store, processes: new ProcessTable(root), kernel: new KernelTable(root), now: Date.now,
  });
  // Host rules, the health score and the host digest (plugins/probes/host-alerts, plugins/probes/health).
  const hostAlerts = setupHostAlerts(ctx, { root });

  const logs = { allowedPaths: config.logs.allow.map((p) => ctx.resolvePath(p)) };
  registerLogRoutes(ctx.http, logs);
  const logwatch = setupLogwatch(ctx, { ...logs, intervalMs: parseDuration(config.logs.watch_interval) });
  const nodeMetrics = registerNodeMetrics(ctx.metrics, { root });

  // The minute sample's rates are measured against this process's previous counters; the first run after a start
  // (at once: the history begins filling on the first start) against those read here, at least a second before.
  let counters: SampleCounters | undefined = await readCounters(root, Date.now());
  if (!counters.cpu) {
    ctx.log.warn('probes: /proc/stat could not be read, so there will be no host metrics; is this Linux, and does probes.root hold the host\'s proc/?', { root });
  }
  await reader.prime();
  ctx.jobs.every('probes.minute-sample', MINUTE_MS, async () => {
    const since = Date.now() - (counters?.at ?? 0);
    if (since < FIRST_WINDOW_MS) await new Promise((r) => setTimeout(r, FIRST_WINDOW_MS - since).unref());
    const now = Date.now();
    const { sample, counters: next } = await takeSample(root, now, counters);
    counters = next;
    // Without /proc (not Linux, or a wrong probes.root, said at start) a row of nulls would only take room.
    if (sample.mem === null) return;
    // Stamped with its minute, so two processes on one tick write one row; the rates used the real times.
    await recordSample(ctx.store, { ...sample, t: Math.floor(now / MINUTE_MS) * MINUTE_MS });
  }, { immediate: true });
  ctx.jobs.every('probes.hourly-rollup', ROLLUP_INTERVAL_MS, async () => {
    await maintainHistory(ctx.store, Date.now());
  });

  const stream = new LiveStream({
    ui: ctx.services.find('ui'), bus: ctx.bus, intervalMs: parseDuration(config.live_interval), read: live,
    contain: (what, fn) => ctx.contain(what, fn),
    taken: ctx.metrics.counter('live_samples_total', { help: 'Live samples taken for watching pages (none while no page watches host.live).' }),
  });

  return {
    async start() {
      // The first rollup backfills from the samples kept and catches up on the hours missed while Vigil was off.
      const { rolled } = await maintainHistory(ctx.store, Date.now());
      if (rolled > 0) ctx.log.info('host history: finished hours rolled up at start', { hours: rolled });
      stream.start();
      logwatch.start();
      await hostAlerts.start();
    },
    stop() {
      stream.stop();
      logwatch.stop();
      nodeMetrics.stop();
      hostAlerts.stop();
    },
  };
}
