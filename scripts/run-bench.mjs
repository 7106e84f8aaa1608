// Runs the benchmarks in dist/bench one after another (never in parallel: they compete for the 2 cores).
// Usage: npm run bench [-- substring …]
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// With the V8 flags `vigil run` serves with: the gateway benches run both proxies in their own process.
const { RUN_V8_FLAGS } = await import(pathToFileURL(join(root, 'dist/runtime/cli/v8-flags.js')).href);
const filters = process.argv.slice(2);
const dir = join(root, 'dist/bench');
const files = readdirSync(dir).filter((f) => f.endsWith('.js') && (!filters.length || filters.some((s) => f.includes(s)))).sort();
let failed = 0;
for (const f of files) {
  console.log(`# ${f}`);
  const r = spawnSync(process.execPath, [...RUN_V8_FLAGS, '--no-node-snapshot', '--expose-gc', join(dir, f)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
