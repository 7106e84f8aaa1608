import type { Migration } from '@vigil/plugin-sdk';
import { logwatchMigration } from '../logwatch/migrations.js';
import { SAMPLE_METRICS } from './metrics.js';

/**
 * The host history. One statement list serves both stores (DOUBLE PRECISION has REAL affinity in SQLite).
 *
 * - probes_samples: one row a minute, keyed by its time (epoch ms), kept 24 hours.
 * - probes_hourly: one row per finished hour, keyed by the hour's start (epoch ms), with the average and the peak
 *   of each metric over the hour's samples and how many there were; kept about 120 days.
 */
export const probesMigrations: Migration[] = [
  {
    version: 1,
    name: 'minute samples and hourly rollups',
    up: `
      CREATE TABLE probes_samples (t BIGINT PRIMARY KEY, ${SAMPLE_METRICS.map((m) => `${m} DOUBLE PRECISION`).join(', ')});
      CREATE TABLE probes_hourly (hour BIGINT PRIMARY KEY, n INTEGER NOT NULL,
        ${SAMPLE_METRICS.map((m) => `${m}_avg DOUBLE PRECISION, ${m}_max DOUBLE PRECISION`).join(', ')});`,
  },
  logwatchMigration,
];
