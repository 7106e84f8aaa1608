import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pathToFileURL } from 'node:url';
import { WorkerPoolRegistry } from '../../../../runtime/workers/pools.js';
import { MetricsRegistry } from '../../../../runtime/metrics/index.js';
import { createLogger } from '../../../../runtime/log/logger.js';
import { fixture } from '../../../support/paths.js';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { procStatFields } from '../../../support/proc-stat.js';
import { lowerThreadPriority } from '../../../../runtime/workers/thread-priority.js';
import { openStore, storeForThreads, ThreadWriteLock } from '../../../../runtime/store/index.js';
import { tempDir } from '../../../support/tmp.js';
import { waitFor } from '../../../support/net.js';

const worker = pathToFileURL(fixture('workers/double-batch.js'));

function setup() {
  const registry = new MetricsRegistry();
  const lines: string[] = [];
  const pools = new WorkerPoolRegistry(registry.core, createLogger({ format: 'json', write: (l) => lines.push(l) }));
  return { registry, pools, lines, view: pools.forPlugin('capture') };
}

test('a pool runs tasks on real worker threads', async () => {
  const { pools, view } = setup();
  const pool = view.pool<unknown[], number[]>({ filename: worker, name: 'double', maxThreads: 2 });
  assert.equal(await pool.run([1, 2, 3]), [2, 4, 6]);
  assert.ok(pool.threads >= 1);
  await pools.destroyAll();
});

test('destroyAll lets running tasks finish, then ends the threads', async () => {
  const { pools, view } = setup();
  const pool = view.pool<unknown[], number[]>({ filename: worker, name: 'double', maxThreads: 1 });
  const task = pool.run(['slow', 1]);
  await waitFor(() => pool.threads === 1 && pool.queued === 0, { what: 'the task to reach its thread' });
  assert.equal(await pools.destroyAll(5000), []);
  assert.equal(await task, [2], 'the task ran to its end instead of being cut off');
  assert.is(pool.threads, 0);
});

test('a pool still running tasks at the timeout is named and left running, never cut off mid-call', async () => {
  const { pools, view } = setup();
  const pool = view.pool<unknown[], number[]>({ filename: worker, name: 'slowpool', maxThreads: 1 });
  const task = pool.run(['slow', 3]);
  await waitFor(() => pool.threads === 1 && pool.queued === 0, { what: 'the task to reach its thread' });
  assert.equal(await pools.destroyAll(20), ['slowpool']);
  // The plugin's own destroy() waits for the task too.
  const destroyed = pool.destroy();
  assert.equal(await task, [6]);
  await destroyed;
  assert.is(pool.threads, 0);
});

test('the batcher groups items by count and by time, and reports results with their batch size', async () => {
  const { pools, view } = setup();
  const pool = view.pool<unknown[], number[]>({ filename: worker, name: 'double', maxThreads: 1 });
  const results: [number[], number][] = [];
  const batcher = view.batcher(pool, { maxBatch: 3, maxDelayMs: 20, onResult: (out, items) => { results.push([out, items]); } });
  for (const n of [1, 2, 3, 4]) assert.ok(batcher.push(n));
  await batcher.flush();
  assert.equal(results.map((r) => r[1]), [3, 1]);
  assert.equal(results.map((r) => r[0]), [[2, 4, 6], [8]]);
  assert.is(batcher.pending, 0);
  await pools.destroyAll();
});

test('the batcher lets a batch\'s items go once its task is made, while the task still runs', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const { pools, view } = setup();
  const pool = view.pool<unknown[], number[]>({ filename: worker, name: 'double', maxThreads: 1 });
  let item: { n: number } | null = { n: 1 };
  const kept = new WeakRef(item);
  let done = false;
  const batcher = view.batcher<{ n: number }, number[], unknown[]>(pool, {
    maxBatch: 1, toTask: (batch) => ['slow', ...batch.map((x) => x.n)], onResult: () => { done = true; },
  });
  batcher.push(item);
  item = null;
  // The worker spins for 200 ms on 'slow'; the task is made and leaves for it a few event-loop turns after the push,
  // however long those take on a busy machine: collect until the item is gone (or the deadline), not after a fixed 20 ms.
  await waitFor(() => { gc(); return kept.deref() === undefined || done; }, { timeoutMs: 5_000, intervalMs: 5, what: 'the item to be collected' }).catch(() => undefined);
  assert.is(done, false, 'the task should still be running');
  assert.is(kept.deref(), undefined, 'the item outlived its task being made');
  await batcher.flush();
  assert.ok(done);
  await pools.destroyAll();
});

test('past maxPending the batcher drops and counts without blocking', async () => {
  const { pools, view, registry } = setup();
  const pool = view.pool<unknown[], number[]>({ filename: worker, name: 'slowpool', maxThreads: 1 });
  const batcher = view.batcher(pool, { maxBatch: 2, maxDelayMs: 1, maxPending: 4, onResult: () => {} });
  const accepted = ['slow', 1, 2, 3, 4, 5, 6].map((x) => batcher.push(x)).filter(Boolean).length;
  assert.is(accepted, 4);
  await batcher.flush();
  assert.match(registry.expose(), /vigil_workers_dropped_total\{pool="slowpool"\} 3/);
  await pools.destroyAll();
});

test('a failing task is counted and logged; the batcher keeps working', async () => {
  const { pools, view, registry, lines } = setup();
  const pool = view.pool<unknown[], number[]>({ filename: worker, name: 'flaky', maxThreads: 1 });
  const outs: number[][] = [];
  const batcher = view.batcher(pool, { maxBatch: 2, maxDelayMs: 1, onResult: (o) => { outs.push(o); } });
  batcher.push('throw'); batcher.push(1);
  await batcher.flush();
  batcher.push(5);
  await batcher.flush();
  assert.equal(outs, [[10]]);
  assert.match(registry.expose(), /vigil_workers_failed_total\{pool="flaky"\} 2/);
  assert.ok(lines.some((l) => l.includes('asked to throw')));
  await pools.destroyAll();
});

test('onSettled gets each batch\'s task once it is over, succeeded or failed, after onResult', async () => {
  const { pools, view } = setup();
  const pool = view.pool<unknown[], number[]>({ filename: worker, name: 'settled', maxThreads: 1 });
  const events: string[] = [];
  const batcher = view.batcher<unknown, number[], unknown[]>(pool, {
    maxBatch: 2, maxDelayMs: 1, toTask: (batch) => [...batch],
    onResult: (o) => { events.push(`result ${o.join(',')}`); },
    onSettled: (task) => { events.push(`settled ${task.join(',')}`); },
  });
  batcher.push(1); batcher.push(2);
  await batcher.flush();
  batcher.push('throw'); batcher.push(3);
  await batcher.flush();
  assert.equal(events, ['result 2,4', 'settled 1,2', 'settled throw,3']);
  await pools.destroyAll();
});

test('toTask turns each batch into the pool task, with context sent along', async () => {
  const { pools, view } = setup();
  const pool = view.pool<unknown[], number[]>({ filename: worker, name: 'double', maxThreads: 1 });
  const outs: number[][] = [];
  const batcher = view.batcher<number, number[], unknown[]>(pool, {
    maxBatch: 2, maxDelayMs: 1, toTask: (batch) => [...batch, 100], onResult: (o) => { outs.push(o); },
  });
  batcher.push(1); batcher.push(2);
  await batcher.flush();
  assert.equal(outs, [[2, 4, 200]]);
  await pools.destroyAll();
});

test('transferList moves a task\'s buffers to the worker instead of copying them', async () => {
  const { pools, view } = setup();
  const pool = view.pool<Float64Array, number[]>({ filename: worker, name: 'double', maxThreads: 1 });
  const outs: number[][] = [];
  const sent: Float64Array[] = [];
  const batcher = view.batcher<number, number[], Float64Array>(pool, {
    maxBatch: 3, maxDelayMs: 1,
    toTask: (batch) => { const packed = Float64Array.from(batch); sent.push(packed); return packed; },
    transferList: (task) => [task.buffer],
    onResult: (o) => { outs.push(o); },
  });
  for (const n of [1, 2, 3]) batcher.push(n);
  await batcher.flush();
  assert.equal(outs, [[2, 4, 6]]);
  assert.is(sent[0].buffer.byteLength, 0, 'the buffer was moved: detached on this side');
  await pools.destroyAll();
});

test('a batch that cannot be made into a task is counted as failed and leaves nothing pending', async () => {
  const { pools, view, registry } = setup();
  const pool = view.pool<unknown[], number[]>({ filename: worker, name: 'badtask', maxThreads: 1 });
  const batcher = view.batcher<number, number[], unknown[]>(pool, {
    maxBatch: 2, maxDelayMs: 1, toTask: () => { throw new Error('cannot pack'); }, onResult: () => {},
  });
  batcher.push(1); batcher.push(2);
  await batcher.flush();
  assert.is(batcher.pending, 0);
  assert.match(registry.expose(), /vigil_workers_failed_total\{pool="badtask"\} 2/);
  await pools.destroyAll();
});

test('a pool with store: true writes through its own connection to the runtime\'s database, as its plugin', async () => {
  const { pools, view, registry } = setup();
  const dir = tempDir();
  const url = `sqlite:${join(dir.path, 'v.db')}`;
  // The runtime's arrangement: this thread's connection and the pool's take turns through one lock, and the pool's
  // operations are counted in this thread's store metrics.
  const lock = new ThreadWriteLock();
  const metricsChannel = `test-store-metrics:${process.pid}:${Date.now()}`;
  const main = await openStore(url, { sqliteWriteLock: lock, metrics: registry.core, threadMetricsChannel: metricsChannel });
  try {
    await main.run('CREATE TABLE capture_values (v INTEGER)');
    pools.useStore(storeForThreads(url, { writeLock: lock.buffer, metricsChannel }));
    const pool = view.pool<number, { stored: number; own: string }>({
      filename: pathToFileURL(fixture('workers/store-task.js')), name: 'store', maxThreads: 2, store: true, workerData: { own: 'kept' },
    });
    const out = await Promise.all([1, 2, 3, 4, 5, 6].map((v) => pool.run(v)));
    await Promise.all([7, 8].map((v) => main.run('INSERT INTO capture_values (v) VALUES (?)', [v])));
    assert.equal(out.map((o) => o.stored), [1, 2, 3, 4, 5, 6]);
    assert.is(out[0].own, 'kept', 'the pool\'s own workerData is still there');
    assert.equal(await main.query('SELECT SUM(v) AS s FROM capture_values'), [{ s: 36 }]);
    // 1 CREATE and 2 INSERTs here, 6 INSERTs in the pool's threads (reported asynchronously, over a channel).
    await waitFor(() => /^vigil_store_queries_total\{op="run"\} 9$/m.test(registry.expose()), { what: 'the threads\' 6 writes to be counted here' });
    assert.match(registry.expose(), /^vigil_store_query_duration_seconds_count\{op="run"\} 9$/m);
  } finally {
    await pools.destroyAll();
    await main.close();
    dir.cleanup();
  }
});

test('with sqlite::memory:, or without store: true, the threads have no store and say why', async () => {
  const { pools, view } = setup();
  pools.useStore(storeForThreads('sqlite::memory:'));
  const pool = view.pool<number, { unavailable: string }>({ filename: pathToFileURL(fixture('workers/store-task.js')), name: 'store', store: true });
  assert.match((await pool.run(1)).unavailable, /sqlite::memory: exists in the main thread only/);
  const without = view.pool<number, { unavailable: string }>({ filename: pathToFileURL(fixture('workers/store-task.js')), name: 'nostore' });
  assert.match((await without.run(1)).unavailable, /was not created with \{ store: true \}/);
  assert.throws(() => view.pool({ filename: pathToFileURL(fixture('workers/store-task.js')), name: 'store', store: true, workerData: 'x' }),
    /workerData must be a plain object/);
  await pools.destroyAll();
});

test('a task module that throws as it loads fails its tasks and is logged; the process goes on', async () => {
  const { pools, view, lines } = setup();
  try {
    const broken = view.pool<null, never>({ filename: pathToFileURL(fixture('workers/throws-on-load.js')), name: 'broken', maxThreads: 1 });
    await broken.run(null).then(() => assert.unreachable('ran'), (err: Error) => assert.match(err.message, /task module failed to load/));
    await waitFor(() => lines.some((l) => l.includes('worker pool thread failed') && l.includes('broken')), { what: 'the failure in the log' });
    assert.equal(await view.pool<unknown[], number[]>({ filename: worker, name: 'double', maxThreads: 1 }).run([4]), [8]);
  } finally {
    await pools.destroyAll();
  }
});

/** The calling thread's nice value, from /proc (Linux). */
function niceOfThisThread(): number {
  return Number(procStatFields('/proc/thread-self/stat')[16]);
}

type NiceOut = { nice: number; own: string | null; store: boolean };

test('a background pool\'s threads run at nice 19, the event loop and other pools\' threads at normal priority', async () => {
  if (process.platform !== 'linux') { console.log('  skipped: thread priorities are per thread on Linux only'); return; }
  const { pools, view } = setup();
  const task = pathToFileURL(fixture('workers/thread-nice.js'));
  const before = niceOfThisThread();
  try {
    const background = view.pool<null, NiceOut>({ filename: task, name: 'telemetry', background: true, workerData: { own: 'kept' } });
    const normal = view.pool<null, NiceOut>({ filename: task, name: 'normal' });
    const withStore = view.pool<null, NiceOut>({ filename: fixture('workers/thread-nice.js'), name: 'both', background: true, store: true });
    assert.equal(await background.run(null), { nice: 19, own: 'kept', store: false });
    assert.equal(await normal.run(null), { nice: before, own: null, store: false });
    assert.equal(await withStore.run(null), { nice: 19, own: null, store: true }, 'a plain path works too, and store: true still applies');
    assert.is(niceOfThisThread(), before, 'the main thread kept its priority');
    assert.throws(() => view.pool({ filename: task, name: 'bad', background: true, workerData: 7 }), /with background: true, workerData must be a plain object/);
    const noTask = view.pool<null, never>({ filename: pathToFileURL(fixture('workers/no-default.js')), name: 'notask', background: true });
    await noTask.run(null).then(() => assert.unreachable('ran'), (err: Error) => assert.match(err.message, /no-default\.js has no default export function/));
  } finally {
    await pools.destroyAll();
  }
});

test('lowering a thread\'s priority is left alone off Linux, where it would move the whole process', () => {
  assert.is(lowerThreadPriority('darwin'), false);
  assert.is(lowerThreadPriority('win32'), false);
});

test('the background task module loads through require(): piscina tries require() first and, on a module with top-level await, falls back to import() while a second task\'s require() of the same module can run, which aborts Node 20.19+ (IsGraphAsync on an uninstantiated module)', async () => {
  const { Worker } = await import('node:worker_threads');
  const backgroundTask = new URL('../../../../runtime/workers/background-task.js', import.meta.url);
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    try {
      const task = require(workerData.module).default;
      Promise.resolve(task([1, 2])).then((out) => parentPort.postMessage({ out }), (e) => parentPort.postMessage({ error: String(e) }));
    } catch (e) { parentPort.postMessage({ error: (e && e.code) || String(e) }); }`;
  const reply = await new Promise<{ out?: number[]; error?: string }>((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: { module: backgroundTask.pathname, vigilBackgroundTask: worker.href } });
    w.once('message', (m) => { resolve(m as { out?: number[]; error?: string }); void w.terminate(); });
    w.once('error', reject);
  });
  assert.equal(reply, { out: [2, 4] });
});

test.run();
