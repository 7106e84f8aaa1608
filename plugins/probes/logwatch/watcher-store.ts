import { createHash } from 'node:crypto';
import type { Store } from '@vigil/plugin-sdk';
import type { LogSource } from '../logs/log-line.js';
import type { Watcher, WatcherConfig } from './watcher.js';

const WATCHERS = 'probes_logwatch_watchers';
const SETTINGS = 'probes_logwatch_settings';
const CURSORS = 'probes_logwatch_cursors';
const MATCHES = 'probes_logwatch_matches';

/** How far a source has been read. */
export interface SourceCursor { cursor: string | null; polled_at: number | null; last_error: string | null; note: string | null }

export interface RecordedMatch { line: string; seen_at: number }

const lineHash = (line: string) => createHash('sha256').update(line).digest('base64url').slice(0, 22);

/** The watchers, their read positions and their matches, in the store every process shares. */
export class WatcherStore {
  constructor(private readonly store: Store) {}

  async config(): Promise<WatcherConfig> {
    const [settings] = await this.store.query<{ enabled: number }>(`SELECT enabled FROM ${SETTINGS} WHERE id = 1`);
    const rows = await this.store.query<Record<string, unknown>>(`SELECT name, pattern, ignore_case, source, path, enabled FROM ${WATCHERS} ORDER BY position`);
    return {
      enabled: settings ? Number(settings.enabled) === 1 : true,
      rules: rows.map((r) => ({
        name: String(r.name), pattern: String(r.pattern), ignore_case: Number(r.ignore_case) === 1, source: String(r.source) as LogSource,
        path: r.path === null || r.path === undefined ? null : String(r.path), enabled: Number(r.enabled) === 1,
      })),
    };
  }

  /** Replaces every watcher (perch's POST /api/logwatchconfig); a removed watcher's matches go with it. */
  async replace(config: WatcherConfig, now: number): Promise<void> {
    await this.store.transaction(async (tx) => {
      await tx.run(`INSERT INTO ${SETTINGS} (id, enabled, updated_at) VALUES (1, ?, ?)
        ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`, [config.enabled ? 1 : 0, now]);
      const kept = new Set(config.rules.map((w) => w.name));
      for (const { name } of await tx.query<{ name: string }>(`SELECT name FROM ${WATCHERS}`)) {
        if (!kept.has(name)) await tx.run(`DELETE FROM ${MATCHES} WHERE watcher = ?`, [name]);
      }
      await tx.run(`DELETE FROM ${WATCHERS}`);
      if (config.rules.length) {
        await tx.insertMany(WATCHERS, ['name', 'position', 'pattern', 'ignore_case', 'source', 'path', 'enabled', 'updated_at'],
          config.rules.map((w: Watcher, i) => [w.name, i, w.pattern, w.ignore_case ? 1 : 0, w.source, w.path, w.enabled ? 1 : 0, now]));
      }
    });
  }

  async cursor(key: string): Promise<SourceCursor | undefined> {
    const [row] = await this.store.query<Record<string, unknown>>(`SELECT cursor, polled_at, last_error, note FROM ${CURSORS} WHERE source_key = ?`, [key]);
    if (!row) return undefined;
    const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
    return { cursor: text(row.cursor), polled_at: row.polled_at === null ? null : Number(row.polled_at), last_error: text(row.last_error), note: text(row.note) };
  }

  async saveCursor(key: string, c: SourceCursor): Promise<void> {
    await this.store.run(`INSERT INTO ${CURSORS} (source_key, cursor, polled_at, last_error, note) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (source_key) DO UPDATE SET cursor = excluded.cursor, polled_at = excluded.polled_at, last_error = excluded.last_error, note = excluded.note`,
    [key, c.cursor, c.polled_at, c.last_error, c.note]);
  }

  /**
   * Records the lines that matched `watcher` at `now`, but not a line recorded for it within the last `dedupMs`
   * (nor one twice in `lines`). Returns the lines recorded.
   */
  async record(watcher: string, lines: string[], now: number, dedupMs: number): Promise<string[]> {
    const fresh = new Map<string, string>();
    for (const line of lines) fresh.set(lineHash(line), line);
    if (fresh.size === 0) return [];
    return this.store.transaction(async (tx) => {
      const hashes = [...fresh.keys()];
      const seen = await tx.query<{ line_hash: string }>(
        `SELECT DISTINCT line_hash FROM ${MATCHES} WHERE watcher = ? AND seen_at > ? AND line_hash IN (${hashes.map(() => '?').join(', ')})`,
        [watcher, now - dedupMs, ...hashes]);
      for (const { line_hash } of seen) fresh.delete(line_hash);
      if (fresh.size) await tx.insertMany(MATCHES, ['watcher', 'line_hash', 'line', 'seen_at'], [...fresh].map(([hash, line]) => [watcher, hash, line, now]));
      return [...fresh.values()];
    });
  }

  /** Matches recorded for `watcher` in [from, to). */
  async count(watcher: string, from: number, to: number): Promise<number> {
    const [row] = await this.store.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${MATCHES} WHERE watcher = ? AND seen_at >= ? AND seen_at < ?`, [watcher, from, to]);
    return Number(row?.n ?? 0);
  }

  /** The newest matches of `watcher`, newest first. */
  async recent(watcher: string, limit: number): Promise<RecordedMatch[]> {
    const rows = await this.store.query<{ line: string; seen_at: number }>(
      `SELECT line, seen_at FROM ${MATCHES} WHERE watcher = ? ORDER BY seen_at DESC LIMIT ?`, [watcher, limit]);
    return rows.map((r) => ({ line: r.line, seen_at: Number(r.seen_at) }));
  }

  async prune(before: number): Promise<void> {
    await this.store.run(`DELETE FROM ${MATCHES} WHERE seen_at < ?`, [before]);
  }
}
