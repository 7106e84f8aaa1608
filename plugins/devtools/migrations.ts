import type { Migration } from '@vigil/plugin-sdk';

/**
 * The launcher's history: one row per finished run. `argv` is JSON text; `output_tail` the last lines of the output
 * (at most OUTPUT_TAIL_CHARS); `dropped_bytes` what the output cap dropped before the kept output. Times are epoch ms.
 */
export const devtoolsMigrations: Migration[] = [
  {
    version: 1,
    name: 'run history',
    up: `
      CREATE TABLE devtools_runs (
        id TEXT PRIMARY KEY, folder TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, argv TEXT NOT NULL,
        actor TEXT NOT NULL, state TEXT NOT NULL, exit_code INTEGER, signal TEXT, note TEXT, started_at BIGINT NOT NULL,
        ended_at BIGINT NOT NULL, output_tail TEXT NOT NULL, output_bytes BIGINT NOT NULL, dropped_bytes BIGINT NOT NULL);
      CREATE INDEX devtools_runs_started ON devtools_runs (started_at);
    `,
  },
];
