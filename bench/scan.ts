// Benchmark: `vigil scan` over stored records. Baselines, on the same SQLite file and the same rows: the bare read
// (the scan's own paged SELECT, rows fetched and dropped), and the read with each record parsed. The scan itself is
// timed in-process (ScanCollector over the same generator) and as the command (`vigil scan -config`, start-up
// included). Records come from bench/support/records-filler.ts (capture's own rows: masked credentials and cards).
//
// Usage: node dist/bench/scan.js [records, default 1000000]
//   SCAN_DB=/path/vigil.db reuses (or creates, and keeps) a filled database file between runs.
import { join } from 'node:path';
import { tempDir } from '../tests/support/tmp.js';
import { runVigil, writeConfig } from '../tests/support/vigil-process.js';
import { openFilledRecords, timeBaselines, timeRecords } from './support/stored-records-baselines.js';
import { storedRecords } from '../plugins/governance/scan/scan-sources.js';
import { ScanCollector } from '../plugins/governance/scan/scan-core.js';

const COUNT = Number(process.argv[2] ?? 1_000_000);
const work = tempDir('vigil-bench-scan-');
const file = process.env.SCAN_DB ?? join(work.path, 'data', 'vigil.db');

try {
  const { backend, store } = await openFilledRecords(file, COUNT);
  const { bare, parsed } = await timeBaselines(store, COUNT);
  let findings = 0;
  const scanned = await timeRecords('scan (in-process)', async () => {
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
  console.log(`  scan/bare ${(scanned.s / bare.s).toFixed(1)}x, scan/parsed ${(scanned.s / parsed.s).toFixed(1)}x wall; CPU ${(scanned.cpuS / bare.cpuS).toFixed(1)}x, ${(scanned.cpuS / parsed.cpuS).toFixed(1)}x; ${findings} findings`);
} finally {
  if (!process.env.SCAN_DB) work.cleanup();
}
