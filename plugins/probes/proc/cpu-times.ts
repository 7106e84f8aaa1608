import { readText } from './read-text.js';

/** Cumulative CPU time by state, in clock ticks (USER_HZ, 100 a second on Linux), as /proc/stat counts it. */
export interface CpuTimes {
  user: number; nice: number; system: number; idle: number; iowait: number;
  irq: number; softirq: number; steal: number;
}

export interface CpuTimesReading {
  /** All cores together (the `cpu` line). */
  total: CpuTimes;
  /** One entry per online core, in the kernel's order (`cpu0`, `cpu1`, …). */
  cores: CpuTimes[];
}

/** Busy share of each interval, 0..100, by state. */
export interface CpuPercent { busy: number; user: number; system: number; iowait: number; steal: number }

function parseLine(fields: string[]): CpuTimes {
  // guest and guest_nice (fields 9 and 10) are already inside user and nice, so they are not added again.
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.slice(1, 9).map((f) => Number(f) || 0);
  return { user, nice, system, idle, iowait: iowait ?? 0, irq: irq ?? 0, softirq: softirq ?? 0, steal: steal ?? 0 };
}

/** Reads the `cpu` and `cpuN` lines of /proc/stat. Undefined when the file is missing. */
export async function readCpuTimes(root = '/'): Promise<CpuTimesReading | undefined> {
  const text = await readText(root, 'proc/stat');
  return text === undefined ? undefined : parseCpuTimes(text);
}

/** The `cpu` and `cpuN` lines of /proc/stat's text. */
export function parseCpuTimes(text: string): CpuTimesReading | undefined {
  let total: CpuTimes | undefined;
  const cores: CpuTimes[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('cpu')) continue;
    const fields = line.trim().split(/\s+/);
    if (fields[0] === 'cpu') total = parseLine(fields);
    else if (/^cpu\d+$/.test(fields[0])) cores.push(parseLine(fields));
  }
  return total ? { total, cores } : undefined;
}

function sum(t: CpuTimes): number {
  return t.user + t.nice + t.system + t.idle + t.iowait + t.irq + t.softirq + t.steal;
}

/**
 * The share of time each state took between two readings, in percent. iowait counts as idle in `busy` (the CPU
 * was free to run something else), as top and node-exporter dashboards do. No elapsed ticks (or a counter that went
 * backwards after a CPU was hot-plugged) gives zeros rather than NaN.
 */
export function cpuPercent(before: CpuTimes, after: CpuTimes): CpuPercent {
  const elapsed = sum(after) - sum(before);
  if (!(elapsed > 0)) return { busy: 0, user: 0, system: 0, iowait: 0, steal: 0 };
  const share = (d: number) => Math.min(100, Math.max(0, (d / elapsed) * 100));
  const idle = after.idle + after.iowait - before.idle - before.iowait;
  return {
    busy: share(elapsed - idle),
    user: share(after.user + after.nice - before.user - before.nice),
    system: share(after.system + after.irq + after.softirq - before.system - before.irq - before.softirq),
    iowait: share(after.iowait - before.iowait),
    steal: share(after.steal - before.steal),
  };
}

/** Total and per-core percentages between two readings; a core missing from either reading is left out. */
export function cpuPercents(before: CpuTimesReading, after: CpuTimesReading): { total: CpuPercent; cores: CpuPercent[] } {
  const n = Math.min(before.cores.length, after.cores.length);
  return {
    total: cpuPercent(before.total, after.total),
    cores: Array.from({ length: n }, (_, i) => cpuPercent(before.cores[i], after.cores[i])),
  };
}
