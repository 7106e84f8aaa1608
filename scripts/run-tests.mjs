// Runs the uvu suites, one Node process per test file, and ends with the plain summary line
// `N passed, N failed`. uvu prints per-file totals (Total / Passed / Skipped); they are added up here.
//
// Usage: node scripts/run-tests.mjs [substring …]   (only files whose path contains one of the substrings)
// Env:   TEST_CONCURRENCY (default 2), TEST_FILE_TIMEOUT_MS (default 300000), TEST_VERBOSE=1 prints every file's output,
//        VIGIL_VALIDATE_RESPONSES (default 1: answers are checked against their schemas; 0 turns it off).
// The typechecks (`tsc --noEmit` of the server, the web UI and its tests) and the lint (`eslint .`, layer boundaries
// and import cycles) run first, unless filters are given, and count as one test each.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const filters = process.argv.slice(2);
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 2);
const fileTimeoutMs = Number(process.env.TEST_FILE_TIMEOUT_MS ?? 300_000);
const verbose = process.env.TEST_VERBOSE === '1';

async function* walk(dir) {
  let entries;
  try { entries = await readdir(dir, { withFileTypes: true }); } catch { return; }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.name.endsWith('.test.js')) yield p;
  }
}

function runProcess(cmd, args, timeoutMs) {
  return new Promise((resolve) => {
    // VIGIL_VALIDATE_RESPONSES: every control plane the tests start (and the vigil processes they spawn) checks each
    // JSON answer against its route's declared schema, and answers 500 on a mismatch, so the suites catch drift.
    const child = spawn(cmd, args, { cwd: root, env: { VIGIL_VALIDATE_RESPONSES: '1', ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutMs);
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, output, timedOut }); });
  });
}

// eslint-disable-next-line no-control-regex
const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');
const lastNumber = (text, label) => {
  const all = [...strip(text).matchAll(new RegExp(`^\\s*${label}:\\s+(\\d+)`, 'gm'))];
  return all.length ? Number(all[all.length - 1][1]) : undefined;
};

let passed = 0, failed = 0, skipped = 0;
const failures = [];

if (filters.length === 0) {
  const checks = [
    ['typecheck', [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.json']],
    // The web UI (DOM, JSX) and the tests that drive it or import its sources have projects of their own.
    ['typecheck ui', [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'ui/tsconfig.json']],
    ['typecheck ui tests', [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'tests/tsconfig.dom.json']],
    ['lint', [join(root, 'node_modules/eslint/bin/eslint.js'), '--max-warnings', '0', '.']],
  ];
  for (const [name, args] of checks) {
    const t0 = Date.now();
    const r = await runProcess(process.execPath, args, fileTimeoutMs);
    if (r.code === 0) { passed++; console.log(`ok    ${name} (${Date.now() - t0} ms)`); }
    else { failed++; failures.push(name); console.log(`FAIL  ${name}\n${r.output}`); }
  }
}

const files = [];
for await (const f of walk(join(root, 'dist/tests'))) {
  const rel = relative(join(root, 'dist'), f);
  if (filters.length === 0 || filters.some((s) => rel.includes(s))) files.push(f);
}

let next = 0;
async function lane() {
  while (next < files.length) {
    const file = files[next++];
    const rel = relative(join(root, 'dist'), file);
    const t0 = Date.now();
    const r = await runProcess(process.execPath, ['--enable-source-maps', file], fileTimeoutMs);
    const total = lastNumber(r.output, 'Total');
    const ok = lastNumber(r.output, 'Passed');
    const skip = lastNumber(r.output, 'Skipped') ?? 0;
    let fileFailed;
    if (total === undefined || ok === undefined) {
      fileFailed = 1; // crashed or hung before uvu could print its totals
    } else {
      fileFailed = Math.max(total - ok, r.code === 0 ? 0 : 1);
      passed += ok;
    }
    failed += fileFailed;
    skipped += skip;
    const ms = Date.now() - t0;
    if (fileFailed) {
      failures.push(rel);
      const why = r.timedOut ? ` (killed after ${fileTimeoutMs} ms)` : r.signal ? ` (signal ${r.signal})` : '';
      console.log(`FAIL  ${rel}${why} (${ms} ms)\n${r.output.split('\n').map((l) => '    ' + l).join('\n')}`);
    } else {
      console.log(`ok    ${rel}: ${ok} passed${skip ? `, ${skip} skipped` : ''} (${ms} ms)`);
      if (verbose) console.log(r.output);
    }
  }
}
await Promise.all(Array.from({ length: Math.max(1, concurrency) }, lane));

if (failures.length) console.log(`\nfailed: ${failures.join(', ')}`);
if (skipped) console.log(`skipped: ${skipped}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
