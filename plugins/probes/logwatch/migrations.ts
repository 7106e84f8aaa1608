import type { Migration } from '@vigil/plugin-sdk';

/**
 * The log watchers (probes' migration 2). Times are epoch ms; booleans 0/1.
 *
 * - logwatch_settings: one row (id 1), whether watching is on at all.
 * - logwatch_watchers: the watchers, in the order the user gave them (`position`).
 * - logwatch_cursors: how far each source has been read (`journal:system`, `file:/var/log/x`), when, and the last
 *   error; shared by the watchers of that source, so one read serves them all.
 * - logwatch_matches: each recorded matching line; a line already recorded for the watcher within the de-duplication
 *   window is not recorded again (`line_hash` finds it).
 */
export const logwatchMigration: Migration = {
  version: 2,
  name: 'log watchers, their read positions and matches',
  up: `
    CREATE TABLE probes_logwatch_settings (id INTEGER PRIMARY KEY, enabled INTEGER NOT NULL, updated_at BIGINT NOT NULL);
    CREATE TABLE probes_logwatch_watchers (
      name TEXT PRIMARY KEY, position INTEGER NOT NULL, pattern TEXT NOT NULL, ignore_case INTEGER NOT NULL,
      source TEXT NOT NULL, path TEXT, enabled INTEGER NOT NULL, updated_at BIGINT NOT NULL);
    CREATE TABLE probes_logwatch_cursors (source_key TEXT PRIMARY KEY, cursor TEXT, polled_at BIGINT, last_error TEXT, note TEXT);
    CREATE TABLE probes_logwatch_matches (watcher TEXT NOT NULL, line_hash TEXT NOT NULL, line TEXT NOT NULL, seen_at BIGINT NOT NULL);
    CREATE INDEX probes_logwatch_matches_watcher ON probes_logwatch_matches (watcher, seen_at);
    CREATE INDEX probes_logwatch_matches_line ON probes_logwatch_matches (watcher, line_hash, seen_at);
    CREATE INDEX probes_logwatch_matches_seen ON probes_logwatch_matches (seen_at);`,
};
