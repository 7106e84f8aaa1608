// Benchmark: the resident memory the ui plugin adds to a running Vigil, against the budget of 10 MB (bench/README.md).
// Two `vigil run` processes in the same run, the gateway's policy and capture in both, the dashboard in one; each
// serves a dashboard visit (index, every asset, the shell's and About's APIs, a live stream opened and closed), the
// same requests for both, then settles. Rounds alternate, fresh processes each; the median difference is reported.
// Prints `ui plugin added rss: X MB (ratio X.XX vs budget 10 MB)`.
//
// Usage: node dist/bench/ui-rss.js [rounds, default 3]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../tests/support/net.js';
import { tempDir } from '../tests/support/tmp.js';
import { startVigil, writeConfig } from '../tests/support/vigil-process.js';
import { median } from './support/median.js';

const ROUNDS = Number(process.argv[2] ?? 3);
const BUDGET_MB = 10;
const TOKEN = 'bench-ui-rss-token-0123456789';
const SETTLE_MS = 2000;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

/** What a browser asks for when it opens the dashboard (404s where the runtime has no dashboard). */
async function visit(url: string): Promise<void> {
  const auth = { authorization: `Bearer ${TOKEN}` };
  const index = await fetch(`${url}/gateway`, { headers: { ...auth, 'accept-encoding': 'gzip, br' } });
  const html = await index.text();
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  for (const path of [...assets, '/api/ui/shell', '/api/ui/about', '/api/ui/settings', '/api/gateway/overview?range=24h']) {
    await (await fetch(`${url}${path}`, { headers: { ...auth, 'accept-encoding': 'gzip, br' } })).arrayBuffer();
  }
  const controller = new AbortController();
  const stream = await fetch(`${url}/api/ui/stream?topics=gateway.record`, { headers: auth, signal: controller.signal });
  if (stream.ok) {
    const reader = stream.body!.getReader();
    await reader.read();
    controller.abort();
  }
}

async function measure(withUi: boolean): Promise<number> {
  const dir = tempDir('vigil-bench-rss-');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const file = writeConfig(dir.path, `data_dir: ${join(dir.path, 'data')}
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
rules: [{ name: all, match: { path: /** } }]
capture: {}
${withUi ? 'ui: {}\n' : ''}`);
  const vigil = await startVigil(file, url);
  try {
    await visit(url);
    await visit(url);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return rssMb(vigil.proc.pid!);
  } finally {
    await vigil.stop();
    dir.cleanup();
  }
}

const added: number[] = [];
const bases: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const base = await measure(false);
  const withUi = await measure(true);
  bases.push(base);
  added.push(withUi - base);
}
const mb = median(added);
console.log(`ui plugin added rss: ${mb.toFixed(1)} MB (ratio ${(mb / BUDGET_MB).toFixed(2)} vs budget ${BUDGET_MB} MB; ` +
  `runtime without ui ${median(bases).toFixed(0)} MB; median of ${ROUNDS} rounds, each a fresh process pair after the same dashboard visit)`);
