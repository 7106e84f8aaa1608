// What the three middleware benches (Express, FastAPI, Go) share, so their figures compare: the rules, the 1 KB order,
// the agent's stand-in, the paced load and the paired rounds.
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';

/** A config whose rules every middleware bench governs with: a label, header and query redaction, two JSON paths, a restricted route. */
export function writeBenchConfig(prefix: string): { dir: string; configPath: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const configPath = join(dir, 'vigil.yaml');
  writeFileSync(configPath, `rules:
  - name: all
    match: { path: /** }
    labels: { tenant: header:X-Tenant }
    redact: { headers: [Authorization], query_params: [token] }
  - name: orders
    match: { path: /api/orders/** }
    redact: { json_fields: [$.card.number, $.customer.email] }
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body, response_body, headers]
`);
  return { dir, configPath };
}

/** The captured request's body: about 1 KB of JSON with a card number and an email to redact. */
export const ORDER = JSON.stringify({ customer: { email: 'a@example.com', name: 'Ada' }, card: { number: '4111111111111111' }, items: Array.from({ length: 12 }, (_, i) => ({ sku: `SKU-${i}`, qty: i, note: 'x'.repeat(40) })) });

/** The two scenarios: a captured route (the order, three redactions, a label) and a restricted route (decision only). */
export const SCENARIOS = [
  { name: 'captured request (1 KB JSON, 3 redactions, a label)', path: '/api/orders/17?token=t', body: ORDER as string | undefined },
  { name: 'restricted request', path: '/admin/users/17', body: undefined as string | undefined },
] as const;

/** The agent's stand-in: reads each POST of records and answers as the ingest route does; counts the batches. */
export async function startRecordSink(): Promise<{ url: string; batches(): number; close(): void }> {
  let shipped = 0;
  const sink = createServer((req, res) => {
    let n = 0;
    req.on('data', (c: Buffer) => { n += c.length; });
    req.on('end', () => { shipped++; res.writeHead(200, { 'content-type': 'application/json' }).end(`{"stored":${n > 0 ? 1 : 0}}`); });
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(sink.address() as { port: number }).port}`, batches: () => shipped, close: () => sink.close() };
}

/** Paced load: `rate` requests per second for `seconds`, over `connections` connections. Returns the count answered. */
export async function pacedLoad(o: { port: number; path: string; body: string | undefined; rate: number; seconds: number; connections: number }): Promise<number> {
  const pool = new Pool(`http://127.0.0.1:${o.port}`, { connections: o.connections });
  const total = Math.round(o.rate * o.seconds);
  const start = performance.now();
  let done = 0;
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const wait = start + (i * 1000) / o.rate - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const res = await pool.request({ path: o.path, method: o.body ? 'POST' : 'GET', body: o.body, headers: { 'content-type': 'application/json', 'x-tenant': 'acme', authorization: 'Bearer x' } });
      await res.body.dump();
      done++;
    }
  };
  await Promise.all(Array.from({ length: o.connections }, worker));
  await pool.close();
  return done;
}

export interface RoundCpu { perRequest: number; governPerRequest: number }

/**
 * One warm-up pair, then `rounds` rounds alternating the app without the middleware and with it, so the machine's
 * drift touches both alike; the ratio of each pair is on / off.
 */
export async function pairedRounds(rounds: number, round: (on: boolean) => Promise<RoundCpu>): Promise<{ offCpu: number[]; onCpu: number[]; govern: number[]; ratios: number[] }> {
  await round(false);
  await round(true);
  const offCpu: number[] = [];
  const onCpu: number[] = [];
  const govern: number[] = [];
  for (let r = 0; r < rounds; r++) {
    offCpu.push((await round(false)).perRequest);
    const o = await round(true);
    onCpu.push(o.perRequest);
    govern.push(o.governPerRequest);
  }
  return { offCpu, onCpu, govern, ratios: onCpu.map((v, i) => v / offCpu[i]) };
}
