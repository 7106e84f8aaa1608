// Benchmark: the CPU a watching page costs (bench/README.md, the host live sample's row): a real `vigil run` with the dashboard
// and the host monitor, measured over a window with no page and over a window with one page subscribed to host.live
// (a 2 s sample read from /proc and /sys, published and sent as an event), windows alternated in the same process.
// The difference, divided by the samples the page received, is the CPU of one live sample, all of it: reading,
// JSON, the stream. The idle window is the baseline: the minute sample and the runtime's own timers run in both.
// Prints `host live sample: X ms CPU each, Y % of a core at 2 s (ratio X.XX vs the same process idle)`.
//
// Usage: node dist/bench/host-live-sample.js [window seconds, default 60] [rounds, default 2]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../tests/support/net.js';
import { openSse } from '../tests/support/sse-client.js';
import { tempDir } from '../tests/support/tmp.js';
import { startVigil, writeConfig } from '../tests/support/vigil-process.js';
import { median } from './support/median.js';

const WINDOW_S = Number(process.argv[2] ?? 60);
const ROUNDS = Number(process.argv[3] ?? 2);
const TOKEN = 'bench-host-live-token-0123456789';
/** USER_HZ: /proc/<pid>/stat counts CPU time in hundredths of a second. */
const TICK_MS = 10;

/** User and system CPU of `pid` so far, in ms (all its threads). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_MS;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dir = tempDir('vigil-bench-host-live-');
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const file = writeConfig(dir.path, `data_dir: ${join(dir.path, 'data')}
log: { level: warn }
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
ui: {}
probes: {}
`);
const vigil = await startVigil(file, url);
const pid = vigil.proc.pid!;
const perSample: number[] = [];
const idleShare: number[] = [];
try {
  // Past the start-up work (migrations, the first minute sample and rollup).
  await sleep(5000);
  for (let round = 0; round < ROUNDS; round++) {
    const idle0 = cpuMs(pid);
    await sleep(WINDOW_S * 1000);
    const idle = cpuMs(pid) - idle0;

    const page = await openSse(`${url}/api/ui/stream?topics=host.live`, { authorization: `Bearer ${TOKEN}` });
    await page.next((f) => f.event === 'host.live', 10_000);
    const seen0 = page.frames.filter((f) => f.event === 'host.live').length;
    const watched0 = cpuMs(pid);
    await sleep(WINDOW_S * 1000);
    const watched = cpuMs(pid) - watched0;
    const samples = page.frames.filter((f) => f.event === 'host.live').length - seen0;
    page.close();
    await sleep(1000);

    perSample.push((watched - idle) / Math.max(1, samples));
    idleShare.push(idle / (WINDOW_S * 1000));
    console.log(`round ${round + 1}: idle ${idle} ms, watched ${watched} ms CPU over ${WINDOW_S} s, ${samples} samples`);
  }
} finally {
  await vigil.stop();
  dir.cleanup();
}
const each = median(perSample);
const share = (each / 2000) * 100;
const idle = median(idleShare) * 100;
console.log(`host live sample: ${each.toFixed(2)} ms CPU each, ${share.toFixed(2)} % of a core at 2 s ` +
  `(ratio ${((idle + share) / Math.max(idle, 1e-9)).toFixed(2)} vs the same process idle at ${idle.toFixed(2)} % of a core)`);
