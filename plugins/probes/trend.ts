import type { Queryable } from '@vigil/plugin-sdk';
import { SAMPLE_METRICS, type HourlyRow, type Sample } from './history/metrics.js';
import { DAY_MS, hourStart } from './history/retention.js';
import { readHours, readSamples } from './history/sample-store.js';
import type { TrendRange } from './response-schemas.js';

export interface Trend {
  range: TrendRange;
  resolution: 'minute' | 'hour';
  from: number;
  until: number;
  metrics: typeof SAMPLE_METRICS;
  samples: Sample[];
  hours: HourlyRow[];
}

const DAYS: Record<TrendRange, number> = { '24h': 1, '7d': 7, '30d': 30, '90d': 90 };

/**
 * A range ending at `now`. 24h: the minute samples in (now − 24 h, now], at most 1,440 rows. 7d, 30d, 90d: the
 * finished hours of the last N days, at most 24·N rows (2,160 for 90d). Both reads use the tables' primary keys.
 */
export async function readTrend(store: Queryable, range: TrendRange, now: number): Promise<Trend> {
  if (range === '24h') {
    const from = now - DAY_MS + 1;
    return { range, resolution: 'minute', from, until: now + 1, metrics: SAMPLE_METRICS, samples: await readSamples(store, from, now + 1), hours: [] };
  }
  const until = hourStart(now);
  const from = until - DAYS[range] * DAY_MS;
  return { range, resolution: 'hour', from, until, metrics: SAMPLE_METRICS, samples: [], hours: await readHours(store, from, until) };
}

const cell = (v: number | null): string => (v === null ? '' : String(Math.round(v * 1000) / 1000));

/**
 * The trend as CSV lines (RFC 4180, CRLF): a header, then a row per minute or per hour with its time in ISO 8601.
 * Every cell is a number or a time this plugin wrote, so none needs quoting or neutralising.
 */
export function* trendCsv(trend: Trend): Generator<string> {
  if (trend.resolution === 'minute') {
    yield ['time', ...SAMPLE_METRICS].join(',') + '\r\n';
    for (const s of trend.samples) yield [new Date(s.t).toISOString(), ...SAMPLE_METRICS.map((m) => cell(s[m]))].join(',') + '\r\n';
    return;
  }
  yield ['hour', 'samples', ...SAMPLE_METRICS.flatMap((m) => [`${m}_avg`, `${m}_max`])].join(',') + '\r\n';
  for (const h of trend.hours) {
    yield [new Date(h.hour).toISOString(), String(h.n), ...SAMPLE_METRICS.flatMap((m) => [cell(h[`${m}_avg`]), cell(h[`${m}_max`])])].join(',') + '\r\n';
  }
}
