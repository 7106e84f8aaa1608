// Benchmark: notifications per second through the channels' durable delivery to a local webhook receiver: the
// service's `deliver` (message and delivery rows in one transaction, the job enqueued), the queue on SQLite, the
// delivery's claim and settle, and the signed POST. The receiver runs in a child process answering 200 at once,
// so its CPU is not counted.
//
// Baseline, in the same process against the same receiver: a bare `fetch` loop POSTing the same JSON body, at the same
// concurrency, without queue, store or signature.
//
// Usage: node dist/bench/channel-delivery.js [notifications per round, default 2000]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChannelMessage } from '@vigil/plugin-sdk';
import { Agent } from 'undici';
import { ChannelRegistry } from '../plugins/channels/channel-registry.js';
import { createChannelsService } from '../plugins/channels/channels-service.js';
import { DeliveryRunner, type DeliveryJobPayload } from '../plugins/channels/delivery-job.js';
import { DeliveryStore } from '../plugins/channels/delivery-store.js';
import { channelsMigrations } from '../plugins/channels/migrations.js';
import { sendWebhook } from '../plugins/channels/senders/webhook.js';
import { createJobQueues } from '../runtime/jobs/index.js';
import { openStore } from '../runtime/store/index.js';
import { median } from './support/median.js';

const N = Number(process.argv[2] ?? 2000);
const CONCURRENCY = 8;
const ROUNDS = 3;
const quiet = { debug() {}, info() {}, warn() {}, error() {}, child() { return quiet; } };
const message: ChannelMessage = {
  title: 'Eval score below 0.7', text: 'helpfulness averaged 0.61 over the last hour (48 samples)', severity: 'warning',
  url: 'http://127.0.0.1:9095/alerts', fields: { rule: 'helpfulness < 0.7', value: 0.61, samples: 48 },
};

async function startReceiver(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e',
    `import { createServer } from 'node:http';
     const s = createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200); res.end(); }); });
     s.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + s.address().port + '/hook'));`],
  { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
  return { url, stop: () => child.kill() };
}

const cpuMs = (start: NodeJS.CpuUsage) => { const u = process.cpuUsage(start); return (u.user + u.system) / 1000; };

async function deliveryRound(url: string): Promise<{ wallMs: number; cpuMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-channels-'));
  const backend = await openStore(`sqlite:${join(dir, 'vigil.db')}`);
  const dispatcher = new Agent({ connections: CONCURRENCY });
  try {
    const store = backend.forPlugin('channels');
    await store.migrate(channelsMigrations);
    const registry = new ChannelRegistry(store, () => Promise.reject(new Error('no stored secrets here')), [
      { id: 'hook', type: 'webhook', url, secret: 'whsec-0123456789abcdef' },
    ]);
    const deliveries = new DeliveryStore(store);
    const queues = createJobQueues(backend, { owner: 'bench', log: quiet });
    let delivered = 0;
    let finished!: () => void;
    const all = new Promise<void>((r) => { finished = r; });
    const send = (channel: Parameters<typeof sendWebhook>[0], m: ChannelMessage, eventId: string, idempotencyKey: string) =>
      sendWebhook(channel, m, { eventId, idempotencyKey, timeoutMs: 10_000, dispatcher, test: false, env: {} });
    const runner = new DeliveryRunner({
      deliveries, channel: (id) => registry.get(id), send, maxAttempts: 3, leaseMs: 30_000,
      changed: (d) => { if (d.state === 'delivered' && ++delivered === N) finished(); }, counted() {},
    });
    const queue = queues.queue<DeliveryJobPayload>('channels.deliveries', (job) => runner.run(job), { concurrency: CONCURRENCY, pollMs: 50 });
    const service = createChannelsService({ registry, deliveries, queue, send, changed() {}, counted() {} }, () => undefined);
    const cpu = process.cpuUsage();
    const t = performance.now();
    await queues.start();
    for (let i = 0; i < N; i++) await service.deliver({ eventId: `ev-${i}`, channels: ["hook"], message });
    await all;
    const out = { wallMs: performance.now() - t, cpuMs: cpuMs(cpu) };
    await queues.stop();
    return out;
  } finally {
    await dispatcher.close();
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function baselineRound(url: string): Promise<{ wallMs: number; cpuMs: number }> {
  const body = JSON.stringify({ type: 'vigil.notification', version: 1, event_id: 'ev', channel_id: 'hook', ...message });
  const cpu = process.cpuUsage();
  const t = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < N) {
      const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`receiver answered ${res.status}`);
    }
  }));
  return { wallMs: performance.now() - t, cpuMs: cpuMs(cpu) };
}

async function main(): Promise<void> {
  const receiver = await startReceiver();
  try {
    await baselineRound(receiver.url);
    const ours: { wallMs: number; cpuMs: number }[] = [];
    const bare: { wallMs: number; cpuMs: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      ours.push(await deliveryRound(receiver.url));
      bare.push(await baselineRound(receiver.url));
    }
    const perSec = (x: { wallMs: number }) => N / (x.wallMs / 1000);
    const o = median(ours.map(perSec));
    const b = median(bare.map(perSec));
    console.log(`channel delivery (signed webhook, durable queue on SQLite): ${Math.round(o)} notifications/s (ratio ${(o / b).toFixed(2)} vs a bare fetch loop at ${Math.round(b)}/s; concurrency ${CONCURRENCY}, median of ${ROUNDS} rounds of ${N})`);
    console.log(`  CPU per notification ${(median(ours.map((x) => x.cpuMs / N)) * 1000).toFixed(0)} µs against ${(median(bare.map((x) => x.cpuMs / N)) * 1000).toFixed(0)} µs`);
  } finally {
    receiver.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
