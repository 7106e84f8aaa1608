// Benchmark: `vigil scan` over stored records. Baselines, on the same SQLite file and the same rows: the bare read
// (the scan's own paged SELECT, rows fetched and dropped), and the read with each record parsed. The scan itself is
// timed in-process (ScanCollector over the same generator) and as the command (`vigil scan -config`, start-up
// included). Records come from bench/support/records-filler.ts (capture's own rows: masked credentials and cards).
//
// Usage: node dist/bench/scan.js [records, default 1000000]
//   SCAN_DB=/path/vigil.db reuses (or creates, and keeps) a filled database file between runs.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../tests/support/tmp.js';
import { runVigil, writeConfig } from '../tests/support/vigil-process.js';
import { fillRecordsAt } from './support/records-filler.js';
import { openStore } from '../runtime/store/index.js';
import { storedRecords } from '../plugins/governance/scan/scan-sources.js';
import { ScanCollector } from '../plugins/governance/scan/scan-core.js';

const COUNT = Number(process.argv[2] ?? 1_000_000);
const work = tempDir('vigil-bench-scan-');
const file = process.env.SCAN_DB ?? join(work.path, 'data', 'vigil.db');
mkdirSync(dirname(file), { recursive: true });

try {
  if (!existsSync(file)) {
    const s = await fillRecordsAt(`sqlite:${file}`, { count: COUNT, spanMs: 6.9 * 86_400_000 });
    console.log(`  filled ${s.records} records in ${(s.ms / 1000).toFixed(1)} s`);
  }
  const backend = await openStore(`sqlite:${file}`);
  const store = backend.forPlugin('capture');
  const time = async (what: string, fn: () => Promise<number>) => {
    const t0 = performance.now();
    const n = await fn();
    const s = (performance.now() - t0) / 1000;
    console.log(`  ${what.padEnd(34)} ${n} records in ${s.toFixed(2)} s (${Math.round(n / s).toLocaleString('en')}/s)`);
    return s;
  };
  const bare = await time('bare read (paged SELECT)', async () => {
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
  const parsed = await time('read + JSON.parse', async () => {
    let n = 0;
    for await (const r of storedRecords(store, 0, COUNT)) if (r.id) n++;
    return n;
  });
  let findings = 0;
  const scanned = await time('scan (in-process)', async () => {
    const c = new ScanCollector();
    for await (const r of storedRecords(store, 0, COUNT)) c.add(r);
    findings = c.findings().length;
    return c.records;
  });
  await backend.close();
  const config = writeConfig(work.path, `data_dir: ${work.path}/data\nstorage: { url: "sqlite:${file}" }\ncapture: {}\nrules:\n  - { name: all, match: { path: /** } }\n`);
  const t0 = performance.now();
  const cli = await runVigil(['scan', '-config', config, '--format', 'json']);
  const cliS = (performance.now() - t0) / 1000;
  if (cli.code !== 0) throw new Error(cli.stderr);
  console.log(`  vigil scan -config (whole command)  ${JSON.parse(cli.stdout).records} records in ${cliS.toFixed(2)} s`);
  console.log(`  scan/bare ${(scanned / bare).toFixed(1)}x, scan/parsed ${(scanned / parsed).toFixed(1)}x, ${findings} findings`);
} finally {
  if (!process.env.SCAN_DB) work.cleanup();
}
