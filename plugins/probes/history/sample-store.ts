import type { Queryable, SqlValue, Store } from '@vigil/plugin-sdk';
import { SAMPLE_METRICS, type HourlyRow, type Sample } from './metrics.js';
import { HOUR_MS, hourStart, hourlyCutoff, sampleCutoff } from './retention.js';

const SAMPLE_COLUMNS = ['t', ...SAMPLE_METRICS];
const HOURLY_COLUMNS = ['hour', 'n', ...SAMPLE_METRICS.flatMap((m) => [`${m}_avg`, `${m}_max`])];

/** Stores one minute sample. A second sample at the same time (two processes on one tick) is ignored. */
export async function recordSample(store: Queryable & Pick<Store, 'insertMany'>, sample: Sample): Promise<void> {
  await store.insertMany('probes_samples', SAMPLE_COLUMNS, [SAMPLE_COLUMNS.map((c) => sample[c as keyof Sample] as SqlValue)],
    { onConflict: 'ON CONFLICT (t) DO NOTHING' });
}

/**
 * Rolls every finished hour that has samples and no hourly row yet into one row each, so a first run backfills
 * from the samples already stored and a run after a gap (the machine was off, the job missed ticks) catches up.
 * An hour is finished once `now` has reached its end. Hours without samples (the machine was off) get no row.
 * Runs in one statement, so two processes rolling at once produce each hour once (the key refuses the second).
 * Returns the number of hours written.
 */
export async function rollUpHours(store: Queryable, now: number): Promise<number> {
  const [latest] = await store.query<{ hour: number | null }>('SELECT MAX(hour) AS hour FROM probes_hourly');
  const from = latest?.hour == null ? Number.MIN_SAFE_INTEGER : Number(latest.hour) + HOUR_MS;
  const until = hourStart(now);
  if (from >= until) return 0;
  // Integer division by the hour length gives the hour's index on both stores (t is BIGINT).
  const aggregates = SAMPLE_METRICS.map((m) => `AVG(${m}), MAX(${m})`).join(', ');
  const { changes } = await store.run(
    `INSERT INTO probes_hourly (${HOURLY_COLUMNS.join(', ')})
     SELECT (t / ${HOUR_MS}) * ${HOUR_MS} AS h, COUNT(*), ${aggregates}
     FROM probes_samples WHERE t >= ? AND t < ? GROUP BY (t / ${HOUR_MS})
     ON CONFLICT (hour) DO NOTHING`,
    [from, until]);
  return changes;
}

/** Deletes samples older than 24 hours and hourly rows older than 120 days; roll up first, or those samples' hours are lost. */
export async function applyRetention(store: Queryable, now: number): Promise<{ samples: number; hours: number }> {
  const samples = (await store.run('DELETE FROM probes_samples WHERE t <= ?', [sampleCutoff(now)])).changes;
  const hours = (await store.run('DELETE FROM probes_hourly WHERE hour < ?', [hourlyCutoff(now)])).changes;
  return { samples, hours };
}

/** The hourly job's work: finished hours rolled up, then what is past retention deleted. */
export async function maintainHistory(store: Queryable, now: number): Promise<{ rolled: number; deleted: { samples: number; hours: number } }> {
  const rolled = await rollUpHours(store, now);
  return { rolled, deleted: await applyRetention(store, now) };
}

function numbers<R extends Record<string, unknown>>(row: R): R {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = v == null ? null : Number(v);
  return out as R;
}

/** Minute samples with `from <= t < until`, oldest first. */
export async function readSamples(store: Queryable, from: number, until: number): Promise<Sample[]> {
  const rows = await store.query<Sample>(`SELECT ${SAMPLE_COLUMNS.join(', ')} FROM probes_samples WHERE t >= ? AND t < ? ORDER BY t`, [from, until]);
  return rows.map(numbers);
}

/** Hourly rows whose hour starts in `from <= hour < until`, oldest first. */
export async function readHours(store: Queryable, from: number, until: number): Promise<HourlyRow[]> {
  const rows = await store.query<HourlyRow>(`SELECT ${HOURLY_COLUMNS.join(', ')} FROM probes_hourly WHERE hour >= ? AND hour < ? ORDER BY hour`, [from, until]);
  return rows.map(numbers);
}
