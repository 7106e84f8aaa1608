// What `vigil scan` and `vigil review` are measured against: a SQLite file of synthetic capture records (filled once,
// kept when the caller names the file), the bare paged read of its rows and the read with each record parsed.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fillRecordsAt } from './records-filler.js';
import { openStore } from '../../runtime/store/index.js';
import type { StoreBackend } from '../../runtime/store/index.js';
import { storedRecords } from '../../plugins/governance/scan/scan-sources.js';

export type PluginStore = ReturnType<StoreBackend['forPlugin']>;

/** Opens `file`, filling it with `count` records spread over a week first when it does not exist yet. */
export async function openFilledRecords(file: string, count: number): Promise<{ backend: StoreBackend; store: PluginStore }> {
  mkdirSync(dirname(file), { recursive: true });
  if (!existsSync(file)) {
    const s = await fillRecordsAt(`sqlite:${file}`, { count, spanMs: 6.9 * 86_400_000 });
    console.log(`  filled ${s.records} records in ${(s.ms / 1000).toFixed(1)} s`);
  }
  const backend = await openStore(`sqlite:${file}`);
  return { backend, store: backend.forPlugin('capture') };
}

export interface Timing { s: number; cpuS: number }

/**
 * Times `fn` (which returns how many records it went through) and prints one line. CPU time covers all threads
 * (SQLite reads run off the event loop); on a shared machine it is the steadier figure.
 */
export async function timeRecords(what: string, fn: () => Promise<number>): Promise<Timing> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const n = await fn();
  const s = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  console.log(`  ${what.padEnd(36)} ${n} records in ${s.toFixed(2)} s (${Math.round(n / s).toLocaleString('en')}/s), CPU ${cpuS.toFixed(2)} s (${(cpuS * 1e6 / n).toFixed(1)} µs/record)`);
  return { s, cpuS };
}

/** The two baselines: the paged SELECT the commands read through (rows fetched and dropped), then with each record parsed. */
export async function timeBaselines(store: PluginStore, count: number): Promise<{ bare: Timing; parsed: Timing }> {
  const bare = await timeRecords('bare read (paged SELECT)', async () => {
    let n = 0;
    let before = Number.MAX_SAFE_INTEGER;
    for (;;) {
      const rows = await store.query<{ id: string; time: number; record: string }>(
        'SELECT id, time, record FROM capture_records WHERE time >= ? AND time <= ? ORDER BY time DESC LIMIT ?', [0, before, 1000]);
      n += rows.length;
      if (rows.length < 1000) return n;
      before = Number(rows[rows.length - 1].time) - 1;
    }
  });
  const parsed = await timeRecords('read + JSON.parse', async () => {
    let n = 0;
    for await (const r of storedRecords(store, 0, count)) if (r.id) n++;
    return n;
  });
  return { bare, parsed };
}
