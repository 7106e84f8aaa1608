// Benchmark: listening ports with their owners (bench/README.md, the listening ports row). The network plugin's reading
// (every /proc/net socket table, then a walk of every process's descriptors for their owners, then the ports table)
// against `ss -ltnp` and `ss -ltunp` run as a child process, which walk the same /proc descriptors for `-p`. Before
// the rounds this process opens `extra` loopback listeners (default 500) so both sides have work beyond what the
// machine holds. Rounds alternate; medians of wall time, and of this process's CPU for the plugin's side.
// Prints `listening ports with owners: X ms (ratio X.XX vs ss -ltnp at Y ms)`.
//
// Usage: node dist/bench/listening-ports.js [rounds, default 20] [extra listeners, default 500]
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { listeningPorts } from '../plugins/network/listening-ports.js';
import { SocketSnapshots } from '../plugins/network/socket-snapshot.js';
import { median } from './support/median.js';

const ROUNDS = Number(process.argv[2] ?? 20);
const EXTRA = Number(process.argv[3] ?? 500);

const servers: Server[] = [];
for (let i = 0; i < EXTRA; i++) {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  servers.push(s);
}
const me = { pid: process.pid, uid: process.getuid?.() ?? -1, dashboardPort: undefined };
const snapshots = new SocketSnapshots({ root: '/', budgetMs: 30_000 });

const ours: number[] = [];
const oursCpu: number[] = [];
const ss: number[] = [];
const ssUdp: number[] = [];
let rows = 0;
let ssLines = 0;
try {
  // One warm-up of each side.
  listeningPorts(await snapshots.read(), me);
  execFileSync('ss', ['-ltnp'], { maxBuffer: 64 * 1024 * 1024 });
  for (let round = 0; round < ROUNDS; round++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const ports = listeningPorts(await snapshots.read(), me);
    ours.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    oursCpu.push((c.user + c.system) / 1000);
    rows = ports.length;

    const t1 = performance.now();
    const out = execFileSync('ss', ['-ltnp'], { maxBuffer: 64 * 1024 * 1024 }).toString();
    ss.push(performance.now() - t1);
    ssLines = out.split('\n').filter((l) => l.startsWith('LISTEN')).length;

    const t2 = performance.now();
    execFileSync('ss', ['-ltunp'], { maxBuffer: 64 * 1024 * 1024 });
    ssUdp.push(performance.now() - t2);
  }
} finally {
  for (const s of servers) s.close();
}
const [o, oc, s, su] = [median(ours), median(oursCpu), median(ss), median(ssUdp)];
console.log(`rounds: ${ROUNDS}; listening sockets: ${rows} (TCP and UDP, ours), ${ssLines} TCP (ss -ltnp)`);
console.log(`listening ports with owners: ${o.toFixed(1)} ms, ${oc.toFixed(1)} ms CPU (ratio ${(o / s).toFixed(2)} vs ss -ltnp at ${s.toFixed(1)} ms)`);
console.log(`listening ports with owners: ratio ${(o / su).toFixed(2)} vs ss -ltunp (TCP and UDP, as ours) at ${su.toFixed(1)} ms`);
