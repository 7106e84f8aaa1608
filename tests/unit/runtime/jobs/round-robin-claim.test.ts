// Issue 30, part 4: claims are fair between the groups of a queue (EnqueueOptions.group, the project for evals): one
// group's backlog of thousands cannot hold another group's job behind it, due groups are served in turn however many
// there are, a group's share of a worker's slots (groupConcurrency) leaves the others room, and two workers still
// claim each job once. SQLite and PostgreSQL.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { QueuedJob } from '@vigil/plugin-sdk';
import { createJobQueues, ensureJobTables, JobsErrors } from '../../../../runtime/jobs/index.js';
import type { JobQueues } from '../../../../runtime/jobs/index.js';
import { JobTable } from '../../../../runtime/jobs/job-table.js';
import type { StoreBackend } from '../../../../runtime/store/index.js';
import { waitFor } from '../../../support/net.js';
import { backendKinds, recordingLog, rejection, sleep, type BackendKind } from '../store/backend-kinds.js';

interface Ctx { store: StoreBackend; url: string; queues: JobQueues[]; held: Held }

/** Handlers that wait until released; after a test, every one (and any that starts later) goes at once. */
class Held {
  private readonly waiting: (() => void)[] = [];
  private open = false;
  wait(): Promise<void> {
    return this.open ? Promise.resolve() : new Promise<void>((r) => this.waiting.push(r));
  }
  releaseWaiting(): void { this.waiting.splice(0).forEach((r) => r()); }
  releaseAll(): void { this.open = true; this.releaseWaiting(); }
}
type Job = { g: string; n: number };

function define(kind: BackendKind) {
  const test = suite<Ctx>(`round-robin claims (${kind.name})`);
  test.before.each(async (ctx) => {
    ctx.url = await kind.fresh();
    ctx.store = await kind.open(ctx.url);
    ctx.queues = [];
    ctx.held = new Held();
  });
  test.after.each(async (ctx) => {
    ctx.held.releaseAll();
    await Promise.all(ctx.queues.map((q) => q.stop()));
  });
  test.after(() => kind.cleanup());

  const make = (ctx: Ctx, owner = 'w1', store = ctx.store) => {
    const q = createJobQueues(store, { owner, log: recordingLog() });
    ctx.queues.push(q);
    return q;
  };
  /** `count` jobs of group `g`, numbered from `from`, due now unless `runAt` says otherwise. */
  const jobsOf = (g: string, count: number, options: { runAt?: number; from?: number } = {}) =>
    Array.from({ length: count }, (_, i) => ({ payload: { g, n: (options.from ?? 0) + i }, options: { group: g, ...(options.runAt ? { runAt: options.runAt } : {}) } }));
  const groupsOf = (claimed: { payload: string }[]) => claimed.map((j) => (JSON.parse(j.payload) as Job).g);

  test('a group\'s backlog of 3,000 due jobs does not hold a job another group enqueues after it', async (ctx) => {
    const queues = make(ctx);
    const ran: string[] = [];
    const q = queues.queue<Job>('t.fair', async (job) => { ran.push(job.payload.g); await sleep(1); }, { pollMs: 20, concurrency: 2 });
    assert.is(await q.enqueueMany(jobsOf('a', 3000)), 3000);
    assert.type(await q.enqueue({ g: 'b', n: 0 }, { group: 'b' }), 'number');
    await queues.start();
    await waitFor(() => ran.includes('b'), { what: 'b ran', timeoutMs: 30_000 });
    assert.ok(ran.indexOf('b') < 4, `b ran as job ${ran.indexOf('b') + 1}, behind ${ran.indexOf('b')} of a's`);
  });

  test('claims take due groups in turn: one job each before any group gets a second, the oldest of each first', async (ctx) => {
    const queues = make(ctx);
    const q = queues.queue<Job>('t.turns', async () => {});
    await q.enqueueMany(jobsOf('a', 1000));
    await q.enqueueMany(jobsOf('c', 1000));
    await q.enqueueMany(jobsOf('b', 2));
    await ensureJobTables(ctx.store);
    const table = new JobTable(ctx.store);
    const claims: string[] = [];
    for (let i = 0; i < 7; i++) claims.push(...groupsOf(await table.claim('t.turns', 'w1', 1, 60_000)));
    assert.equal(new Set(claims.slice(0, 3)), new Set(['a', 'b', 'c']), `first three claims: ${claims.join(' ')}`);
    assert.equal(new Set(claims.slice(3, 6)), new Set(['a', 'b', 'c']), `next three: ${claims.join(' ')}`);
    assert.equal(claims.filter((g) => g === 'b').length, 2);
    // Within a group, first in, first out.
    const wide = await table.claim('t.turns', 'w1', 4, 60_000);
    assert.equal(groupsOf(wide).sort(), ['a', 'a', 'c', 'c'], 'b has nothing left; a and c share the four');
    const ns = (g: string) => wide.map((j) => JSON.parse(j.payload) as Job).filter((j) => j.g === g).map((j) => j.n);
    assert.equal(ns('a'), [ns('a')[0], ns('a')[0] + 1]);
    assert.ok(ns('a')[0] <= 3 && ns('c')[0] <= 3);
  });

  test('many groups, due and not: every due group is served once before any twice, none waiting for its time is', async (ctx) => {
    const queues = make(ctx);
    const q = queues.queue<Job>('t.many-groups', async () => {});
    // 150 due groups and 150 whose jobs are due in an hour, interleaved in name order: more than one step of the scan.
    for (let i = 0; i < 300; i++) {
      const g = `g${String(i).padStart(3, '0')}`;
      await q.enqueueMany(i % 2 ? jobsOf(g, 2, { runAt: Date.now() + 3_600_000 }) : jobsOf(g, 3));
    }
    // A group whose name sorts after all of them, behind the not-due ones.
    await q.enqueueMany(jobsOf('zz', 50));
    await ensureJobTables(ctx.store);
    const table = new JobTable(ctx.store);
    const first: string[] = [];
    for (let i = 0; i < 151; i++) first.push(...groupsOf(await table.claim('t.many-groups', 'w1', 1, 60_000)));
    assert.is(first.length, 151, 'every claim found a due job');
    assert.is(new Set(first).size, 151, 'no group twice in the first round');
    assert.ok(first.every((g) => g === 'zz' || Number(g.slice(1)) % 2 === 0), 'no job before its time');
    const second: string[] = [];
    for (let i = 0; i < 9; i++) second.push(...groupsOf(await table.claim('t.many-groups', 'w1', 16, 60_000)));
    assert.is(second.length, 144);
    const counts = new Map<string, number>();
    for (const g of second) counts.set(g, (counts.get(g) ?? 0) + 1);
    // 151 due groups, 144 jobs in claims of 16: the second round goes on in turn, one job per group, zz too.
    assert.ok([...counts].every(([, n]) => n === 1), `a group served twice in the second round: ${[...counts].filter(([, n]) => n > 1)}`);
    assert.ok(second.every((g) => g === 'zz' || Number(g.slice(1)) % 2 === 0), 'no job before its time');
  });

  test('groupConcurrency: a group that holds its share of slots leaves the rest to other groups', async (ctx) => {
    const queues = make(ctx);
    const running = new Map<string, number>();
    let mostOfA = 0;
    const q = queues.queue<Job>('t.share', async (job) => {
      running.set(job.payload.g, (running.get(job.payload.g) ?? 0) + 1);
      mostOfA = Math.max(mostOfA, running.get('a') ?? 0);
      await ctx.held.wait();
      running.set(job.payload.g, running.get(job.payload.g)! - 1);
    }, { pollMs: 20, concurrency: 3, groupConcurrency: 2 });
    await q.enqueueMany(jobsOf('a', 20));
    await queues.start();
    await waitFor(() => (running.get('a') ?? 0) >= 2, { what: 'a holds two slots' });
    await sleep(100);
    assert.is(running.get('a'), 2, 'a takes no third slot, though one is free');
    await q.enqueue({ g: 'b', n: 0 }, { group: 'b' });
    await waitFor(() => running.get('b') === 1, { what: 'b runs beside a\'s two' });
    while ((await q.stats()).done < 21) {
      ctx.held.releaseWaiting();
      await sleep(5);
    }
    assert.is(mostOfA, 2);
    assert.equal(await q.stats(), { pending: 0, running: 0, done: 21, failed: 0, dead: 0 });
  });

  test('two workers on two store handles: each job runs once, and the small group is not left for last', async (ctx) => {
    const other = await kind.open(ctx.url);
    const runs: { id: number; g: string }[] = [];
    const handler = async (job: QueuedJob<Job>) => {
      await sleep(job.payload.n % 3);
      runs.push({ id: job.id, g: job.payload.g });
    };
    const a = make(ctx, 'worker-a');
    const b = make(ctx, 'worker-b', other);
    const qa = a.queue('t.two', handler, { concurrency: 3, pollMs: 10 });
    b.queue('t.two', handler, { concurrency: 3, pollMs: 10 });
    await qa.enqueueMany(jobsOf('a', 200));
    await qa.enqueueMany(jobsOf('b', 200));
    await qa.enqueueMany(jobsOf('c', 20));
    await Promise.all([a.start(), b.start()]);
    await waitFor(async () => (await qa.stats()).done === 420, { what: '420 done', timeoutMs: 30_000 });
    assert.is(runs.length, 420);
    assert.is(new Set(runs.map((r) => r.id)).size, 420);
    const lastOfC = runs.map((r) => r.g).lastIndexOf('c');
    // In turn, c's 20 are done within about 60 runs; first come, first served would leave them for the last 20.
    assert.ok(lastOfC < 150, `c's last job ran as job ${lastOfC + 1} of 420`);
  });

  test('jobs without a group share one, as before: first in, first out', async (ctx) => {
    const queues = make(ctx);
    const q = queues.queue<number>('t.plain', async () => {});
    for (let n = 0; n < 10; n++) await q.enqueue(n);
    await ensureJobTables(ctx.store);
    const table = new JobTable(ctx.store);
    const claimed = [...await table.claim('t.plain', 'w1', 4, 60_000), ...await table.claim('t.plain', 'w1', 4, 60_000)];
    assert.equal(claimed.map((j) => JSON.parse(j.payload)), [0, 1, 2, 3, 4, 5, 6, 7]);
  });

  test('a bad group or groupConcurrency is refused with a clear error', async (ctx) => {
    const queues = make(ctx);
    const q = queues.queue('t.bad-group', async () => {});
    assert.is((await rejection(() => q.enqueue({}, { group: 5 as never }))).code, JobsErrors.OPTION);
    const long = await rejection(() => q.enqueue({}, { group: 'x'.repeat(201) }));
    assert.is(long.code, JobsErrors.OPTION);
    assert.match(long.message, /group .*200/);
    assert.is((await rejection(() => q.enqueueMany([{ payload: {}, options: { group: [] as never } }]))).code, JobsErrors.OPTION);
    const code = (fn: () => unknown) => { try { fn(); } catch (err) { return (err as { code?: string }).code; } return undefined; };
    assert.is(code(() => queues.queue('t.share0', async () => {}, { groupConcurrency: 0 })), JobsErrors.OPTION);
    assert.is(code(() => queues.queue('t.share-nan', async () => {}, { groupConcurrency: Number.NaN })), JobsErrors.OPTION);
    assert.equal(await q.stats(), { pending: 0, running: 0, done: 0, failed: 0, dead: 0 });
  });

  return test;
}

for (const kind of await backendKinds('jobs_round_robin')) define(kind).run();
