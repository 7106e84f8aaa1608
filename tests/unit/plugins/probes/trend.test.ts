// The trend API's reads and its CSV over a real store (SQLite, and PostgreSQL when reachable): the 24h range is at
// most 1,440 minute rows, the others at most 24 rows a day of finished hours, whatever the tables hold.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store } from '@vigil/plugin-sdk';
import { SAMPLE_METRICS, type Sample } from '../../../../plugins/probes/history/metrics.js';
import { probesMigrations } from '../../../../plugins/probes/history/migrations.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../../../plugins/probes/history/retention.js';
import { rollUpHours, recordSample } from '../../../../plugins/probes/history/sample-store.js';
import { readTrend, trendCsv } from '../../../../plugins/probes/trend.js';
import { backendKinds, type BackendKind } from '../../runtime/store/backend-kinds.js';

const T0 = Date.UTC(2026, 0, 1);
const sampleAt = (t: number): Sample => ({
  ...(Object.fromEntries(SAMPLE_METRICS.map((m) => [m, null])) as Record<(typeof SAMPLE_METRICS)[number], null>),
  t, cpu: (t / MINUTE_MS) % 100, mem: 50.123456,
});

function define(kind: BackendKind) {
  const test = suite(`probes trend (${kind.name})`);
  test.after(() => kind.cleanup());
  let store: Store;
  // 26 hours of minutes (retention has not run), rolled up: more than the 24h range may answer.
  const end = T0 + 26 * HOUR_MS;

  test.before(async () => {
    store = (await kind.open(await kind.fresh())).forPlugin('probes');
    await store.migrate(probesMigrations);
    const rows: Sample[] = [];
    for (let t = T0; t < end; t += MINUTE_MS) rows.push(sampleAt(t));
    for (const s of rows) await recordSample(store, s);
    await rollUpHours(store, end);
  });

  test('24h: the minutes in (now − 24 h, now], 1,440 at most, oldest first', async () => {
    const now = end - MINUTE_MS;
    const trend = await readTrend(store, '24h', now);
    assert.is(trend.resolution, 'minute');
    assert.is(trend.samples.length, 1440);
    assert.is(trend.samples[0].t, now - DAY_MS + MINUTE_MS);
    assert.is(trend.samples.at(-1)!.t, now);
    assert.equal(trend.hours, []);
  });

  test('7d: finished hours only, at most 24 a day', async () => {
    const now = end + 30 * MINUTE_MS;
    const trend = await readTrend(store, '7d', now);
    assert.is(trend.resolution, 'hour');
    assert.is(trend.hours.length, 26);
    assert.is(trend.until, end, 'the hour under way is not in it');
    assert.is(trend.from, end - 7 * DAY_MS);
    assert.is(trend.hours[0].n, 60);
    assert.equal(trend.samples, []);
    const short = await readTrend(store, '90d', T0 + 10 * HOUR_MS);
    assert.is(short.hours.length, 10);
  });

  test('CSV: a header, then a row per minute or hour with its ISO time; empty cells for what was not measured', async () => {
    const day = [...trendCsv(await readTrend(store, '24h', end - MINUTE_MS))];
    assert.is(day.length, 1441);
    assert.is(day[0], 'time,cpu,mem,swap,load1,temp,disk,battery,net_rx,net_tx,io_read,io_write\r\n');
    const t = end - DAY_MS;
    assert.is(day[1], `${new Date(t).toISOString()},${(t / MINUTE_MS) % 100},50.123,,,,,,,,,\r\n`);
    const hours = [...trendCsv(await readTrend(store, '30d', end))];
    assert.is(hours.length, 27);
    assert.ok(hours[0].startsWith('hour,samples,cpu_avg,cpu_max,mem_avg,mem_max,'));
    assert.ok(hours[1].startsWith(`${new Date(T0).toISOString()},60,`));
  });

  return test;
}

for (const kind of await backendKinds('probes_trend')) define(kind).run();
