import { access } from 'node:fs/promises';
import { journalPresent, readJournal, JOURNAL_CURSOR, type JournalOptions } from './journal.js';
import { allowedLogFile, fileLines, LogFileRefused, readLogFile } from './log-file.js';
import type { LogLine, LogSource } from './log-line.js';

export interface LogQuery {
  source: LogSource;
  /** For `file`: an absolute path under the allow-list. */
  path?: string;
  n: number;
  maxPriority?: number;
  text?: string;
  cursor?: string;
}

export interface LogAnswer {
  source: LogSource;
  /** What was read: the journal, a file, or nothing at all. */
  origin: 'journal' | 'file' | 'none';
  /** The file read, for `origin: file`. */
  path: string | null;
  lines: LogLine[];
  /** Pass it back as `cursor` for the lines after these. */
  cursor: string | null;
  /** A file's tail was longer than one read: its oldest lines were skipped. */
  truncated: boolean;
  /** Why the answer is not what was asked: no journal here and a file read instead, a filter that does not apply. */
  note: string | null;
}

export interface LogReaderOptions {
  /** Folders whose files may be read (realpath containment). */
  allowedPaths: readonly string[];
  /** The journal's folders, for the "is there a journal" check (default: the system's). */
  journalDirs?: readonly string[];
  journal?: JournalOptions;
  /** The files each journal view falls back to without a journal (default `FALLBACK_FILES`). */
  fallbackFiles?: Record<'system' | 'user' | 'kernel', readonly string[]>;
}

/** The files a journal view falls back to where there is no journal (syslog daemons' usual names). */
export const FALLBACK_FILES: Record<'system' | 'user' | 'kernel', readonly string[]> = {
  system: ['/var/log/syslog', '/var/log/messages'],
  kernel: ['/var/log/kern.log'],
  user: [],
};

async function firstExisting(paths: readonly string[]): Promise<string | undefined> {
  for (const p of paths) {
    try { await access(p); return p; } catch { /* next */ }
  }
  return undefined;
}

/** The last `n` lines of a file that contain `text` (case-insensitive), after `cursor` when given. */
async function fromFile(real: string, query: LogQuery): Promise<Pick<LogAnswer, 'lines' | 'cursor' | 'truncated'>> {
  const read = await readLogFile(real, query.cursor);
  const needle = query.text?.toLowerCase();
  const kept = needle ? read.lines.filter((l) => l.toLowerCase().includes(needle)) : read.lines;
  return { lines: fileLines(kept.slice(-query.n)), cursor: read.cursor, truncated: read.truncated };
}

/**
 * Lines of the journal (system, user or kernel) or of a file. Without a journal on this machine a journal view
 * reads its usual syslog file instead and the answer's `note` says so; without either it answers no lines and says
 * why. Throws `LogFileRefused` for a file outside the allow-list.
 */
export async function readLogs(query: LogQuery, options: LogReaderOptions): Promise<LogAnswer> {
  const base = { source: query.source, path: null, cursor: null, truncated: false, note: null };
  if (query.source === 'file') {
    if (!query.path) throw new LogFileRefused('path: give the file to read with source=file');
    const real = await allowedLogFile(query.path, options.allowedPaths);
    const read = await fromFile(real, query);
    const note = query.maxPriority !== undefined ? 'prio applies to the journal only: a file line has no priority' : null;
    return { ...base, origin: 'file', path: real, ...read, note };
  }
  // A journal folder given explicitly is read as it is; otherwise the system's, when journald keeps one.
  if (options.journal?.directory || await journalPresent(options.journalDirs)) {
    const cursor = query.cursor && JOURNAL_CURSOR.test(query.cursor) ? query.cursor : undefined;
    const answer = await readJournal({ view: query.source, n: query.n, maxPriority: query.maxPriority, text: query.text, afterCursor: cursor }, options.journal);
    return { ...base, origin: 'journal', lines: answer.lines, cursor: answer.cursor ?? query.cursor ?? null };
  }
  const fallbacks = (options.fallbackFiles ?? FALLBACK_FILES)[query.source];
  const candidates = fallbacks.filter((p) => options.allowedPaths.some((dir) => p.startsWith(dir.endsWith('/') ? dir : `${dir}/`)));
  const file = await firstExisting(candidates);
  const noJournal = 'There is no journal on this machine (journald keeps no files here)';
  if (!file) {
    const tried = fallbacks;
    return { ...base, origin: 'none', lines: [], note: `${noJournal}, and ${tried.length ? `no ${tried.join(' or ')} either` : `the ${query.source} view has no file to fall back to`}. Read a file under ${options.allowedPaths.join(', ')} with source=file.` };
  }
  const real = await allowedLogFile(file, options.allowedPaths);
  const read = await fromFile(real, { ...query, cursor: query.cursor && !JOURNAL_CURSOR.test(query.cursor) ? query.cursor : undefined });
  return { ...base, origin: 'file', path: real, ...read, note: `${noJournal}: these lines are ${real}'s${query.maxPriority !== undefined ? ', which have no priority to filter on' : ''}.` };
}
