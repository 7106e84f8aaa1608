// Benchmark: from process start to /api/health answering 200, for `vigil run` with the example config.
// Baseline, in the same run: a bare `node -e` that starts a node:http server answering /api/health.
// Prints `startup to health: X ms (ratio X.XX vs baseline)`. Budget (bench/README.md): ≤ 1 s.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromRoot, vigilBin } from '../tests/support/paths.js';
import { freePort } from '../tests/support/net.js';
import { median } from './support/median.js';

async function timeToHealth(args: string[], port: number, env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: 'ignore' });
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.status === 200, () => false);
      if (ok) return performance.now() - t0;
      if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`);
      if (performance.now() - t0 > 20_000) throw new Error('no health answer within 20 s');
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    // SIGTERM, waited for: the next measurement starts only once this one has drained and released its ports.
    const closed = new Promise((r) => child.once('close', r));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await closed;
    clearTimeout(force);
  }
}

const runs = Number(process.env.BENCH_RUNS ?? 7);
const vigil: number[] = [];
const bare: number[] = [];
const work = mkdtempSync(join(tmpdir(), 'vigil-bench-startup-'));
const bareServer = `require('node:http').createServer((q,s)=>{s.setHeader('content-type','application/json');s.end('{"status":"ok"}')}).listen(+process.env.PORT,'127.0.0.1')`;
for (let i = 0; i < runs; i++) {
  let port = await freePort();
  bare.push(await timeToHealth(['-e', bareServer], port, { PORT: String(port) }, work));
  port = await freePort();
  vigil.push(await timeToHealth([vigilBin, 'run', '-config', fromRoot('examples/vigil.yaml')], port,
    { VIGIL_LISTEN: `127.0.0.1:${port}`, VIGIL_TOKEN: 'bench-token' }, work));
}
rmSync(work, { recursive: true, force: true });
const v = median(vigil);
const b = median(bare);
console.log(`startup to health: ${v.toFixed(0)} ms (ratio ${(v / b).toFixed(2)} vs baseline bare node http server at ${b.toFixed(0)} ms; median of ${runs}; budget 1000 ms)`);
