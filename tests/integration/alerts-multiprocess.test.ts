// Two `vigil run` processes on one PostgreSQL schema: together they evaluate each rule once per tick, and deliver each
// notification once to a local webhook receiver, even when the process sending one is killed (SIGKILL) in the middle
// of the send: the survivor takes the delivery over when its lease ends and sends it with the same idempotency key.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { llmClient, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { parseExposition, samplesOf } from '../support/prometheus-text.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'alerts-multi-dashboard-token';
const KEY = 'alerts-multi-shop-key-0123456789';
const INTERVAL_MS = 2000;
const RULES = ['busy-a', 'busy-b', 'busy-c'];
/** The receiver takes this long to answer: long enough for the kill to land mid-send, shorter than the send timeout. */
const ANSWER_AFTER_MS = 1500;

interface Received { key: string; eventId: string; answered: boolean }

/** The pid of the local process whose TCP socket has `port` as its local port (the sender of a request we hold). */
function pidOfClientPort(port: number): number | undefined {
  const out = execFileSync('ss', ['-tnpH', `sport = :${port}`], { encoding: 'utf8' });
  const m = /pid=(\d+)/.exec(out);
  return m ? Number(m[1]) : undefined;
}

if (await postgresAvailable('alerts-multiprocess')) {
  const work = tempDir('vigil-alerts-multi-');
  const schema = await freshPostgresSchema('alerts_multi');
  const received: Received[] = [];
  const procs: VigilProcess[] = [];
  const bases: string[] = [];
  let killed: VigilProcess | undefined;
  let receiver: Server;

  test.before(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event_id: string };
        const entry: Received = { key: String(req.headers['idempotency-key']), eventId: body.event_id, answered: false };
        received.push(entry);
        if (!killed) {
          // The first request: kill its sender now, while it waits for our answer.
          const pid = pidOfClientPort(req.socket.remotePort!);
          killed = procs.find((p) => p.proc.pid === pid);
          if (!killed) throw new Error(`the sender of the first notification (port ${req.socket.remotePort}, pid ${pid}) is neither vigil process`);
          killed.proc.kill('SIGKILL');
        }
        setTimeout(() => {
          if (req.socket.destroyed) return;
          entry.answered = true;
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        }, ANSWER_AFTER_MS);
      });
    });
    const hookPort = await freePort();
    await new Promise<void>((r) => receiver.listen(hookPort, '127.0.0.1', () => r()));
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      bases.push(`http://127.0.0.1:${port}`);
      const file = writeConfig(work.path, `data_dir: ${work.path}/data
storage: { url: "${schema.url}" }
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  persist: { backoff: 100ms }
  projects:
    - { name: shop, key: ${KEY} }
channels:
  timeout: 3s
  backoff: 200ms
  targets:
    - { id: hook, type: webhook, url: "http://127.0.0.1:${hookPort}/hook" }
alerts:
  interval: ${INTERVAL_MS}ms
  rules:
${RULES.map((id) => `    - { id: ${id}, name: Shop is busy (${id}), source: llm.requests, scope: { project: shop }, condition: { type: gt, threshold: 0 }, window: 10m, cooldown: 1h, channels: [hook] }`).join('\n')}
`, `vigil-${i}.yaml`);
      procs.push(await startVigil(file, bases[i], { cwd: work.path }));
    }
  });

  test.after(async () => {
    await Promise.all(procs.map((p) => p.stop('SIGKILL')));
    await new Promise<void>((r) => receiver.close(() => r()));
    await schema.drop();
    work.cleanup();
  });

  const evaluations = async (): Promise<number> => {
    let total = 0;
    for (const [i, base] of bases.entries()) {
      if (procs[i] === killed) continue;
      const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      total += samplesOf(parseExposition(text), 'vigil_alerts_evaluations_total').reduce((sum, s) => sum + s.value, 0);
    }
    return total;
  };

  test('each rule is evaluated once per tick by the two processes together', async () => {
    await new Promise((r) => setTimeout(r, INTERVAL_MS));
    const before = await evaluations();
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 5 * INTERVAL_MS));
    const ticks = (Date.now() - started) / INTERVAL_MS;
    const delta = await evaluations() - before;
    // One process alone would count ticks × rules; both evaluating every rule would count twice that.
    assert.ok(delta >= (ticks - 1.5) * RULES.length && delta <= (ticks + 1.5) * RULES.length,
      `${delta} evaluations over ${ticks.toFixed(1)} ticks of ${RULES.length} rules`);
  });

  test('each notification is delivered once, though the process sending one was killed mid-send', async () => {
    const sent = await llmClient(bases[0]).ingest(KEY, { traces: [{ id: randomUUID(), name: 'reply', model: 'gpt-4o-mini', latency_ms: 300, input: 'hi', output: 'hello' }] });
    assert.is(sent.status, 202);
    await waitFor(() => killed !== undefined || null, { what: 'the first send held and its sender killed', timeoutMs: 20_000 });
    const survivor = bases[procs.findIndex((p) => p !== killed)];
    // The survivor takes the killed send over once its lease ends (3 × the 3 s timeout + 15 s) and the job's (+ 5 s).
    const events = (await waitFor(async () => {
      const r = await llmClient(survivor).dashboard(TOKEN, '/api/alerts/events');
      const list = r.body.data as Json[];
      return list.length === RULES.length && list.every((e) => e.delivery[0]?.state === 'delivered') ? list : null;
    }, { what: 'every event delivered', timeoutMs: 90_000, intervalMs: 250 }))!;

    assert.equal(events.map((e) => e.rule_id).sort(), RULES, 'one event per rule: no rule fired twice');
    const answered = received.filter((r) => r.answered);
    assert.equal(answered.map((r) => r.eventId).sort(), events.map((e) => e.id).sort(), 'each notification answered once');
    const keys = new Map<string, Set<string>>();
    for (const r of received) keys.set(r.eventId, (keys.get(r.eventId) ?? new Set()).add(r.key));
    for (const [eventId, set] of keys) assert.is(set.size, 1, `every send of ${eventId} carries one idempotency key`);
    const resent = received.filter((r) => !r.answered);
    assert.ok(resent.length >= 1, 'the killed send was cut off before its answer');
    const takenOver = events.find((e) => e.id === resent[0].eventId)!;
    assert.is(takenOver.delivery[0].attempts, 2, 'the survivor sent the cut-off notification again, once');
  });

  test.run();
}
