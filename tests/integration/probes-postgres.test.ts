// The host history on PostgreSQL with two `vigil run` processes sharing it: hours of samples stored before they
// start (the machine ran Vigil earlier) are rolled up at start, the minute sample is stored once per minute however
// many processes run, and both answer the same trend.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SAMPLE_METRICS, type Sample } from '../../plugins/probes/history/metrics.js';
import { probesMigrations } from '../../plugins/probes/history/migrations.js';
import { HOUR_MS, MINUTE_MS } from '../../plugins/probes/history/retention.js';
import { recordSample } from '../../plugins/probes/history/sample-store.js';
import { openStore } from '../../runtime/store/index.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'probes-postgres-dashboard-token-0123';
const bearer = { authorization: `Bearer ${TOKEN}` };

interface Trend {
  samples: { t: number; cpu: number | null }[];
  hours: { hour: number; n: number; cpu_avg: number | null; cpu_max: number | null }[];
}

if (await postgresAvailable('probes-postgres')) {
  const work = tempDir('vigil-probes-pg-');
  const schema = await freshPostgresSchema('probes_pg');
  const procs: VigilProcess[] = [];
  const bases: string[] = [];
  // Three finished hours of samples, the last ending two hours ago: the machine ran Vigil, then was off.
  const lastHourEnd = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 2 * HOUR_MS;
  const firstHour = lastHourEnd - 3 * HOUR_MS;

  test.before(async () => {
    const store = await openStore(schema.url);
    try {
      const probes = store.forPlugin('probes');
      await probes.migrate(probesMigrations);
      for (let t = firstHour; t < lastHourEnd; t += MINUTE_MS) {
        const minute = (t % HOUR_MS) / MINUTE_MS;
        await recordSample(probes, { ...(Object.fromEntries(SAMPLE_METRICS.map((m) => [m, null])) as Omit<Sample, 't'>), t, cpu: minute, mem: 40 });
      }
    } finally {
      await store.close();
    }
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      bases.push(`http://127.0.0.1:${port}`);
      const file = writeConfig(work.path, `data_dir: ${work.path}/data-${i}
storage: { url: "${schema.url}" }
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
probes: {}
`, `vigil-${i}.yaml`);
      procs.push(await startVigil(file, bases[i]));
    }
  });

  test.after(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await schema.drop();
    work.cleanup();
  });

  const trend = async (base: string, range: string): Promise<Trend> => {
    const res = await fetch(`${base}/api/trend?range=${range}`, { headers: bearer });
    assert.is(res.status, 200);
    return await res.json() as Trend;
  };

  test('the hours stored before the start are rolled up at start: one row each, average and peak', async () => {
    const week = (await waitFor(async () => {
      const t = await trend(bases[0], '7d');
      return t.hours.length >= 3 ? t : null;
    }, { what: 'the backfilled hours' }))!;
    assert.equal(week.hours.map((h) => h.hour), [firstHour, firstHour + HOUR_MS, firstHour + 2 * HOUR_MS]);
    for (const h of week.hours) {
      assert.is(h.n, 60);
      assert.is(h.cpu_avg, 29.5);
      assert.is(h.cpu_max, 59);
    }
    assert.equal((await trend(bases[1], '7d')).hours, week.hours, 'both processes answer the same history');
  });

  test('two processes, one store: the minute sample is stored once for its minute', async () => {
    const day = (await waitFor(async () => {
      const t = await trend(bases[1], '24h');
      return t.samples.some((s) => s.t >= lastHourEnd) ? t : null;
    }, { timeoutMs: 15_000, what: 'the first live minute sample' }))!;
    const live = day.samples.filter((s) => s.t >= lastHourEnd);
    const minutes = live.map((s) => s.t);
    assert.equal(minutes, [...new Set(minutes)], 'no minute twice');
    assert.ok(live.length <= 2, `one row a minute since start (${live.length})`);
    assert.is(day.samples.length, 180 + live.length, 'the stored samples, and the new ones');
  });

  test.run();
}
