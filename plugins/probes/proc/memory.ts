import { readText } from './read-text.js';

/** Memory and swap in bytes. `used` is total minus available, the figure `free` and node-exporter dashboards show. */
export interface MemoryReading {
  total: number; available: number; used: number; free: number; buffers: number; cached: number;
  swapTotal: number; swapFree: number; swapUsed: number;
  /** used / total and swapUsed / swapTotal, 0..100 (0 when there is no swap). */
  usedPercent: number; swapPercent: number;
}

/** Reads /proc/meminfo, whose values are in KiB whatever the `kB` suffix says. */
export async function readMemory(root = '/'): Promise<MemoryReading | undefined> {
  const text = await readText(root, 'proc/meminfo');
  return text === undefined ? undefined : parseMemory(text);
}

/**
 * Every field of /proc/meminfo's text in bytes, by the kernel's name (`MemTotal`, `Active(anon)`); fields without the
 * `kB` suffix (`HugePages_Total`) are counts and are left out.
 */
export function meminfoFields(text: string): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^([\w()]+):\s+(\d+) kB/.exec(line);
    if (m) bytes.set(m[1], Number(m[2]) * 1024);
  }
  return bytes;
}

/** /proc/meminfo's text as bytes. */
export function parseMemory(text: string): MemoryReading | undefined {
  const kib = meminfoFields(text);
  const total = kib.get('MemTotal');
  if (!total) return undefined;
  const free = kib.get('MemFree') ?? 0;
  const buffers = kib.get('Buffers') ?? 0;
  const cached = (kib.get('Cached') ?? 0) + (kib.get('SReclaimable') ?? 0);
  // MemAvailable exists since Linux 3.14; before it, free + buffers + cache is the usual estimate.
  const available = kib.get('MemAvailable') ?? Math.min(total, free + buffers + cached);
  const swapTotal = kib.get('SwapTotal') ?? 0;
  const swapFree = kib.get('SwapFree') ?? 0;
  const used = total - available;
  const swapUsed = swapTotal - swapFree;
  return {
    total, available, used, free, buffers, cached, swapTotal, swapFree, swapUsed,
    usedPercent: (used / total) * 100,
    swapPercent: swapTotal > 0 ? (swapUsed / swapTotal) * 100 : 0,
  };
}
