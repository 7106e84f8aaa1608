// Benchmark: what Vigil costs a machine while nobody looks, against the budget of 1 % of one core and 150 MB RSS
// (bench/README.md). `npm start`'s own configuration (examples/vigil.yaml, with the host plugins it turns on) runs
// beside a bare `node -e 'setInterval(()=>{},60000)'`; both settle for the warm-up, then both are measured over the
// same window: CPU of every process in each tree (children that ended count through their parent), and the RSS of
// every process together, read every 10 s (the peak is reported). No browser, no traffic.
// Prints `idle host monitor: X % of a core, Y MB RSS (ratios vs budget …; bare node …)`.
//
// Usage: node dist/bench/idle-host.js [warm-up seconds, default 300] [measured seconds, default 300]
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, waitFor } from '../tests/support/net.js';
import { repoRoot, vigilBin } from '../tests/support/paths.js';
import { tempDir } from '../tests/support/tmp.js';

const WARM_UP_S = Number(process.argv[2] ?? 300);
const MEASURE_S = Number(process.argv[3] ?? 300);
const BUDGET_CORE_PCT = 1;
const BUDGET_RSS_MB = 150;
const TICKS_PER_S = 100; // USER_HZ on Linux
const PAGE_KB = 4;

interface ProcStat { ppid: number; ticks: number; reapedTicks: number; rssKb: number }

/** Fields of /proc/<pid>/stat after the command's closing parenthesis (the name may hold spaces). */
function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // f[0] is field 3 (state): utime is field 14, stime 15, cutime 16, cstime 17, rss 24 (pages).
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), reapedTicks: Number(f[13]) + Number(f[14]), rssKb: Number(f[21]) * PAGE_KB };
  } catch {
    return undefined; // it ended between the listing and the read
  }
}

/** The process and every descendant alive now. */
function tree(root: number): Map<number, ProcStat> {
  const all = new Map<number, ProcStat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) all.set(Number(name), stat);
  }
  const inside = new Map<number, ProcStat>();
  const visit = (pid: number) => {
    const stat = all.get(pid);
    if (!stat || inside.has(pid)) return;
    inside.set(pid, stat);
    for (const [child, s] of all) if (s.ppid === pid) visit(child);
  };
  visit(root);
  return inside;
}

/** CPU ticks the tree has used so far: its living processes' own, and what the root reaped of ended children. */
function treeTicks(root: number): number {
  const procs = tree(root);
  let ticks = procs.get(root)?.reapedTicks ?? 0;
  for (const s of procs.values()) ticks += s.ticks;
  return ticks;
}

function treeRssMb(root: number): number {
  let kb = 0;
  for (const s of tree(root).values()) kb += s.rssKb;
  return kb / 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = tempDir('vigil-bench-idle-');
  const port = await freePort();
  const token = 'bench-idle-host-token-0123456789';
  // `npm start`: the same flags and configuration, its data directory in a fresh working directory.
  const vigil = spawn(process.execPath, ['--max-semi-space-size=64', vigilBin, 'run', '-config', join(repoRoot, 'examples', 'vigil.yaml')], {
    cwd: dir.path, env: { ...process.env, VIGIL_LISTEN: `127.0.0.1:${port}`, VIGIL_TOKEN: token, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  vigil.stderr!.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  const bare = spawn(process.execPath, ['-e', 'setInterval(()=>{},60000)'], { stdio: 'ignore' });
  const stop = (p: ChildProcess) => { if (p.exitCode === null) p.kill('SIGTERM'); };
  try {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined))?.status === 200,
      { timeoutMs: 30_000, what: 'vigil health' }).catch((e) => { throw new Error(`${(e as Error).message}\n${stderr}`); });
    const plugins = await (await fetch(`http://127.0.0.1:${port}/api/ui/about`, { headers: { authorization: `Bearer ${token}` } })).json().catch(() => undefined);
    console.error(`warm-up ${WARM_UP_S} s, then ${MEASURE_S} s measured; plugins: ${JSON.stringify((plugins as { plugins?: { name: string }[] })?.plugins?.map((p) => p.name) ?? 'unknown')}`);
    await sleep(WARM_UP_S * 1000);

    const start = { vigil: treeTicks(vigil.pid!), bare: treeTicks(bare.pid!), at: performance.now() };
    const peak = { vigil: 0, bare: 0 };
    const deadline = start.at + MEASURE_S * 1000;
    while (performance.now() < deadline) {
      peak.vigil = Math.max(peak.vigil, treeRssMb(vigil.pid!));
      peak.bare = Math.max(peak.bare, treeRssMb(bare.pid!));
      await sleep(Math.min(10_000, Math.max(0, deadline - performance.now())));
    }
    const seconds = (performance.now() - start.at) / 1000;
    const pct = (ticks: number) => (ticks / TICKS_PER_S / seconds) * 100;
    const cpu = { vigil: pct(treeTicks(vigil.pid!) - start.vigil), bare: pct(treeTicks(bare.pid!) - start.bare) };
    if (vigil.exitCode !== null) throw new Error(`vigil exited during the run:\n${stderr}`);
    console.log(`idle host monitor: ${cpu.vigil.toFixed(2)} % of a core, ${peak.vigil.toFixed(0)} MB RSS ` +
      `(ratios ${(cpu.vigil / BUDGET_CORE_PCT).toFixed(2)} and ${(peak.vigil / BUDGET_RSS_MB).toFixed(2)} vs budgets ${BUDGET_CORE_PCT} % and ${BUDGET_RSS_MB} MB; ` +
      `bare node ${cpu.bare.toFixed(2)} %, ${peak.bare.toFixed(0)} MB; ${MEASURE_S} s after ${WARM_UP_S} s of warm-up, npm start's configuration, no browser)`);
  } finally {
    stop(vigil);
    stop(bare);
    await sleep(500);
    dir.cleanup();
  }
}

await main();
