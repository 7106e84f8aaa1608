import type { LogLine } from '../logs/log-line.js';
import type { LogAnswer, LogQuery } from '../logs/read-logs.js';
import { MATCH_BUDGET_MS, type MatchResult, type MatchTask } from './match-lines.js';
import { DEDUP_MS, MATCH_RETENTION_MS, MAX_LINES_PER_POLL, sourceKey, type Watcher } from './watcher.js';
import type { WatcherStore } from './watcher-store.js';

export interface PollerDeps {
  store: WatcherStore;
  /** `readLogs` with the plugin's allow-list. */
  read(query: LogQuery): Promise<LogAnswer>;
  /** Runs the patterns in the worker pool. */
  match(task: MatchTask): Promise<MatchResult>;
  now(): number;
}

export interface PollReport {
  /** Sources read. */
  sources: number;
  lines: number;
  /** Lines recorded per watcher (after de-duplication). */
  recorded: Record<string, string[]>;
}

/** The text a watcher's pattern sees: the unit (when the journal names one) and the message, as journalctl shows them. */
export function watchedText(line: LogLine): string {
  return line.unit ? `${line.unit}: ${line.message}` : line.message;
}

/**
 * One poll of every enabled watcher: each source is read once from where its last read ended (the first read only
 * notes where the source ends now, so old lines never fire), its new lines go through the watchers' patterns in the
 * worker, and what matched is recorded, a line repeated within 5 minutes once. Errors are kept per source and shown
 * by the API; one failing source does not stop the others.
 */
export async function pollWatchers(deps: PollerDeps): Promise<PollReport> {
  const report: PollReport = { sources: 0, lines: 0, recorded: {} };
  const config = await deps.store.config();
  if (!config.enabled) return report;
  const groups = new Map<string, Watcher[]>();
  for (const w of config.rules.filter((r) => r.enabled)) groups.set(sourceKey(w), [...(groups.get(sourceKey(w)) ?? []), w]);
  // Nothing to watch, nothing to do: the idle machine pays two small reads per interval.
  if (groups.size === 0) return report;
  for (const [key, watchers] of groups) {
    const { source, path } = watchers[0];
    const before = await deps.store.cursor(key);
    const now = deps.now();
    try {
      const query: LogQuery = { source, n: before?.cursor ? MAX_LINES_PER_POLL : 1, ...(path ? { path } : {}), ...(before?.cursor ? { cursor: before.cursor } : {}) };
      const answer = await deps.read(query);
      report.sources++;
      const problems: string[] = [];
      if (before?.cursor && answer.lines.length) {
        const lines = answer.lines.map(watchedText);
        report.lines += lines.length;
        const result = await deps.match({ lines, budgetMs: MATCH_BUDGET_MS, patterns: watchers.map((w) => ({ name: w.name, pattern: w.pattern, ignoreCase: w.ignore_case })) });
        for (const [i, w] of watchers.entries()) {
          const r = result[i];
          if (r.timedOut) { problems.push(`watcher "${w.name}": the pattern ran past ${MATCH_BUDGET_MS} ms over ${lines.length} lines; they were skipped`); continue; }
          report.recorded[w.name] = await deps.store.record(w.name, r.indices.map((j) => lines[j]), now, DEDUP_MS);
        }
      }
      await deps.store.saveCursor(key, {
        cursor: answer.cursor ?? before?.cursor ?? null,
        polled_at: answer.origin === 'none' ? before?.polled_at ?? null : now,
        last_error: problems.length ? problems.join('; ') : null,
        note: answer.note,
      });
    } catch (err) {
      await deps.store.saveCursor(key, { cursor: before?.cursor ?? null, polled_at: before?.polled_at ?? null, last_error: (err as Error).message, note: before?.note ?? null });
    }
  }
  await deps.store.prune(deps.now() - MATCH_RETENTION_MS);
  return report;
}
