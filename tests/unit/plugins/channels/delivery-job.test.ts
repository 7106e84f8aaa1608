// The delivery job's guarantees on a real store (SQLite) and a real receiver: a job run again after it delivered
// (a crash before the queue recorded it done) sends nothing; two runs at once send once; a run whose process died
// mid-send is taken over only after its lease, with the same idempotency key.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JobDeferral, type ChannelDelivery, type QueuedJob, type Store } from '@vigil/plugin-sdk';
import { Agent } from 'undici';
import { DeliveryRunner, idempotencyKey, type DeliveryJobPayload } from '../../../../plugins/channels/delivery-job.js';
import { DeliveryStore } from '../../../../plugins/channels/delivery-store.js';
import { channelsMigrations } from '../../../../plugins/channels/migrations.js';
import { sendWebhook } from '../../../../plugins/channels/senders/webhook.js';
import type { Channel } from '../../../../plugins/channels/types.js';
import { openStore, type StoreBackend } from '../../../../runtime/store/index.js';
import { startReceivers, type Receivers } from '../../../support/channel-receivers.js';
import { waitFor } from '../../../support/net.js';
import { tempDir } from '../../../support/tmp.js';

const dir = tempDir('vigil-channels-job-');
const dispatcher = new Agent();
let backend: StoreBackend;
let store: Store;
let deliveries: DeliveryStore;
let rx: Receivers;
const message = { title: 'Budget crossed', text: 'shop spent $101 of $100', severity: 'critical' as const };

test.before(async () => {
  rx = await startReceivers();
  backend = await openStore(`sqlite:${dir.path}/vigil.db`);
  store = backend.forPlugin('channels');
  await store.migrate(channelsMigrations);
  deliveries = new DeliveryStore(store);
});
test.after(async () => {
  await backend.close();
  await rx.close();
  await dispatcher.close();
  dir.cleanup();
});

const hook = (path: string): Channel => ({ id: 'hook', name: 'hook', type: 'webhook', enabled: true, source: 'config', url: rx.url(path) });

function runner(path: string, options: { leaseMs?: number; beforeAnswer?: () => Promise<void> } = {}): DeliveryRunner {
  const changes: ChannelDelivery[] = [];
  return new DeliveryRunner({
    deliveries,
    channel: async () => hook(path),
    send: async (channel, m, eventId, key) => {
      await sendWebhook(channel, m, { eventId, idempotencyKey: key, timeoutMs: 5000, dispatcher, test: false, env: {} });
      await options.beforeAnswer?.();
    },
    maxAttempts: 5, leaseMs: options.leaseMs ?? 30_000, changed: (d) => changes.push(d), counted: () => {},
  });
}

const job = (eventId: string, attempt = 1): QueuedJob<DeliveryJobPayload> => ({ id: 1, queue: 'channels.deliveries', attempt, payload: { event_id: eventId, channel_id: 'hook' } });

test('a job run again after it delivered sends nothing', async () => {
  rx.script('/a', [{ status: 200 }]);
  await deliveries.record('ev-a', message, ['hook'], new Map());
  await runner('/a').run(job('ev-a'));
  await runner('/a').run(job('ev-a', 2));
  assert.is(rx.received('/a').length, 1);
  const row = await deliveries.get('ev-a', 'hook');
  assert.is(row?.state, 'delivered');
  assert.is(row?.attempts, 1);
});

test('two runs of one job at once: one sends, the other is put back without an attempt spent', async () => {
  rx.script('/b', [{ status: 200 }]);
  await deliveries.record('ev-b', message, ['hook'], new Map());
  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  const first = runner('/b', { beforeAnswer: () => held }).run(job('ev-b'));
  // The first run claims the delivery and sends asynchronously: wait until its send reached the receiver (it then
  // holds the claim until released), not a fixed 100 ms, so the second run surely finds it held.
  await waitFor(() => rx.received('/b').length >= 1, { timeoutMs: 10_000, what: 'the first run\'s send' });
  try {
    await runner('/b').run(job('ev-b'));
    assert.unreachable('the second run should be deferred');
  } catch (err) {
    assert.instance(err, JobDeferral);
  }
  release();
  await first;
  await runner('/b').run(job('ev-b', 2));
  assert.is(rx.received('/b').length, 1);
});

test('a run that died mid-send is taken over after its lease, with the same idempotency key', async () => {
  rx.script('/c', [{ status: 200 }]);
  await deliveries.record('ev-c', message, ['hook'], new Map());
  // The first process claimed the delivery and sent, then died before recording the answer.
  const claim = await deliveries.claim('ev-c', 'hook', Date.now() + 300);
  assert.ok(claim.taken);
  try {
    await runner('/c').run(job('ev-c'));
    assert.unreachable('held by the dead run until its lease ends');
  } catch (err) {
    assert.instance(err, JobDeferral);
    assert.ok((err as JobDeferral).delayMs <= 500);
  }
  await new Promise((r) => setTimeout(r, 350));
  await runner('/c').run(job('ev-c', 2));
  const [sent] = rx.received('/c');
  assert.is(sent.headers['idempotency-key'], idempotencyKey('ev-c', 'hook'));
  const row = await deliveries.get('ev-c', 'hook');
  assert.is(row?.state, 'delivered');
  assert.is(row?.attempts, 2, 'both sends are counted');
});

test('recording a delivery twice keeps the first; idempotency keys differ per event and per channel', async () => {
  const first = await deliveries.record('ev-d', message, ['hook'], new Map());
  const second = await deliveries.record('ev-d', { ...message, title: 'other' }, ['hook'], new Map());
  assert.equal([...first.created], ['hook']);
  assert.equal([...second.created], []);
  assert.is((await deliveries.message('ev-d'))?.title, 'Budget crossed');
  assert.is.not(idempotencyKey('ev-d', 'hook'), idempotencyKey('ev-e', 'hook'));
  assert.is.not(idempotencyKey('ev-d', 'hook'), idempotencyKey('ev-d', 'hook2'));
  assert.is.not(idempotencyKey('a', 'b\u0000c'), idempotencyKey('a\u0000b', 'c'));
});

test.run();
