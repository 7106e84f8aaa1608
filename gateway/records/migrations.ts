import type { Migration } from '@vigil/plugin-sdk';
import { BUCKET_COLUMNS } from './latency-buckets.js';
import { RECORD_SEARCH_UP } from './record-search-index.js';

const buckets = BUCKET_COLUMNS.map((c) => `${c} BIGINT NOT NULL DEFAULT 0`).join(', ');

/**
 * Records keep the governed JSON plus only the columns the list filters and indexes need: every column and index
 * is paid on each insert, the hot path (`labels` stays separate so a label filter never parses a record's bodies).
 * One exception: `primary_route`, from version 1, which nothing reads since version 2 dropped its index; dropping
 * the column would make SQLite rewrite the whole table at start-up.
 * Rollups, one row per minute, route, method, status class and tenant, feed overview and usage. Rule paths, one row
 * per hour, rule, method and path shape (rule-paths.ts), feed the policy page's "what each rule matched". Fields,
 * one row per route, location, status and name (field-writer.ts), feed the API toolchain (`vigil check`, `spec`, …).
 */
export const captureMigrations: Migration[] = [
  {
    version: 1,
    name: 'records and minute rollups',
    // One statement for both stores: SQLite reads BIGINT with INTEGER affinity and DOUBLE PRECISION with REAL.
    up: `
      CREATE TABLE capture_records (
        id TEXT PRIMARY KEY, time BIGINT NOT NULL, route TEXT NOT NULL, primary_route TEXT NOT NULL,
        status INTEGER NOT NULL, labels TEXT NOT NULL, record TEXT NOT NULL);
      CREATE INDEX capture_records_time ON capture_records (time);
      CREATE INDEX capture_records_route_time ON capture_records (primary_route, time);
      CREATE TABLE capture_rollups (
        bucket BIGINT NOT NULL, route TEXT NOT NULL, method TEXT NOT NULL, status_class TEXT NOT NULL, tenant TEXT NOT NULL,
        requests BIGINT NOT NULL, errors BIGINT NOT NULL, tokens BIGINT NOT NULL, duration_sum DOUBLE PRECISION NOT NULL, ${buckets},
        PRIMARY KEY (bucket, route, method, status_class, tenant));`,
  },
  {
    version: 2,
    name: 'drop the unused route index of records',
    // No query reads it (the route filter tests membership in `route`, every matched glob), and its upkeep was a
    // sizeable share of each insert's CPU (bench/store-insert.ts).
    up: 'DROP INDEX IF EXISTS capture_records_route_time;',
  },
  {
    version: 3,
    name: 'the time index of records carries the filtered columns',
    // SQLite: a filtered page walks the time index newest first; with status, labels and route in each entry, a
    // record that does not match is never read from the table, so a rare filter over a million records costs about a
    // sixth of what it did (bench/records-list.ts). It replaces the time index, so inserts still maintain one index
    // besides the id's, and cost the same (bench/records-stored.ts). PostgreSQL keeps its time index: its B-tree
    // entries must stay under about 2.7 KB, and labels are as long as the policy makes them.
    up: {
      sqlite: `
        CREATE INDEX capture_records_time_filters ON capture_records (time, status, labels, route);
        DROP INDEX IF EXISTS capture_records_time;`,
      postgres: 'CREATE INDEX IF NOT EXISTS capture_records_time ON capture_records (time);',
    },
  },
  {
    version: 4,
    name: 'requests per hour, rule, method and path shape',
    // The primary key leads with the hour: a range reads its hours and nothing else, on both stores.
    up: `
      CREATE TABLE capture_rule_paths (
        bucket BIGINT NOT NULL, rule TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, requests BIGINT NOT NULL,
        PRIMARY KEY (bucket, rule, method, path));`,
  },
  {
    version: 5,
    name: 'fields each route uses',
    // Field observations (gateway/fields/api-fields.ts), added up per route, location, status and name; read by
    // `vigil check`, `spec`, `sdk` and `mock`. `kinds` and `formats` are JSON objects of counts. Retention deletes by
    // last_seen, through its index. BIGINT reads as INTEGER on SQLite.
    up: `
      CREATE TABLE capture_fields (
        route TEXT NOT NULL, location TEXT NOT NULL, status INTEGER NOT NULL, name TEXT NOT NULL,
        count BIGINT NOT NULL, parents BIGINT NOT NULL, kinds TEXT NOT NULL, formats TEXT NOT NULL, redacted BIGINT NOT NULL,
        first_seen BIGINT NOT NULL, last_seen BIGINT NOT NULL,
        PRIMARY KEY (route, location, status, name));
      CREATE INDEX capture_fields_last_seen ON capture_fields (last_seen);`,
  },
  {
    version: 6,
    name: 'full-text search of record bodies',
    // Empty at first: a job indexes the records, the existing ones first, in bounded batches (record-search-index.ts).
    up: RECORD_SEARCH_UP,
  },
];
