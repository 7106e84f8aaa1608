import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createScheduler, JobsErrors, listSchedules } from '../../../../runtime/jobs/index.js';
import type { StoreBackend } from '../../../../runtime/store/index.js';
import { waitFor } from '../../../support/net.js';
import { backendKinds, recordingLog, sleep, type BackendKind } from '../store/backend-kinds.js';

type Run = { owner: string; started: number; ended: number };

/** Runs sorted by start never overlap, and consecutive starts are at least one interval apart. */
function assertSerialAndSpaced(runs: Run[], intervalMs: number): void {
  const sorted = [...runs].sort((a, b) => a.started - b.started);
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1];
    const cur = sorted[i];
    assert.ok(cur.started >= prev.ended, `run ${i} (${cur.owner}) started before run ${i - 1} (${prev.owner}) ended`);
    // Leases are spaced on the database clock; these starts are read later, after each process's event loop got to
    // the callback, which on a loaded 2-core machine can lag by tens of ms. A lease that spaced nothing would start
    // runs back to back, each as the previous one ended (0 to 40 ms apart here), under this bound.
    assert.ok(cur.started - prev.started >= intervalMs - 40, `runs ${i - 1} and ${i} only ${cur.started - prev.started} ms apart`);
  }
}

function define(kind: BackendKind) {
  const test = suite<{ store: StoreBackend; url: string }>(`scheduler (${kind.name})`);
  test.before.each(async (ctx) => {
    ctx.url = await kind.fresh();
    ctx.store = await kind.open(ctx.url);
  });
  test.after(() => kind.cleanup());

  test('runs right after start with immediate, then once per interval, and records the outcome', async ({ store }) => {
    const scheduler = createScheduler(store, { owner: 'one', log: recordingLog() });
    const runs: Run[] = [];
    scheduler.every('t.tick', 60, async () => { runs.push({ owner: 'one', started: Date.now(), ended: Date.now() }); }, { immediate: true });
    await scheduler.start();
    await waitFor(() => runs.length >= 4, { what: '4 runs' });
    await scheduler.stop();
    assertSerialAndSpaced(runs, 60);
    const [row] = await listSchedules(store);
    assert.equal({ id: row.id, owner: row.owner, status: row.lastStatus, error: row.lastError, lease: row.leaseUntil },
      { id: 't.tick', owner: 'one', status: 'ok', error: null, lease: 0 });
  });

  test('without immediate the first run waits one interval', async ({ store }) => {
    const scheduler = createScheduler(store, { owner: 'one', log: recordingLog() });
    let runs = 0;
    const t0 = Date.now();
    let first = 0;
    scheduler.every('t.later', 200, () => { runs++; first ||= Date.now(); });
    await scheduler.start();
    await sleep(50);
    assert.is(runs, 0);
    await waitFor(() => runs >= 1, { what: 'first run' });
    await scheduler.stop();
    assert.ok(first - t0 >= 190, `first run after ${first - t0} ms`);
  });

  test('a throwing fn is logged, recorded and contained; the schedule keeps running', async ({ store }) => {
    const log = recordingLog();
    const contained: unknown[] = [];
    const scheduler = createScheduler(store, { owner: 'one', log, contain: (err, where) => contained.push([(err as Error).message, where]) });
    let calls = 0;
    // 150 ms apart: the error row must be seen before the next run overwrites it, polled every 25 ms.
    scheduler.every('t.flaky', 150, () => {
      calls++;
      if (calls === 1) throw new Error('boom');
    }, { immediate: true, plugin: 'flaky-plugin' });
    await scheduler.start();
    // The row that shows the error is the one checked: a second read can come after the next run (150 ms later, on a
    // loaded machine), which succeeds and clears the error.
    const failed = await waitFor(async () => {
      const row = (await listSchedules(store))[0];
      return row?.lastStatus === 'error' ? row : undefined;
    }, { what: 'error recorded' });
    assert.is(failed?.lastError, 'boom');
    await waitFor(() => calls >= 3, { what: 'runs after the error' });
    await scheduler.stop();
    assert.equal(contained, [['boom', { job: 't.flaky', plugin: 'flaky-plugin' }]]);
    assert.ok(log.entries.some((e) => e.level === 'error' && e.fields.job === 't.flaky' && e.fields.plugin === 'flaky-plugin'));
    assert.is((await listSchedules(store))[0].lastStatus, 'ok');
  });

  test('two schedulers on two store handles never overlap and run at most once per interval', async ({ url }) => {
    const a = await kind.open(url);
    const b = await kind.open(url);
    const runs: Run[] = [];
    let active = 0;
    let maxActive = 0;
    const job = (owner: string) => async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      const started = Date.now();
      await sleep(30);
      runs.push({ owner, started, ended: Date.now() });
      active--;
    };
    const sa = createScheduler(a, { owner: 'proc-a', log: recordingLog() });
    const sb = createScheduler(b, { owner: 'proc-b', log: recordingLog() });
    sa.every('t.shared', 80, job('proc-a'), { immediate: true });
    sb.every('t.shared', 80, job('proc-b'), { immediate: true });
    const t0 = Date.now();
    await Promise.all([sa.start(), sb.start()]);
    await sleep(1000);
    await Promise.all([sa.stop(), sb.stop()]);
    const elapsed = Date.now() - t0;
    assert.is(maxActive, 1);
    assert.ok(runs.length >= 4, `only ${runs.length} runs`);
    assert.ok(runs.length <= Math.floor(elapsed / 80) + 1, `${runs.length} runs in ${elapsed} ms`);
    assertSerialAndSpaced(runs, 80);
  });

  test('a lease held by a process that stopped responding is respected until it expires', async ({ store }) => {
    await createScheduler(store, { owner: 'x', log: recordingLog() }).start();
    const [{ until }] = await store.query<{ until: number }>(`SELECT ${store.nowSql} + 300 AS until`);
    await store.run("INSERT INTO vigil_schedules (id, owner, lease_until, last_run_at, last_status) VALUES ('t.orphan', 'ghost', ?, 0, 'running')", [until]);
    const scheduler = createScheduler(store, { owner: 'heir', log: recordingLog() });
    let ranAt = 0;
    scheduler.every('t.orphan', 50, async () => {
      [{ now: ranAt }] = await store.query<{ now: number }>(`SELECT ${store.nowSql} AS now`);
    }, { immediate: true });
    await scheduler.start();
    await waitFor(() => ranAt > 0, { what: 'takeover run' });
    await scheduler.stop();
    assert.ok(ranAt >= until, `ran at ${ranAt}, lease until ${until}`);
    assert.is((await listSchedules(store))[0].owner, 'heir');
  });

  test('stop waits for a running fn, is idempotent, and nothing runs afterwards', async ({ store }) => {
    const scheduler = createScheduler(store, { owner: 'one', log: recordingLog() });
    let started = 0;
    let finished = 0;
    scheduler.every('t.slow', 30, async () => { started++; await sleep(150); finished++; }, { immediate: true });
    await scheduler.start();
    await waitFor(() => started === 1, { what: 'first run' });
    await Promise.all([scheduler.stop(), scheduler.stop()]);
    assert.is(finished, 1);
    await sleep(150);
    assert.is(started, 1);
    const [row] = await listSchedules(store);
    assert.is(row.leaseUntil, 0, 'lease released after the last run');
  });

  test('stop(timeoutMs) waits no longer than it is given (a runtime stopping within shutdown_timeout)', async ({ store }) => {
    const log = recordingLog();
    const scheduler = createScheduler(store, { owner: 'one', log });
    let release: () => void = () => {};
    let started = false;
    scheduler.every('t.stuck', 30, async () => { started = true; await new Promise<void>((r) => { release = r; }); }, { immediate: true });
    await scheduler.start();
    await waitFor(() => started, { what: 'the run to start' });
    // stop's own timer does not hold the process open (a runtime has its servers then); this test has nothing else.
    const keepAlive = setTimeout(() => {}, 5000);
    await scheduler.stop(50);
    clearTimeout(keepAlive);
    const warning = log.entries.find((e) => e.msg.includes('still running at stop'));
    assert.equal(warning?.fields, { waitedMs: 50 });
    release();
  });

  test('stop without start resolves, and every() after stop never runs', async ({ store }) => {
    const scheduler = createScheduler(store, { owner: 'one', log: recordingLog() });
    await scheduler.stop();
    let runs = 0;
    scheduler.every('t.never', 10, () => { runs++; }, { immediate: true });
    await scheduler.start();
    await sleep(60);
    assert.is(runs, 0);
  });

  test('bad ids, intervals and options are refused at registration', async ({ store }) => {
    const scheduler = createScheduler(store, { owner: 'one', log: recordingLog() });
    scheduler.every('t.dup', 1000, () => {});
    const code = (fn: () => void) => { try { fn(); } catch (err) { return (err as { code?: string }).code; } return undefined; };
    assert.is(code(() => scheduler.every('t.dup', 1000, () => {}, { plugin: 'p' })), JobsErrors.SCHEDULE_ID);
    assert.is(code(() => scheduler.every('', 1000, () => {})), JobsErrors.SCHEDULE_ID);
    for (const bad of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, undefined, '100']) {
      assert.is(code(() => scheduler.every(`t.bad.${String(bad)}`, bad as number, () => {})), JobsErrors.OPTION, String(bad));
    }
    assert.is(code(() => scheduler.every('t.lease', 100, () => {}, { leaseMs: 0 })), JobsErrors.OPTION);
    assert.is(code(() => scheduler.every('t.fn', 100, 'nope' as never)), JobsErrors.OPTION);
    assert.is(code(() => createScheduler(store, { owner: 'x', log: recordingLog(), stopTimeoutMs: -1 })), JobsErrors.OPTION);
  });

  test('a second Node process with the same job id never runs at the same time as this one', async ({ store, url }) => {
    await store.run('CREATE TABLE runs (owner TEXT, started BIGINT, ended BIGINT)');
    const interval = 100;
    const duration = 1500;
    const child = spawn(process.execPath, [fileURLToPath(new URL('./scheduler-child.js', import.meta.url)),
      url, 'child', 't.cross', String(interval), '40', String(duration)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitFor(() => output.includes('started'), { what: 'child scheduler start', timeoutMs: 15_000 });
    const scheduler = createScheduler(store, { owner: 'parent', log: recordingLog() });
    scheduler.every('t.cross', interval, async () => {
      const started = Date.now();
      await sleep(40);
      await store.run('INSERT INTO runs (owner, started, ended) VALUES (?, ?, ?)', ['parent', started, Date.now()]);
    }, { immediate: true });
    await scheduler.start();
    await sleep(duration);
    await scheduler.stop();
    assert.is(await exited, 0, output);
    const runs = (await store.query<Run>('SELECT owner, started, ended FROM runs')).map((r) => ({ ...r, started: Number(r.started), ended: Number(r.ended) }));
    assert.ok(runs.length >= 5, `only ${runs.length} runs`);
    assertSerialAndSpaced(runs, interval);
  });

  return test;
}

for (const kind of await backendKinds('jobs_scheduler')) define(kind).run();
