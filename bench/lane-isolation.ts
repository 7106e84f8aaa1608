// Benchmark: what the worst items one tenant can send cost the rest of a `vigil run` that carries both the gateway
// and the LLM lane. Budget (bench/README.md): the event loop is held ≤ 50 ms at a time by any request or item.
//
// One process: a proxy in front of a real upstream, and the LLM lane with two projects. The probes (a proxied GET and
// /api/health every 20 ms, and the other project's one-item POST every 250 ms) run twice for the same time: once
// alone (the baseline), once while the attacker keeps four 4 MB items of 400,000 keys in flight. Printed: the event
// loop's largest delay in each window (nodejs_eventloop_lag_max_seconds, reset by each scrape), and the probes' p99
// and worst, as ratios to the baseline.
//
// Usage: node dist/bench/lane-isolation.js [seconds per window, default 10]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';

const SECONDS = Number(process.argv[2] ?? 10);
const root = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'bench-token';
const ATTACKER = 'attacker-key-0123456789';
const VICTIM = 'victim-key-0123456789ab';

const free = () => new Promise<number>((resolve) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
});

function worstBody(): Buffer {
  const metadata: Record<string, string> = {};
  for (let i = 0; i < 400_000; i++) metadata[i.toString(36)] = 'v';
  return Buffer.from(JSON.stringify({ traces: [{ model: 'gpt-4o-mini', metadata }] }));
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

const upstream = createServer((_q, r) => r.end('ok'));
await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
const [listen, cpPort] = [await free(), await free()];
const cp = `http://127.0.0.1:${cpPort}`;
const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-isolation-'));
let vigil: ChildProcess | undefined;
try {
  const file = join(dir, 'vigil.yaml');
  writeFileSync(file, `service:\n  upstream: http://127.0.0.1:${(upstream.address() as { port: number }).port}\n  listen: 127.0.0.1:${listen}\n`
    + `rules:\n  - name: all\n    match: { path: /** }\ncontrol_plane: { listen: 127.0.0.1:${cpPort}, token: ${TOKEN} }\ndata_dir: ${dir}/data\nlog: { level: warn }\n`
    + `llm:\n  projects:\n    - { name: attacker, key: ${ATTACKER} }\n    - { name: victim, key: ${VICTIM} }\n`);
  vigil = spawn(process.execPath, ['--max-semi-space-size=64', join(root, 'bin/vigil.js'), 'run', '-config', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 200 && !(await fetch(`${cp}/api/health`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 50));
  const agent = new Agent({ connections: 8 });
  const lagMax = async () => {
    const text = await (await fetch(`${cp}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    return Number(/^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text)?.[1] ?? NaN) * 1000;
  };
  const ingest = (key: string, body: Buffer | string) => request(`${cp}/v1/traces`, {
    method: 'POST', dispatcher: agent, body, headers: { 'content-type': 'application/json', 'x-service-project-key': key },
  }).then(async (r) => { await r.body.dump(); return r.statusCode; });
  const victimBody = JSON.stringify({ traces: [{ model: 'gpt-4o-mini', input: 'hello' }] });

  /** The probes for `SECONDS`, while `attack` runs (or not); the event loop's largest delay over the window. */
  const window = async (attack: boolean) => {
    const proxied: number[] = [];
    const health: number[] = [];
    const victim: number[] = [];
    const timed = async (into: number[], fn: () => Promise<unknown>) => { const t0 = performance.now(); await fn(); into.push(performance.now() - t0); };
    await lagMax();
    const deadline = performance.now() + SECONDS * 1000;
    const body = attack ? worstBody() : null;
    const loops = [
      (async () => {
        while (performance.now() < deadline) {
          await Promise.all([
            timed(proxied, async () => { const r = await request(`http://127.0.0.1:${listen}/probe`, { dispatcher: agent }); await r.body.dump(); }),
            timed(health, () => fetch(`${cp}/api/health`).then((r) => r.arrayBuffer())),
          ]);
          await new Promise((r) => setTimeout(r, 20));
        }
      })(),
      (async () => {
        while (performance.now() < deadline) {
          await timed(victim, () => ingest(VICTIM, victimBody));
          await new Promise((r) => setTimeout(r, 250));
        }
      })(),
      ...(body ? Array.from({ length: 4 }, async () => { while (performance.now() < deadline) await ingest(ATTACKER, body); }) : []),
    ];
    await Promise.all(loops);
    return { lag: await lagMax(), proxied, health, victim };
  };
  await window(false); // warm
  const base = await window(false);
  const hit = await window(true);
  const line = (name: string, a: number[], b: number[]) => console.log(
    `${name}: p50 ${quantile(b, 0.5).toFixed(1)} ms, p99 ${quantile(b, 0.99).toFixed(1)} ms, worst ${Math.max(...b).toFixed(1)} ms of ${b.length} under attack `
    + `(ratio ${(quantile(b, 0.99) / quantile(a, 0.99)).toFixed(2)} vs alone: p99 ${quantile(a, 0.99).toFixed(1)} ms, worst ${Math.max(...a).toFixed(1)} ms)`);
  console.log(`event loop held at most: ${hit.lag.toFixed(1)} ms under attack (budget 50 ms; alone: ${base.lag.toFixed(1)} ms)`);
  line('proxied request', base.proxied, hit.proxied);
  line('/api/health', base.health, hit.health);
  line('another project\'s one-item POST', base.victim, hit.victim);
  await agent.close();
} finally {
  vigil?.kill('SIGKILL');
  upstream.close();
  rmSync(dir, { recursive: true, force: true });
}
