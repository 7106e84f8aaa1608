import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PermanentError } from '@vigil/plugin-sdk';
import type { DeliveryQueueOptions } from '@vigil/plugin-sdk';
import { createDeliveryQueue } from '../../../../runtime/delivery/delivery-queue.js';
import { DeliveryErrors } from '../../../../runtime/delivery/errors.js';
import { waitFor } from '../../../support/net.js';
import { RecordingMetrics } from './support/recording-metrics.js';
import { recordingLogger } from './support/recording-logger.js';

// The queue's timers are unref'd by design; this keeps the test process alive while a test awaits them.
let keepAlive: NodeJS.Timeout;
test.before(() => { keepAlive = setInterval(() => {}, 1_000); });
test.after(() => clearInterval(keepAlive));

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

function deferred() {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

/** The queue under test, with a receiver whose behaviour each test scripts per call. */
function setup(options: Partial<DeliveryQueueOptions<number>>, receive: (batch: number[], signal: AbortSignal, call: number) => Promise<void> | void = () => {}) {
  const metrics = new RecordingMetrics();
  const log = recordingLogger();
  const calls: number[][] = [];
  const delivered: number[][] = [];
  const queue = createDeliveryQueue<number>({
    name: 'q',
    maxDelayMs: 60_000,
    backoffMs: 1,
    maxBackoffMs: 5,
    ...options,
    async send(batch, signal) {
      calls.push([...batch]);
      await receive(batch, signal, calls.length);
      delivered.push([...batch]);
    },
  }, { metrics, log });
  const metric = (what: string) => metrics.value(`vigil_export_${what}`, 'q');
  return { queue, metrics, log, calls, delivered, metric };
}

test('a full batch is sent at once and a partial one waits for its time or a flush', async () => {
  const { queue, calls, delivered } = setup({ maxBatch: 3 });
  for (let i = 1; i <= 7; i++) queue.push(i);
  await waitFor(() => delivered.length === 2, { what: 'two full batches' });
  assert.equal(delivered, [[1, 2, 3], [4, 5, 6]]);
  await tick(20);
  assert.is(calls.length, 2, 'the seventh item waits for its batch to fill (maxDelayMs is a minute)');
  assert.is(queue.depth, 1);
  await queue.flush(2_000);
  assert.equal(delivered, [[1, 2, 3], [4, 5, 6], [7]]);
  assert.is(queue.depth, 0);
  await queue.shutdown();
});

test('a partial batch is sent once its oldest item has waited maxDelayMs', async () => {
  const { queue, delivered } = setup({ maxBatch: 100, maxDelayMs: 20 });
  queue.push(1);
  queue.push(2);
  await waitFor(() => delivered.length === 1, { what: 'the timed batch' });
  assert.equal(delivered, [[1, 2]]);
  await queue.shutdown();
});

test('when full, the queue drops and counts instead of blocking, and keeps what it accepted', async () => {
  const gate = deferred();
  const { queue, delivered, metric } = setup({ maxBatch: 2, maxQueue: 5 }, () => gate.promise);
  const results = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => queue.push(i));
  assert.equal(results, [true, true, true, true, true, false, false, false]);
  assert.is(queue.pushMany([9, 10]), 0);
  assert.is(metric('dropped_total'), 5);
  assert.is(queue.depth, 5);
  assert.is(metric('queue_depth'), 5);
  gate.resolve();
  await queue.flush(2_000);
  assert.equal(delivered.flat(), [1, 2, 3, 4, 5]);
  assert.is(metric('sent_total'), 5);
  assert.is(metric('queue_depth'), 0);
  await queue.shutdown();
});

test('pushMany accepts up to the free room and counts the rest as dropped', async () => {
  const gate = deferred();
  const { queue, delivered, metric } = setup({ maxBatch: 10, maxQueue: 4 }, () => gate.promise);
  assert.is(queue.pushMany([1, 2, 3]), 3);
  assert.is(queue.pushMany([4, 5, 6]), 1);
  assert.is(metric('dropped_total'), 2);
  gate.resolve();
  await queue.flush(2_000);
  assert.equal(delivered.flat(), [1, 2, 3, 4]);
  await queue.shutdown();
});

test('a permanent error is never retried: the batch is counted as failed and the next one goes on', async () => {
  const { queue, calls, delivered, metric, log } = setup({ maxBatch: 2 }, (batch) => {
    if (batch[0] === 1) throw new PermanentError('receiver says 400');
    if (batch[0] === 3) throw Object.assign(new Error('marked permanent'), { permanent: true });
  });
  queue.pushMany([1, 2, 3, 4, 5, 6]);
  await queue.flush(2_000);
  assert.equal(calls, [[1, 2], [3, 4], [5, 6]]);
  assert.equal(delivered, [[5, 6]]);
  assert.is(metric('failed_total'), 4);
  assert.is(metric('sent_total'), 2);
  assert.ok(log.entries.some((e) => e.level === 'warn' && e.fields.queue === 'q' && /permanent/.test(e.msg)));
  await queue.shutdown();
});

test('a transient failure is retried with the same batch until it is delivered once, in order', async () => {
  const { queue, calls, delivered, metric } = setup({ maxBatch: 2 }, (_batch, _signal, call) => {
    if (call <= 2) throw new Error('503');
  });
  queue.pushMany([1, 2, 3, 4]);
  await queue.flush(2_000);
  assert.equal(calls, [[1, 2], [1, 2], [1, 2], [3, 4]]);
  assert.equal(delivered, [[1, 2], [3, 4]]);
  assert.is(metric('sent_total'), 4);
  assert.is(metric('failed_total'), 0);
  await queue.shutdown();
});

test('a send that throws synchronously is retried like any transient failure', async () => {
  let calls = 0;
  const metrics = new RecordingMetrics();
  const queue = createDeliveryQueue<number>({
    name: 'sync', backoffMs: 1,
    send: (() => { calls++; if (calls === 1) throw new Error('sync throw'); return Promise.resolve(); }) as DeliveryQueueOptions<number>['send'],
  }, { metrics, log: recordingLogger() });
  queue.push(1);
  await queue.flush(2_000);
  assert.is(calls, 2);
  assert.is(metrics.value('vigil_export_sent_total', 'sync'), 1);
  await queue.shutdown();
});

test('maxAttempts bounds the retries; then the batch is counted as failed', async () => {
  const { queue, calls, metric } = setup({ maxBatch: 5, maxAttempts: 3 }, () => { throw new Error('down'); });
  queue.pushMany([1, 2]);
  await queue.flush(2_000);
  assert.is(calls.length, 3);
  assert.is(metric('failed_total'), 2);
  assert.is(metric('sent_total'), 0);
  assert.is(queue.depth, 0);
  await queue.shutdown();
});

test('each attempt has a timeout: its signal aborts with a timeout error and the batch is retried', async () => {
  const reasons: unknown[] = [];
  const { queue, calls, delivered } = setup({ attemptTimeoutMs: 20 }, (_batch, signal, call) => {
    if (call > 1) return;
    return new Promise<void>((_resolve, reject) => {
      signal.addEventListener('abort', () => { reasons.push(signal.reason); reject(signal.reason); });
    });
  });
  queue.push(1);
  await queue.flush(2_000);
  assert.is(calls.length, 2);
  assert.equal(delivered, [[1]]);
  assert.is((reasons[0] as { code?: string }).code, DeliveryErrors.TIMEOUT);
  await queue.shutdown();
});

test('a send that ignores its signal cannot hold the queue past the attempt timeout', async () => {
  const { queue, calls, delivered } = setup({ attemptTimeoutMs: 20 }, (_batch, _signal, call) => {
    if (call === 1) return new Promise<void>(() => {});
  });
  queue.push(1);
  await queue.flush(2_000);
  assert.is(calls.length, 2);
  assert.equal(delivered, [[1]]);
  await queue.shutdown();
});

test('one batch is in flight at a time and batches arrive in push order', async () => {
  let inFlight = 0;
  let maxInFlight = 0;
  const { queue, delivered } = setup({ maxBatch: 7, maxDelayMs: 1 }, async (_batch, _signal, call) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await tick(call % 3);
    inFlight--;
    if (call % 4 === 0) throw new Error('flaky');
  });
  const all = Array.from({ length: 200 }, (_, i) => i);
  for (let i = 0; i < all.length; i += 13) queue.pushMany(all.slice(i, i + 13));
  await queue.flush(5_000);
  assert.is(maxInFlight, 1);
  assert.equal(delivered.flat(), all);
  assert.ok(delivered.every((b) => b.length <= 7));
  await queue.shutdown();
});

test('flush waits for retries, and gives up after its timeout without losing the items', async () => {
  let up = false;
  const { queue, delivered, metric } = setup({}, () => { if (!up) throw new Error('receiver down'); });
  queue.pushMany([1, 2, 3]);
  await queue.flush(30);
  assert.is(delivered.length, 0);
  assert.is(queue.depth, 3);
  up = true;
  await queue.flush(2_000);
  assert.equal(delivered, [[1, 2, 3]]);
  assert.is(metric('dropped_total'), 0);
  await queue.shutdown();
});

test('an error carrying retryAfterMs delays the next attempt at least that long', async () => {
  const times: number[] = [];
  const { queue } = setup({ maxBackoffMs: 1_000 }, (_batch, _signal, call) => {
    times.push(performance.now());
    if (call === 1) throw Object.assign(new Error('429'), { retryAfterMs: 60 });
  });
  queue.push(1);
  await queue.flush(2_000);
  assert.is(times.length, 2);
  assert.ok(times[1] - times[0] >= 58, `waited ${times[1] - times[0]} ms`);
  await queue.shutdown();
});

test('shutdown flushes a waiting partial batch, then refuses and counts new items', async () => {
  const { queue, delivered, metric } = setup({ maxBatch: 100 });
  queue.pushMany([1, 2]);
  await queue.shutdown(2_000);
  assert.equal(delivered, [[1, 2]]);
  assert.is(queue.push(3), false);
  assert.is(queue.pushMany([4, 5]), 0);
  assert.is(metric('dropped_total'), 3);
  assert.is(metric('sent_total'), 2);
});

test('shutdown is bounded: it aborts the attempt in flight and counts what it could not deliver as dropped', async () => {
  const aborted: unknown[] = [];
  const { queue, metric } = setup({ maxBatch: 2 }, (_batch, signal) => new Promise<void>((_resolve, reject) => {
    signal.addEventListener('abort', () => { aborted.push(signal.reason); reject(signal.reason); });
  }));
  queue.pushMany([1, 2, 3, 4, 5]);
  await queue.shutdown(30);
  assert.is((aborted[0] as { code?: string }).code, DeliveryErrors.STOPPED);
  assert.is(metric('dropped_total'), 5);
  assert.is(metric('sent_total'), 0);
  assert.is(queue.depth, 0);
  assert.is(metric('queue_depth'), 0);
});

test('shutdown during a backoff wait ends the wait and counts the batch as dropped', async () => {
  const { queue, calls, metric } = setup({ maxDelayMs: 0, backoffMs: 60_000, maxBackoffMs: 60_000 }, () => { throw new Error('down'); });
  queue.pushMany([1, 2]);
  await waitFor(() => calls.length === 1, { what: 'first attempt' });
  await queue.shutdown(20);
  assert.is(calls.length, 1);
  assert.is(metric('dropped_total'), 2);
  assert.is(metric('failed_total'), 0);
});

test('shutdown is idempotent and a flush after it returns at once', async () => {
  const { queue, delivered, metric } = setup({});
  queue.push(1);
  const first = queue.shutdown();
  const second = queue.shutdown();
  await Promise.all([first, second]);
  await queue.shutdown();
  await queue.flush();
  assert.equal(delivered, [[1]]);
  assert.is(metric('sent_total'), 1);
});

test('metric prefix and label name are configurable for channels and other users of the queue', async () => {
  const metrics = new RecordingMetrics();
  const queue = createDeliveryQueue<string>({
    name: 'ops-slack', metricPrefix: 'vigil_channel', labelName: 'channel', send: async () => {},
  }, { metrics, log: recordingLogger() });
  queue.push('a');
  await queue.flush(2_000);
  assert.is(metrics.value('vigil_channel_sent_total', 'ops-slack'), 1);
  assert.equal(metrics.labelNamesOf('vigil_channel_dropped_total'), ['channel']);
  assert.equal(metrics.names().sort(), [
    'vigil_channel_dropped_total', 'vigil_channel_failed_total', 'vigil_channel_queue_depth', 'vigil_channel_sent_total',
  ]);
  await queue.shutdown();
});

test('two queues share the metric names and are told apart by their label', async () => {
  const metrics = new RecordingMetrics();
  const deps = { metrics, log: recordingLogger() };
  const a = createDeliveryQueue<number>({ name: 'a', send: async () => {} }, deps);
  const b = createDeliveryQueue<number>({ name: 'b', send: async () => {} }, deps);
  a.pushMany([1, 2]);
  b.push(3);
  await Promise.all([a.shutdown(), b.shutdown()]);
  assert.is(metrics.value('vigil_export_sent_total', 'a'), 2);
  assert.is(metrics.value('vigil_export_sent_total', 'b'), 1);
});

test('invalid options are refused with a code that names the queue and the option', () => {
  const deps = { metrics: new RecordingMetrics(), log: recordingLogger() };
  const send = async () => {};
  for (const [key, value] of [['maxBatch', 0], ['maxQueue', 1.5], ['attemptTimeoutMs', -1], ['maxAttempts', 0], ['backoffMs', Number.NaN]] as const) {
    try {
      createDeliveryQueue({ name: 'bad', send, [key]: value }, deps);
      assert.unreachable(`${key}=${value} accepted`);
    } catch (err) {
      assert.is((err as { code?: string }).code, DeliveryErrors.OPTIONS);
      assert.match((err as Error).message, key);
      assert.match((err as Error).message, '"bad"');
    }
  }
  assert.throws(() => createDeliveryQueue({ name: '', send }, deps), (err: { code?: string }) => err.code === DeliveryErrors.OPTIONS);
  assert.throws(() => createDeliveryQueue({ name: 'x' } as DeliveryQueueOptions<number>, deps), /send must be a function/);
});

test('queue timers never keep the process alive: a process with a waiting batch and a retrying batch exits by itself', async () => {
  const moduleUrl = new URL('../../../../runtime/delivery/delivery-queue.js', import.meta.url).href;
  const script = `
    const { createDeliveryQueue } = await import(${JSON.stringify(moduleUrl)});
    const child = { inc() {}, set() {} };
    const metrics = { counter: () => ({ labels: () => child }), gauge: () => ({ labels: () => child }) };
    const log = { debug() {}, info() {}, warn() {}, error() {}, child() { return log; } };
    const waiting = createDeliveryQueue({ name: 'waiting', maxDelayMs: 600000, send: async () => {} }, { metrics, log });
    waiting.push(1);
    const retrying = createDeliveryQueue({ name: 'retrying', backoffMs: 600000, maxBackoffMs: 600000, maxDelayMs: 0,
      send: async () => { throw new Error('down'); } }, { metrics, log });
    retrying.push(1);
    void retrying.flush(600000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  // Only a guard against a hung test: a process that is still alive after this long was kept alive by the queue.
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  clearTimeout(guard);
  assert.is(signal, null, 'the process had to be killed: a queue timer kept it alive');
  assert.is(code, 0, stderr);
});

test.run();
