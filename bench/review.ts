// Benchmark: `vigil review` over stored records. Baselines, on the same SQLite file and the same rows: the bare read
// (the paged SELECT the review reads through, rows fetched and dropped) and the read with each record parsed; for
// reference, `vigil scan`'s one pass of the detectors over each record. The review is timed in-process
// (ReviewCollector over the same generator) and as the command (`vigil review -config`, start-up and both policies'
// loading included). Records come from bench/support/records-filler.ts; the head policy changes most of what the
// synthetic traffic touches (a JSON field, a header, a query parameter, a restriction, a label, sampling, a
// detector), so each request is compared, not waved through as "decided alike".
//
// Usage: node dist/bench/review.js [records, default 100000]
//   REVIEW_DB=/path/vigil.db reuses (or creates, and keeps) a filled database file between runs.
import { join } from 'node:path';
import { tempDir } from '../tests/support/tmp.js';
import { runVigil, writeConfig } from '../tests/support/vigil-process.js';
import { openFilledRecords, timeBaselines, timeRecords } from './support/stored-records-baselines.js';
import { compilePolicy } from '../policies/compile.js';
import type { RuleConfig } from '../policies/schema.js';
import { stringify } from 'yaml';
import { storedRecords } from '../plugins/governance/scan/scan-sources.js';
import { ReviewCollector } from '../plugins/governance/review/review-core.js';
import { ScanCollector } from '../plugins/governance/scan/scan-core.js';

const COUNT = Number(process.argv[2] ?? 100_000);
const work = tempDir('vigil-bench-review-');
const file = process.env.REVIEW_DB ?? join(work.path, 'data', 'vigil.db');

// The policy the synthetic records were stored under (records-filler's routes and masks), and a head that changes it.
const BASE: RuleConfig[] = [
  { name: 'all-traffic', match: { path: '/**' }, redact: { headers: ['authorization'] }, labels: { tenant: 'header:X-Tenant-Id' } },
  { name: 'orders', match: { path: '/api/orders/**' }, redact: { json_fields: ['$.email'] } },
  { name: 'profile', match: { path: '/api/users/*/profile' }, redact: { json_fields: ['$.email'] } },
  { name: 'payments', match: { path: '/api/payments/**' }, redact: { json_fields: ['$.card.number'] } },
  { name: 'search', match: { path: '/api/search/**' }, sample: 0.1, redact: { query_params: ['q'] } },
  { name: 'llm', match: { path: '/v1/chat/completions' }, meter: { tokens: '$.usage.total_tokens' } },
  { name: 'admin', match: { path: '/admin/**' }, restrict: ['headers', 'request_body', 'response_body'] },
];
const HEAD: RuleConfig[] = [
  { name: 'all-traffic', match: { path: '/**' } },
  { name: 'orders', match: { path: '/api/orders/**' }, redact: { json_fields: ['$.items.*.sku'], detect: ['email'] } },
  BASE[2],
  { name: 'payments', match: { path: '/api/payments/**' }, redact: { json_fields: ['$.card'] } },
  { name: 'search', match: { path: '/api/search/**' }, sample: 1 },
  { ...BASE[5], redact: { json_fields: ['$.messages.*.content'] } },
  { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body'] },
];

try {
  const { backend, store } = await openFilledRecords(file, COUNT);
  const { bare, parsed } = await timeBaselines(store, COUNT);
  // A reference, not a baseline: what `vigil scan` (one pass of the detectors over each record) costs on the same rows.
  const scanned = await timeRecords('scan (in-process, for reference)', async () => {
    const c = new ScanCollector();
    for await (const r of storedRecords(store, 0, COUNT)) c.add(r);
    c.findings();
    return c.records;
  });
  const base = compilePolicy({ rules: BASE });
  const head = compilePolicy({ rules: HEAD });
  let summary = '';
  const reviewed = await timeRecords('review (in-process)', async () => {
    const c = new ReviewCollector(base, head);
    for await (const r of storedRecords(store, 0, COUNT)) c.add({ ...r, stored: true });
    const result = c.result();
    summary = `${result.changes.length} rows (${result.weakening} weakening), ${result.exposures.pre_existing.length} pre-existing exposures`;
    return c.requests;
  });
  await backend.close();
  const config = writeConfig(work.path, `data_dir: ${work.path}/data\nstorage: { url: "sqlite:${file}" }\ncapture: {}\n${stringify({ rules: BASE })}`);
  writeConfig(work.path, stringify({ rules: HEAD }), 'head.yaml');
  const t0 = performance.now();
  const cli = await runVigil(['review', '--base', config, '--head', join(work.path, 'head.yaml'), '-config', config, '--format', 'json']);
  const cliS = (performance.now() - t0) / 1000;
  if (cli.code !== 1) throw new Error(`expected exit 1 (weakening), got ${cli.code}: ${cli.stderr}`);
  console.log(`  vigil review -config (whole command)   ${JSON.parse(cli.stdout).requests} records in ${cliS.toFixed(2)} s`);
  console.log(`  review: ${(reviewed.s * 1e6 / COUNT).toFixed(1)} µs/record wall, ${(reviewed.cpuS * 1e6 / COUNT).toFixed(1)} µs CPU; `
    + `CPU ratio ${(reviewed.cpuS / bare.cpuS).toFixed(1)}x the bare read, ${(reviewed.cpuS / parsed.cpuS).toFixed(1)}x the read with parse `
    + `(wall ${(reviewed.s / bare.s).toFixed(1)}x, ${(reviewed.s / parsed.s).toFixed(1)}x), ${(reviewed.cpuS / scanned.cpuS).toFixed(1)}x the scan's CPU; ${summary}`);
} finally {
  if (!process.env.REVIEW_DB) work.cleanup();
}
