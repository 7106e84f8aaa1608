import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { JobDeferral, PermanentError, type QueuedJob } from '@vigil/plugin-sdk';
import { createJobQueues, JobsErrors, listJobs } from '../../../../runtime/jobs/index.js';
import type { JobQueues } from '../../../../runtime/jobs/index.js';
import type { StoreBackend } from '../../../../runtime/store/index.js';
import { waitFor } from '../../../support/net.js';
import { backendKinds, recordingLog, rejection, sleep, type BackendKind } from '../store/backend-kinds.js';

interface Ctx { store: StoreBackend; url: string; queues: JobQueues[] }

function define(kind: BackendKind) {
  const test = suite<Ctx>(`job queues (${kind.name})`);
  test.before.each(async (ctx) => {
    ctx.url = await kind.fresh();
    ctx.store = await kind.open(ctx.url);
    ctx.queues = [];
  });
  test.after.each(async (ctx) => { await Promise.all(ctx.queues.map((q) => q.stop())); });
  test.after(() => kind.cleanup());

  const make = (ctx: Ctx, owner = 'w1', store = ctx.store) => {
    const q = createJobQueues(store, { owner, log: recordingLog() });
    ctx.queues.push(q);
    return q;
  };
  const jobRow = async (store: StoreBackend, id: number) => (await listJobs(store, { limit: 1000 })).find((j) => j.id === id)!;

  test('a job runs once with its payload and ends done', async (ctx) => {
    const queues = make(ctx);
    const seen: QueuedJob<{ a: number }>[] = [];
    const q = queues.queue<{ a: number }>('t.ok', async (job) => { seen.push(job); }, { pollMs: 20 });
    await queues.start();
    const id = await q.enqueue({ a: 1 });
    assert.type(id, 'number');
    await waitFor(async () => (await q.stats()).done === 1, { what: 'done' });
    assert.equal(seen, [{ id: id!, queue: 't.ok', payload: { a: 1 }, attempt: 1 }]);
    const row = await jobRow(ctx.store, id!);
    assert.equal({ state: row.state, attempt: row.attempt, lockedBy: row.lockedBy, lastError: row.lastError },
      { state: 'done', attempt: 1, lockedBy: null, lastError: null });
    assert.equal(await queues.stats('t.ok'), { pending: 0, running: 0, done: 1, failed: 0, dead: 0 });
  });

  test('dropPayloadWhenDone empties a done job\'s payload and keeps a failed job\'s', async (ctx) => {
    const queues = make(ctx);
    const q = queues.queue<{ secret: string; fail?: boolean }>('t.drop', async (job) => {
      if (job.payload.fail) throw new PermanentError('refused');
    }, { pollMs: 20, dropPayloadWhenDone: true });
    await queues.start();
    const done = (await q.enqueue({ secret: 'ada@example.com' }))!;
    const failed = (await q.enqueue({ secret: 'bob@example.com', fail: true }))!;
    await waitFor(async () => { const s = await q.stats(); return s.done === 1 && s.failed === 1; }, { what: 'both finished' });
    const payloadOf = async (id: number) => (await ctx.store.query<{ payload: string }>('SELECT payload FROM vigil_jobs WHERE id = ?', [id]))[0].payload;
    assert.is(await payloadOf(done), 'null');
    assert.match(await payloadOf(failed), /bob@example\.com/);
  });

  test('enqueueMany inserts many jobs at once, skipping dedupe keys that are open or repeated, and they run', async (ctx) => {
    const queues = make(ctx);
    const seen: number[] = [];
    const q = queues.queue<{ n: number }>('t.many', async (job) => { seen.push(job.payload.n); }, { pollMs: 20 });
    await q.enqueue({ n: 0 }, { dedupeKey: 'k0', runAt: Date.now() + 60_000 });
    const jobs = Array.from({ length: 1000 }, (_, i) => ({ payload: { n: i + 1 }, options: { dedupeKey: `k${i % 900}` } }));
    assert.is(await q.enqueueMany(jobs), 899, 'k0 is open already; k0..k99 come twice');
    assert.is(await q.enqueueMany([]), 0);
    assert.match((await rejection(() => q.enqueueMany([{ payload: { n: 1 }, options: { runAt: Number.NaN } }]))).message, /runAt/);
    await queues.start();
    await waitFor(async () => (await q.stats()).done === 899, { what: '899 done', timeoutMs: 20_000 });
    assert.is(new Set(seen).size, 899);
  });

  test('a JobDeferral puts the job back for its delay with a new payload, and spends no attempt', async (ctx) => {
    const queues = make(ctx);
    const seen: QueuedJob<{ n: number }>[] = [];
    const q = queues.queue<{ n: number }>('t.defer', async (job) => {
      seen.push(job);
      if (job.payload.n < 3) throw new JobDeferral(150, { payload: { n: job.payload.n + 1 } });
    }, { pollMs: 20, maxAttempts: 1 });
    await queues.start();
    const id = (await q.enqueue({ n: 1 }))!;
    await waitFor(async () => (await q.stats()).done === 1, { what: 'done after two deferrals' });
    assert.equal(seen.map((j) => [j.payload.n, j.attempt]), [[1, 1], [2, 1], [3, 1]], 'one attempt, though maxAttempts is 1');
    // Two waits of 150 ms each (the database clock; allow its rounding).
    const row = await jobRow(ctx.store, id);
    assert.equal({ state: row.state, attempt: row.attempt, lastError: row.lastError }, { state: 'done', attempt: 1, lastError: null });
  });

  test('a JobDeferral whose payload is not JSON fails the job instead of looping', async (ctx) => {
    const queues = make(ctx);
    const q = queues.queue<null>('t.defer-bad', async () => {
      const payload: Record<string, unknown> = {};
      payload.self = payload;
      throw new JobDeferral(10, { payload });
    }, { pollMs: 20, maxAttempts: 1 });
    await queues.start();
    const id = (await q.enqueue(null))!;
    await waitFor(async () => (await q.stats()).dead === 1, { what: 'dead' });
    assert.match((await jobRow(ctx.store, id)).lastError ?? '', /payload of a deferral/);
  });

  test('a failure carrying retryAfterMs waits at least that long, longer than the backoff', async (ctx) => {
    const queues = make(ctx);
    const q = queues.queue<null>('t.retry-after', async (job) => {
      if (job.attempt === 1) throw Object.assign(new Error('429'), { retryAfterMs: 1500 });
    }, { pollMs: 20, backoffMs: 10 });
    await queues.start();
    const id = (await q.enqueue(null))!;
    const waiting = (await waitFor(async () => {
      const r = await jobRow(ctx.store, id);
      return r.state === 'pending' && r.attempt === 1 ? r : null;
    }, { what: 'first failure recorded' }))!;
    const delay = waiting.runAt - waiting.updatedAt;
    assert.ok(delay >= 1490 && delay <= 1510, `retry scheduled ${delay} ms after the failure`);
  });

  test('a failing job is retried after an exponential backoff, then succeeds', async (ctx) => {
    const queues = make(ctx);
    const calls: number[] = [];
    const q = queues.queue<null>('t.retry', async (job) => {
      calls.push(Date.now());
      if (job.attempt === 1) throw new Error('transient');
    }, { pollMs: 20, backoffMs: 300 });
    await queues.start();
    const id = (await q.enqueue(null))!;
    const waiting = (await waitFor(async () => {
      const r = await jobRow(ctx.store, id);
      return r.state === 'pending' && r.attempt === 1 ? r : null;
    }, { what: 'first failure recorded' }))!;
    assert.is(waiting.lastError, 'transient');
    // Equal jitter: the first retry waits between half and all of backoffMs.
    const delay = waiting.runAt - waiting.updatedAt;
    assert.ok(delay >= 150 && delay <= 300, `retry scheduled ${delay} ms after the failure`);
    await waitFor(async () => (await q.stats()).done === 1, { what: 'done after retry' });
    assert.is(calls.length, 2);
    assert.ok(calls[1] - calls[0] >= 140, `retried after ${calls[1] - calls[0]} ms`);
    assert.is((await jobRow(ctx.store, id)).attempt, 2);
  });

  test('a PermanentError, or an error marked permanent, fails the job without retrying', async (ctx) => {
    const queues = make(ctx);
    let calls = 0;
    const q = queues.queue<string>('t.perm', async (job) => {
      calls++;
      if (job.payload === 'typed') throw new PermanentError('bad payload');
      throw Object.assign(new Error('receiver said 400'), { permanent: true });
    }, { pollMs: 20, backoffMs: 10 });
    await queues.start();
    const a = (await q.enqueue('typed'))!;
    const b = (await q.enqueue('marked'))!;
    await waitFor(async () => (await q.stats()).failed === 2, { what: 'two failed' });
    await sleep(150);
    assert.is(calls, 2);
    const rowA = await jobRow(ctx.store, a);
    assert.equal({ state: rowA.state, attempt: rowA.attempt, lastError: rowA.lastError }, { state: 'failed', attempt: 1, lastError: 'VIGIL_ERR_SDK_PERMANENT: bad payload' });
    assert.is((await jobRow(ctx.store, b)).lastError, 'receiver said 400');
  });

  test('a job that keeps failing is dead after maxAttempts', async (ctx) => {
    const queues = make(ctx);
    let calls = 0;
    const q = queues.queue('t.dead', async () => { calls++; throw new Error(`failure ${calls}`); }, { pollMs: 20, backoffMs: 5, maxAttempts: 3 });
    await queues.start();
    const id = (await q.enqueue({}))!;
    await waitFor(async () => (await q.stats()).dead === 1, { what: 'dead' });
    await sleep(100);
    assert.is(calls, 3);
    const row = await jobRow(ctx.store, id);
    assert.equal({ state: row.state, attempt: row.attempt, maxAttempts: row.maxAttempts, lastError: row.lastError },
      { state: 'dead', attempt: 3, maxAttempts: 3, lastError: 'failure 3' });
  });

  test('dedupeKey: a second enqueue while the first is open is ignored; after it is done the key is free', async (ctx) => {
    const queues = make(ctx);
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const ran: string[] = [];
    const q = queues.queue<string>('t.dedupe', async (job) => { ran.push(job.payload); await gate; }, { pollMs: 20 });
    const other = queues.queue<string>('t.dedupe.other', async () => {}, { pollMs: 20 });
    const first = await q.enqueue('first', { dedupeKey: 'k' });
    assert.type(first, 'number');
    assert.is(await q.enqueue('pending duplicate', { dedupeKey: 'k' }), null);
    assert.type(await other.enqueue('same key, other queue', { dedupeKey: 'k' }), 'number');
    assert.type(await q.enqueue('no key'), 'number');
    await queues.start();
    await waitFor(() => ran.includes('first'), { what: 'first running' });
    assert.is(await q.enqueue('running duplicate', { dedupeKey: 'k' }), null);
    release();
    await waitFor(async () => (await q.stats()).done === 2, { what: 'both done' });
    const again = await q.enqueue('after done', { dedupeKey: 'k' });
    assert.type(again, 'number');
    assert.ok(again! > first!);
    await waitFor(() => ran.includes('after done'), { what: 'third run' });
    assert.not.ok(ran.includes('pending duplicate') || ran.includes('running duplicate'));
  });

  test('a job left running by a crashed worker returns to the queue when its lease expires', async (ctx) => {
    const crashed = make(ctx, 'crashed-worker');
    const q = crashed.queue('t.crash', async () => {}, {});
    const id = (await q.enqueue({ n: 1 }))!;
    // The crashed worker claimed it and died: state running, lease in the past.
    await ctx.store.run("UPDATE vigil_jobs SET state = 'running', attempt = 1, locked_by = 'crashed-worker', locked_until = 1 WHERE id = ?", [id]);
    const queues = make(ctx, 'survivor');
    const attempts: number[] = [];
    queues.queue('t.crash', async (job) => { attempts.push(job.attempt); }, { pollMs: 20 });
    await queues.start();
    await waitFor(async () => (await jobRow(ctx.store, id)).state === 'done', { what: 'recovered and done' });
    assert.equal(attempts, [2]);
    assert.match((await jobRow(ctx.store, id)).lastError ?? '', /lease of crashed-worker expired/);
  });

  test('an expired job with no attempts left is dead, not retried', async (ctx) => {
    const queues = make(ctx);
    let calls = 0;
    const q = queues.queue('t.crash.dead', async () => { calls++; }, { pollMs: 20, maxAttempts: 2 });
    const id = (await q.enqueue({}))!;
    await ctx.store.run("UPDATE vigil_jobs SET state = 'running', attempt = 2, locked_by = 'gone', locked_until = 1 WHERE id = ?", [id]);
    await queues.start();
    await waitFor(async () => (await jobRow(ctx.store, id)).state === 'dead', { what: 'dead' });
    assert.is(calls, 0);
  });

  test('a handler that overruns timeoutMs frees its slot and the job is retried', async (ctx) => {
    const queues = make(ctx);
    const attempts: number[] = [];
    const q = queues.queue('t.timeout', async (job) => {
      attempts.push(job.attempt);
      if (job.attempt === 1) await new Promise(() => {});
    }, { pollMs: 20, timeoutMs: 100, backoffMs: 10 });
    await queues.start();
    const id = (await q.enqueue({}))!;
    await waitFor(async () => (await jobRow(ctx.store, id)).state === 'done', { what: 'done on the second attempt' });
    assert.equal(attempts, [1, 2]);
    assert.match((await jobRow(ctx.store, id)).lastError ?? '', /VIGIL_ERR_JOBS_TIMEOUT: .*ran past timeoutMs \(100 ms\)/);
  });

  test('two workers on two store handles never run the same job twice across 200 jobs', async (ctx) => {
    const other = await kind.open(ctx.url);
    const runs: { id: number; owner: string }[] = [];
    const handler = (owner: string) => async (job: QueuedJob<{ n: number }>) => {
      await sleep(job.payload.n % 3);
      runs.push({ id: job.id, owner });
    };
    const a = make(ctx, 'worker-a');
    const b = make(ctx, 'worker-b', other);
    const qa = a.queue('t.many', handler('worker-a'), { concurrency: 4, pollMs: 10 });
    b.queue('t.many', handler('worker-b'), { concurrency: 4, pollMs: 10 });
    for (let n = 0; n < 200; n++) await qa.enqueue({ n });
    await Promise.all([a.start(), b.start()]);
    await waitFor(async () => (await qa.stats()).done === 200, { what: '200 done', timeoutMs: 30_000 });
    assert.is(runs.length, 200);
    assert.is(new Set(runs.map((r) => r.id)).size, 200);
    assert.ok(runs.some((r) => r.owner === 'worker-a') && runs.some((r) => r.owner === 'worker-b'), 'both workers took jobs');
    assert.equal(await qa.stats(), { pending: 0, running: 0, done: 200, failed: 0, dead: 0 });
  });

  test('a job due later waits; concurrency bounds the handlers running at once', async (ctx) => {
    const queues = make(ctx);
    let active = 0;
    let maxActive = 0;
    const ran: string[] = [];
    const q = queues.queue<string>('t.conc', async (job) => {
      active++;
      maxActive = Math.max(maxActive, active);
      await sleep(20);
      ran.push(job.payload);
      active--;
    }, { pollMs: 20, concurrency: 3 });
    await q.enqueue('later', { runAt: Date.now() + 60_000 });
    for (let i = 0; i < 9; i++) await q.enqueue(`now-${i}`);
    await queues.start();
    await waitFor(async () => (await q.stats()).done === 9, { what: '9 done' });
    await sleep(60);
    assert.is(maxActive, 3);
    assert.not.ok(ran.includes('later'));
    assert.equal(await q.stats(), { pending: 1, running: 0, done: 9, failed: 0, dead: 0 });
  });

  test('an idle queue slows its looks to 4 × pollMs; a job enqueued by another process is still claimed within that', async (ctx) => {
    // Count this queue's looks: each is one read of the store that names the queue.
    let looks = 0;
    const counting = new Proxy(ctx.store, {
      get(target, key) {
        if (key === 'query') {
          return (sql: string, params?: unknown[]) => { if (params?.includes('t.idle')) looks++; return target.query(sql, params as never); };
        }
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const queues = make(ctx, 'w1', counting);
    const ran: number[] = [];
    queues.queue<number>('t.idle', async (job) => { ran.push(job.payload); }, { pollMs: 50 });
    await queues.start();
    await sleep(1200);
    // At 50 ms a look that never slowed would be 24; slowing to 100 then 200 ms gives about 7.
    assert.ok(looks >= 2 && looks <= 10, `${looks} looks in 1.2 s`);
    const other = make(ctx, 'w2', await kind.open(ctx.url));
    const sent = Date.now();
    await other.queue<number>('t.idle', async () => { throw new Error('w2 never starts'); }, { pollMs: 50 }).enqueue(7);
    await waitFor(() => ran.length === 1, { what: 'the job claimed by the idle worker', timeoutMs: 2000 });
    assert.ok(Date.now() - sent < 1000, `claimed after ${Date.now() - sent} ms (an idle look waits 200 ms at most here)`);
  });

  test('a stored payload that is not JSON fails the job', async (ctx) => {
    const queues = make(ctx);
    let calls = 0;
    const q = queues.queue('t.garbled', async () => { calls++; }, { pollMs: 20 });
    const id = (await q.enqueue({}))!;
    await ctx.store.run("UPDATE vigil_jobs SET payload = '{not json' WHERE id = ?", [id]);
    await queues.start();
    await waitFor(async () => (await q.stats()).failed === 1, { what: 'failed' });
    assert.is(calls, 0);
    assert.match((await jobRow(ctx.store, id)).lastError ?? '', /payload is not JSON/);
  });

  test('stop waits for running handlers, is idempotent, and claims nothing afterwards', async (ctx) => {
    const queues = make(ctx);
    let finished = 0;
    let started = 0;
    const q = queues.queue('t.stop', async () => { started++; await sleep(100); finished++; }, { pollMs: 20 });
    await queues.start();
    await q.enqueue({});
    await waitFor(() => started === 1, { what: 'started' });
    await Promise.all([queues.stop(), queues.stop()]);
    assert.is(finished, 1);
    await q.enqueue({});
    await sleep(100);
    assert.is(started, 1);
    assert.equal(await q.stats(), { pending: 1, running: 0, done: 1, failed: 0, dead: 0 });
  });

  test('drainOnStop: stop runs the jobs already due before it returns, one queue only, within its timeout', async (ctx) => {
    const queues = make(ctx);
    let drained = 0;
    let other = 0;
    // A slow poll, so that nothing would be claimed before stop() without the drain.
    const q = queues.queue('t.drain', async () => { await sleep(5); drained++; }, { pollMs: 60_000, drainOnStop: true });
    const plain = queues.queue('t.plain', async () => { other++; }, { pollMs: 60_000 });
    void plain;
    await queues.start();
    await sleep(50);
    // Enqueued by another process (not started here), so this worker's wake-up on a local enqueue does not see them.
    const producer = make(ctx, 'w2');
    await producer.queue('t.drain', async () => {}).enqueueMany(Array.from({ length: 12 }, () => ({ payload: {} })));
    await producer.queue('t.plain', async () => {}).enqueue({});
    await queues.stop();
    assert.is(drained, 12);
    assert.equal(await q.stats(), { pending: 0, running: 0, done: 12, failed: 0, dead: 0 });
    assert.is(other, 0, 'the other queue stops as before: its job waits for the next start');
  });

  test('stop(timeoutMs) waits no longer than it is given for a stuck handler', async (ctx) => {
    const log = recordingLog();
    const queues = createJobQueues(ctx.store, { owner: 'w1', log });
    let release: () => void = () => {};
    let started = false;
    const q = queues.queue('t.stuck', async () => { started = true; await new Promise<void>((r) => { release = r; }); }, { pollMs: 20 });
    await queues.start();
    await q.enqueue({});
    await waitFor(() => started, { what: 'started' });
    // stop's own timer does not hold the process open (a runtime has its servers then); this test has nothing else.
    const keepAlive = setTimeout(() => {}, 5000);
    await queues.stop(50);
    clearTimeout(keepAlive);
    assert.equal(log.entries.find((e) => e.msg.includes('still running at stop'))?.fields, { waitedMs: 50 });
    release();
  });

  test('bad names, options and payloads are refused', async (ctx) => {
    const queues = make(ctx);
    const code = (fn: () => unknown) => { try { fn(); } catch (err) { return (err as { code?: string }).code; } return undefined; };
    const q = queues.queue('t.bad', async () => {});
    assert.is(code(() => queues.queue('t.bad', async () => {})), JobsErrors.QUEUE_NAME);
    for (const name of ['', 'has space', 'a/b', 'x'.repeat(201)]) assert.is(code(() => queues.queue(name, async () => {})), JobsErrors.QUEUE_NAME, name);
    assert.is(code(() => queues.queue('t.conc0', async () => {}, { concurrency: 0 })), JobsErrors.OPTION);
    assert.is(code(() => queues.queue('t.poll', async () => {}, { pollMs: -1 })), JobsErrors.OPTION);
    assert.is(code(() => queues.queue('t.fn', 'nope' as never)), JobsErrors.OPTION);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.is((await rejection(() => q.enqueue(cyclic))).code, JobsErrors.PAYLOAD);
    assert.is((await rejection(() => q.enqueue({ n: 1n }))).code, JobsErrors.PAYLOAD);
    assert.is((await rejection(() => q.enqueue({}, { runAt: Number.NaN }))).code, JobsErrors.OPTION);
    assert.is((await rejection(() => q.enqueue({}, { dedupeKey: 5 as never }))).code, JobsErrors.OPTION);
    assert.equal(await q.stats(), { pending: 0, running: 0, done: 0, failed: 0, dead: 0 });
  });

  return test;
}

for (const kind of await backendKinds('jobs_queues')) define(kind).run();
