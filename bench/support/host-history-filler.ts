// Synthetic host history for the browser suites and benchmarks: minute samples written through the probes plugin's
// own table code, rolled into hourly rows by its own rollup, so the History page has a day of minutes and weeks of
// hours to draw without waiting for them.
import { openStore } from '../../runtime/store/index.js';
import { SAMPLE_METRICS, type Sample } from '../../plugins/probes/history/metrics.js';
import { probesMigrations } from '../../plugins/probes/history/migrations.js';
import { maintainHistory } from '../../plugins/probes/history/sample-store.js';

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

export interface HostHistoryOptions {
  /** Days of history before now (default 14): hours beyond the last day come from samples 10 minutes apart. */
  days?: number;
  /** Leave the battery out (a desktop). Default true: the battery stays null. */
  battery?: boolean;
}

/** A day-shaped curve between `low` and `high`, with a little noise from `n`. */
const wave = (t: number, low: number, high: number, n: number): number =>
  Math.round((low + (high - low) * (0.5 + 0.5 * Math.sin((t / DAY) * 2 * Math.PI)) + ((n * 7919) % 100) / 100) * 10) / 10;

function sampleAt(t: number, n: number, battery: boolean, from: number): Sample {
  const s = { t } as Sample;
  for (const m of SAMPLE_METRICS) s[m] = null;
  Object.assign(s, {
    cpu: wave(t, 4, 38, n), mem: wave(t + DAY / 3, 42, 61, n), swap: 3, load1: wave(t, 0.2, 2.4, n), temp: wave(t, 41, 63, n),
    disk: Math.round((58 + ((t - from) / DAY) * 0.3) * 10) / 10, battery: battery ? wave(t, 20, 100, n) : null, net_rx: wave(t, 2e3, 4e5, n), net_tx: wave(t, 1e3, 9e4, n),
    io_read: wave(t, 0, 2e6, n), io_write: wave(t, 5e3, 6e5, n),
  });
  return s;
}

/** Writes the history into the store at `url` (its tables made if missing); resolves to the minute samples kept. */
export async function fillHostHistory(url: string, options: HostHistoryOptions = {}): Promise<{ samples: number; hours: number }> {
  const backend = await openStore(url);
  try {
    const store = backend.forPlugin('probes');
    await store.migrate(probesMigrations);
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const from = now - (options.days ?? 14) * DAY;
    const columns = ['t', ...SAMPLE_METRICS];
    const rows: (number | null)[][] = [];
    let n = 0;
    for (let t = from; t < now; t += t < now - DAY ? 10 * MINUTE : MINUTE) {
      const s = sampleAt(t, n++, options.battery ?? false, from);
      rows.push(columns.map((c) => s[c as keyof Sample]));
    }
    for (let i = 0; i < rows.length; i += 1000) {
      await store.insertMany('probes_samples', columns, rows.slice(i, i + 1000), { onConflict: 'ON CONFLICT (t) DO NOTHING' });
    }
    const { rolled } = await maintainHistory(store, now);
    const [{ kept }] = await store.query<{ kept: number }>('SELECT COUNT(*) AS kept FROM probes_samples');
    return { samples: Number(kept), hours: rolled };
  } finally {
    await backend.close();
  }
}
