import { readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import type { MetricsRegistry } from './registry.js';

// Names follow the Prometheus process-collector and Node client conventions, so existing dashboards work.
const PROCESS_METRICS = [
  'process_cpu_user_seconds_total', 'process_cpu_system_seconds_total', 'process_cpu_seconds_total',
  'process_start_time_seconds', 'process_resident_memory_bytes', 'process_open_fds', 'process_max_fds',
  'nodejs_heap_used_bytes', 'nodejs_heap_total_bytes', 'nodejs_external_memory_bytes',
  'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_eventloop_lag_max_seconds',
  'nodejs_version_info', 'nodejs_gc_duration_seconds',
];

const GC_KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };

function maxOpenFiles(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    const n = Number(soft);
    return Number.isFinite(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Registers CPU, memory, file descriptor (Linux), heap, event loop delay and GC metrics on the registry's core.
 * Values are read when `/metrics` is rendered. The returned function stops the event loop and GC observers and
 * removes the metrics.
 */
export function registerProcessMetrics(registry: MetricsRegistry): () => void {
  const m = registry.core;
  const cpuUser = m.counter('process_cpu_user_seconds_total', { help: 'User CPU time spent by the process, in seconds.' });
  const cpuSystem = m.counter('process_cpu_system_seconds_total', { help: 'System CPU time spent by the process, in seconds.' });
  const cpuTotal = m.counter('process_cpu_seconds_total', { help: 'User and system CPU time spent by the process, in seconds.' });
  m.gauge('process_start_time_seconds', { help: 'Start time of the process since the Unix epoch, in seconds.' })
    .set(Math.round(performance.timeOrigin) / 1000);
  const rss = m.gauge('process_resident_memory_bytes', { help: 'Resident set size of the process, in bytes.' });
  const heapUsed = m.gauge('nodejs_heap_used_bytes', { help: 'V8 heap in use, in bytes.' });
  const heapTotal = m.gauge('nodejs_heap_total_bytes', { help: 'V8 heap reserved, in bytes.' });
  const external = m.gauge('nodejs_external_memory_bytes', { help: 'Memory of C++ objects bound to JavaScript objects, in bytes.' });
  const lagMean = m.gauge('nodejs_eventloop_lag_seconds', { help: 'Mean event loop delay since the previous scrape, in seconds.' });
  const lagP99 = m.gauge('nodejs_eventloop_lag_p99_seconds', { help: '99th percentile of the event loop delay since the previous scrape, in seconds.' });
  const lagMax = m.gauge('nodejs_eventloop_lag_max_seconds', { help: 'Largest event loop delay since the previous scrape, in seconds.' });
  m.gauge('nodejs_version_info', { help: 'Node.js version, as the label of a constant 1.', labelNames: ['version', 'major', 'minor', 'patch'] })
    .labels(process.version, ...process.versions.node.split('.')).set(1);
  const gc = m.histogram('nodejs_gc_duration_seconds', {
    help: 'Garbage collection pauses by kind, in seconds.',
    labelNames: ['kind'],
    buckets: [0.001, 0.01, 0.1, 1, 2, 5],
  });

  const linux = process.platform === 'linux';
  const openFds = linux ? m.gauge('process_open_fds', { help: 'Open file descriptors.' }) : undefined;
  const maxFds = linux ? maxOpenFiles() : undefined;
  if (maxFds !== undefined) m.gauge('process_max_fds', { help: 'Limit of open file descriptors.' }).set(maxFds);

  // resolution in ms; the histogram's timer does not keep the process alive.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let seen = process.cpuUsage();
  const removeHook = registry.onCollect('process', () => {
    const now = process.cpuUsage();
    const user = (now.user - seen.user) / 1e6;
    const system = (now.system - seen.system) / 1e6;
    seen = now;
    cpuUser.inc(user);
    cpuSystem.inc(system);
    cpuTotal.inc(user + system);
    const mem = process.memoryUsage();
    rss.set(mem.rss);
    heapUsed.set(mem.heapUsed);
    heapTotal.set(mem.heapTotal);
    external.set(mem.external);
    if (openFds) {
      // The listing itself holds one descriptor open while it runs.
      try { openFds.set(readdirSync('/proc/self/fd').length - 1); } catch { /* /proc not mounted */ }
    }
    // Before the first sample the histogram reports a huge sentinel minimum and NaN mean; report 0 instead.
    const has = delay.count > 0;
    lagMean.set(has ? delay.mean / 1e9 : 0);
    lagP99.set(has ? delay.percentile(99) / 1e9 : 0);
    lagMax.set(has ? delay.max / 1e9 : 0);
    delay.reset();
  });

  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      gc.labels(GC_KINDS[kind ?? 0] ?? 'other').observe(entry.duration / 1000);
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });

  let disposed = false;
  return () => {
    if (disposed) return;
    disposed = true;
    delay.disable();
    gcObserver.disconnect();
    removeHook();
    for (const name of PROCESS_METRICS) registry.unregister(name);
  };
}
