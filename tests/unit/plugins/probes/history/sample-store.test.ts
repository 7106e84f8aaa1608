import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store } from '@vigil/plugin-sdk';
import { SAMPLE_METRICS, type Sample } from '../../../../../plugins/probes/history/metrics.js';
import { probesMigrations } from '../../../../../plugins/probes/history/migrations.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../../../../plugins/probes/history/retention.js';
import { applyRetention, maintainHistory, readHours, readSamples, recordSample, rollUpHours } from '../../../../../plugins/probes/history/sample-store.js';
import { backendKinds, type BackendKind } from '../../../runtime/store/backend-kinds.js';

// The fake clock starts on an hour: 2026-01-01T00:00Z.
const T0 = Date.UTC(2026, 0, 1);

/**
 * The sample at `t`: cpu is the minute within the hour (average 29.5, peak 59 over a full hour), mem the hour's
 * index, temp missing in each hour's first half (no sensor then), the rest fixed.
 */
function sampleAt(t: number): Sample {
  const minute = Math.floor((t % HOUR_MS) / MINUTE_MS);
  const base = Object.fromEntries(SAMPLE_METRICS.map((m) => [m, 1])) as Record<(typeof SAMPLE_METRICS)[number], number | null>;
  return { ...base, t, cpu: minute, mem: Math.floor((t - T0) / HOUR_MS), temp: minute < 30 ? null : 40 + minute };
}

function define(kind: BackendKind) {
  const test = suite(`probes history (${kind.name})`);
  test.after(() => kind.cleanup());

  async function fresh(n = 1): Promise<Store[]> {
    const url = await kind.fresh();
    const out: Store[] = [];
    for (let i = 0; i < n; i++) {
      const store = (await kind.open(url)).forPlugin('probes');
      await store.migrate(probesMigrations);
      out.push(store);
    }
    return out;
  }

  /** Runs the minute job from `from` to `until` (exclusive), and the hourly job on every hour it passes. */
  async function run(store: Store, from: number, until: number): Promise<void> {
    for (let now = from; now < until; now += MINUTE_MS) {
      await recordSample(store, sampleAt(now));
      if (now % HOUR_MS === 0) await maintainHistory(store, now);
    }
  }

  const count = async (store: Store, table: string) => Number((await store.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);

  test('3 days of minute samples: exactly 1,440 minute rows and one row per finished hour, average and peak right', async () => {
    const [store] = await fresh();
    const end = T0 + 3 * DAY_MS;
    await run(store, T0, end);
    const now = end - MINUTE_MS; // the last sample's time
    await maintainHistory(store, now);
    assert.is(await count(store, 'probes_samples'), 1440);
    const samples = await readSamples(store, 0, end);
    assert.is(samples[0].t, now - DAY_MS + MINUTE_MS, 'the oldest kept minute is 24 h before the newest');
    assert.is(samples.at(-1)?.t, now);
    const hours = await readHours(store, 0, end);
    assert.is(hours.length, 71, 'the last hour is not finished yet');
    assert.equal(hours.map((h) => h.hour), Array.from({ length: 71 }, (_, i) => T0 + i * HOUR_MS));
    for (const [i, h] of hours.entries()) {
      assert.is(h.n, 60);
      assert.is(h.cpu_avg, 29.5);
      assert.is(h.cpu_max, 59);
      assert.is(h.mem_avg, i);
      assert.is(h.mem_max, i);
      assert.is(h.temp_avg, 40 + 44.5, 'nulls stay out of the average');
      assert.is(h.temp_max, 99);
    }
  });

  test('a first run backfills every finished hour from the samples already stored, and a second run adds nothing', async () => {
    const [store] = await fresh();
    for (let t = T0; t < T0 + 5 * HOUR_MS + 10 * MINUTE_MS; t += MINUTE_MS) await recordSample(store, sampleAt(t));
    const now = T0 + 5 * HOUR_MS + 10 * MINUTE_MS;
    assert.is(await rollUpHours(store, now), 5);
    assert.is(await rollUpHours(store, now), 0);
    assert.is(await count(store, 'probes_hourly'), 5);
  });

  test('a 5-hour gap: the hours before it are caught up on restart, the gap has no rows, sampling resumes', async () => {
    const [store] = await fresh();
    // Running from 00:00 to 02:30, then off for 5 hours, then back at 07:30 until 10:00.
    await run(store, T0, T0 + 2.5 * HOUR_MS);
    assert.is(await count(store, 'probes_hourly'), 2, 'hours 00 and 01 rolled while running');
    const restart = T0 + 7.5 * HOUR_MS;
    assert.is((await maintainHistory(store, restart)).rolled, 1, 'hour 02 (half sampled) caught up on restart');
    await run(store, restart, T0 + 10 * HOUR_MS);
    await maintainHistory(store, T0 + 10 * HOUR_MS);
    const hours = await readHours(store, 0, T0 + DAY_MS);
    assert.equal(hours.map((h) => [(h.hour - T0) / HOUR_MS, h.n]), [[0, 60], [1, 60], [2, 30], [7, 30], [8, 60], [9, 60]]);
    assert.is(hours[2].cpu_avg, 14.5, 'the half hour before the machine went off');
    assert.is(hours[3].cpu_max, 59);
  });

  test('a job that missed 5 hours while samples kept coming: each of them rolled up at its next run', async () => {
    const [store] = await fresh();
    for (let t = T0; t < T0 + 6 * HOUR_MS; t += MINUTE_MS) await recordSample(store, sampleAt(t));
    await maintainHistory(store, T0 + HOUR_MS);
    const { rolled } = await maintainHistory(store, T0 + 6 * HOUR_MS);
    assert.is(rolled, 5);
    assert.equal((await readHours(store, 0, T0 + DAY_MS)).map((h) => h.n), [60, 60, 60, 60, 60, 60]);
  });

  test('121 days of history: hourly rows kept 120 days (2,880), samples 24 hours; rolled before deleted', async () => {
    const [store] = await fresh();
    const now = T0 + 121 * DAY_MS;
    const rows = [];
    for (let t = T0; t < now; t += HOUR_MS) rows.push(['t', ...SAMPLE_METRICS].map((c) => sampleAt(t)[c as keyof Sample]));
    await store.insertMany('probes_samples', ['t', ...SAMPLE_METRICS], rows);
    const result = await maintainHistory(store, now);
    assert.is(result.rolled, 121 * 24, 'every hour rolled before any sample was deleted');
    // The newest sample is an hour before `now`: the 23 within the last 24 hours stay.
    assert.equal(result.deleted, { samples: 121 * 24 - 23, hours: 24 });
    const hours = await readHours(store, 0, now + DAY_MS);
    assert.is(hours.length, 2880);
    assert.is(hours[0].hour, now - 120 * DAY_MS);
    assert.is(await count(store, 'probes_samples'), 23);
    assert.equal(await applyRetention(store, now), { samples: 0, hours: 0 }, 'nothing more to delete at the same time');
  });

  test('two processes on one tick: the sample and each hour are stored once', async () => {
    const [a, b] = await fresh(2);
    await Promise.all([recordSample(a, sampleAt(T0)), recordSample(b, sampleAt(T0))]);
    for (let t = T0 + MINUTE_MS; t < T0 + 3 * HOUR_MS; t += MINUTE_MS) await recordSample(a, sampleAt(t));
    const [ra, rb] = await Promise.all([rollUpHours(a, T0 + 3 * HOUR_MS), rollUpHours(b, T0 + 3 * HOUR_MS)]);
    assert.is(ra + rb, 3);
    assert.is(await count(a, 'probes_samples'), 180);
    assert.equal((await readHours(b, 0, T0 + DAY_MS)).map((h) => h.n), [60, 60, 60]);
  });

  return test;
}

const kinds = await backendKinds('probes_history');
for (const kind of kinds) define(kind).run();
