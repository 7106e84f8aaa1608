// Benchmark: the API client's send (`POST /api/http`: placeholders filled, a fresh connection, the body read and
// pretty-printed, the send audited and put in the history) of a 10 KiB JSON answer from a loopback server, and the
// event loop's longest stall while an 8 MiB JSON answer is sent through it (parsed and pretty-printed in the worker).
//
// Baselines, same run, rounds alternated: a bare `node:http` GET of the same URL on a fresh connection from this
// process, the body read whole; and, for the stall, JSON.parse + JSON.stringify(…, 2) of the same 8 MiB on the event
// loop, which is what viewing it there would hold the loop for.
//
// Usage: node dist/bench/api-client.js [rounds, default 40]
import { createServer, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startTestRuntime } from '@vigil/plugin-sdk/testing';
import { median } from './support/median.js';

const ROUNDS = Number(process.argv[2] ?? 40);
const WARMUP = 5;
const small = JSON.stringify({ items: Array.from({ length: 120 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'] })) });
const big = JSON.stringify({ items: Array.from({ length: 130_000 }, (_, i) => ({ id: i, name: `item ${i}`, note: 'a note of some length' })) });

const upstream = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(req.url === '/big' ? big : small);
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-apiclient-'));
const rt = await startTestRuntime({ plugins: [], config: { data_dir: join(dir, 'data'), apiclient: { max_response_bytes: 16 * 1024 * 1024, display_bytes: 1024 * 1024 } } });

const timed = async (fn: () => Promise<unknown>): Promise<number> => { const t = performance.now(); await fn(); return performance.now() - t; };
const bare = (path: string) => new Promise<void>((resolve, reject) => {
  request(`${base}${path}`, { agent: false }, (res) => { res.resume(); res.on('end', resolve); }).on('error', reject).end();
});
const send = async (path: string) => {
  const res = await rt.fetch('/api/http', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ request: { id: 'b', name: 'b', folder: '', method: 'GET', url: `{{base}}${path}`, headers: [], body: '', auth: { type: 'none' } }, variables: { base } }),
  });
  const body = await res.json() as { status?: number; pretty?: string | null };
  if (res.status !== 200 || body.status !== 200) throw new Error(`send: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
};

try {
  const t = { bare: [] as number[], send: [] as number[] };
  for (let r = 0; r < ROUNDS + WARMUP; r++) {
    const m = { bare: await timed(() => bare('/small')), send: await timed(() => send('/small')) };
    if (r >= WARMUP) { t.bare.push(m.bare); t.send.push(m.send); }
  }
  const b = median(t.bare);
  console.log(`api-client send 10 KiB JSON: ${median(t.send).toFixed(2)} ms (ratio ${(median(t.send) / b).toFixed(2)} vs a bare GET at ${b.toFixed(2)} ms)`);

  const stalls = { inline: [] as number[], send: [] as number[] };
  for (let r = 0; r < 5; r++) {
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    await send('/big');
    h.disable();
    stalls.send.push(h.max / 1e6);
    const t0 = performance.now();
    JSON.stringify(JSON.parse(big), null, 2);
    stalls.inline.push(performance.now() - t0);
  }
  const inline = median(stalls.inline);
  console.log(`api-client 8 MiB JSON, longest event-loop stall: ${median(stalls.send).toFixed(1)} ms (ratio ${(median(stalls.send) / inline).toFixed(2)} vs viewing it on the loop at ${inline.toFixed(1)} ms)`);
} finally {
  await rt.stop();
  upstream.close();
  rmSync(dir, { recursive: true, force: true });
}
