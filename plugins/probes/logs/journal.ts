import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { clip, type LogLine } from './log-line.js';

/** What one journal read asks for. Every field is a validated value: nothing here is ever given to a shell. */
export interface JournalQuery {
  view: 'system' | 'user' | 'kernel';
  /** Lines, newest last; at most `MAX_LINES`. */
  n: number;
  /** Highest priority number kept (3 keeps emerg..err). */
  maxPriority?: number;
  /** Case-insensitive text the message contains (matched literally: it is escaped before journalctl sees it). */
  text?: string;
  /** Only entries after this cursor (a previous answer's `cursor`). */
  afterCursor?: string;
  /** Only entries at or after this time, epoch ms (the watchers' first read). */
  sinceMs?: number;
}

export interface JournalOptions {
  /** Read journal files from this directory instead of the system's (`journalctl --directory`). */
  directory?: string;
  timeoutMs?: number;
  /** Bytes of output read at most; a read past it fails rather than growing. */
  maxBytes?: number;
}

export interface JournalAnswer { lines: LogLine[]; cursor: string | null }

export const JOURNAL_TIMEOUT_MS = 5_000;
/** Output read at most: 1,000 entries whose messages reach the journal's 48 KiB line limit fit. */
export const JOURNAL_MAX_BYTES = 64 * 1024 * 1024;
/** A cursor as journalctl prints it: `s=…;i=…;b=…;m=…;t=…;x=…`, hex values. */
export const JOURNAL_CURSOR = /^[a-z]=[0-9a-f]{1,64}(;[a-z]=[0-9a-f]{1,64}){0,9}$/;

// Only these fields are printed (`--output-fields`), so a huge binary field of some entry never reaches us.
const FIELDS = ['MESSAGE', 'PRIORITY', 'SYSLOG_IDENTIFIER', '_SYSTEMD_UNIT', '_SYSTEMD_USER_UNIT', '_COMM', '_PID'];

/** PCRE2 metacharacters, escaped so that `--grep` matches the text literally. */
function literal(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** The argument list for `journalctl` (no shell ever sees it). */
export function journalArgs(query: JournalQuery, options: JournalOptions = {}): string[] {
  const args = ['--output=json', '--no-pager', '--quiet', `--output-fields=${FIELDS.join(',')}`, `--lines=${query.n}`];
  if (options.directory) args.push(`--directory=${options.directory}`);
  if (query.view === 'system') args.push('--system');
  else if (query.view === 'user') args.push('--user');
  // A match rather than --dmesg, which implies the current boot and fails on a journal without it.
  else args.push('_TRANSPORT=kernel');
  if (query.maxPriority !== undefined) args.push(`--priority=0..${query.maxPriority}`);
  if (query.text) args.push(`--grep=${literal(query.text)}`, '--case-sensitive=false');
  // journalctl takes one of the two.
  if (query.afterCursor) args.push(`--after-cursor=${query.afterCursor}`);
  else if (query.sinceMs !== undefined) args.push(`--since=@${Math.floor(query.sinceMs / 1000)}`);
  return args;
}

/** A MESSAGE that is not valid UTF-8 comes as an array of bytes; one too large for journalctl as null. */
function messageText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return Buffer.from(value.filter((b): b is number => typeof b === 'number')).toString('utf8');
  return '';
}

/** One `journalctl -o json` line as a `LogLine`, with its cursor; undefined for a line that is not an entry. */
export function parseJournalEntry(json: string): { line: LogLine; cursor: string } | undefined {
  let e: Record<string, unknown>;
  try { e = JSON.parse(json) as Record<string, unknown>; } catch { return undefined; }
  if (typeof e.__CURSOR !== 'string') return undefined;
  const micros = Number(e.__REALTIME_TIMESTAMP);
  const priority = Number(e.PRIORITY);
  const pid = Number(e._PID);
  const unit = [e._SYSTEMD_UNIT, e._SYSTEMD_USER_UNIT, e.SYSLOG_IDENTIFIER, e._COMM].find((v): v is string => typeof v === 'string' && v !== '');
  return {
    cursor: e.__CURSOR,
    line: {
      time: Number.isFinite(micros) && micros > 0 ? new Date(Math.floor(micros / 1000)).toISOString() : null,
      priority: e.PRIORITY !== undefined && Number.isInteger(priority) && priority >= 0 && priority <= 7 ? priority : null,
      unit: unit ?? null,
      pid: Number.isInteger(pid) && pid > 0 ? pid : null,
      message: clip(messageText(e.MESSAGE)),
    },
  };
}

/**
 * Reads the journal with `journalctl -o json` (spawned with an argument list, never a shell, under a timeout). Each
 * line is parsed and clipped as it arrives, so memory holds the answer plus one line; output past `maxBytes` stops
 * journalctl and fails the read. Exit status 1 with no output at all is journalctl's "nothing matched" under
 * `--grep`, not an error.
 */
export function readJournal(query: JournalQuery, options: JournalOptions = {}): Promise<JournalAnswer> {
  const args = journalArgs(query, options);
  const timeoutMs = options.timeoutMs ?? JOURNAL_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? JOURNAL_MAX_BYTES;
  return new Promise((resolve, reject) => {
    const child = spawn('journalctl', args, {
      stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, windowsHide: true,
      env: { ...process.env, SYSTEMD_PAGER: '', SYSTEMD_COLORS: '0', LC_ALL: 'C.UTF-8' },
    });
    const lines: LogLine[] = [];
    let cursor: string | null = null;
    let pending = '';
    let bytes = 0;
    let stderr = '';
    let failure: string | undefined;
    const take = (text: string) => {
      const entry = text ? parseJournalEntry(text) : undefined;
      if (!entry) return;
      lines.push(entry.line);
      cursor = entry.cursor;
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      bytes += Buffer.byteLength(chunk);
      if (bytes > maxBytes) {
        failure ??= `more than ${maxBytes} bytes of output; ask for fewer lines`;
        child.kill('SIGKILL');
        return;
      }
      const parts = (pending + chunk).split('\n');
      pending = parts.pop()!;
      for (const part of parts) take(part);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => { if (stderr.length < 4096) stderr += chunk; });
    child.on('error', (err) => { failure ??= err.message; });
    child.on('close', (code, signal) => {
      take(pending);
      if (signal === 'SIGTERM' && !failure) failure = `timed out after ${timeoutMs} ms`;
      const grepMissed = code === 1 && bytes === 0 && stderr.trim() === '' && query.text;
      if (failure || (code !== 0 && !grepMissed)) {
        reject(new Error(`journalctl: ${failure ?? (stderr.trim().split('\n')[0] || `exited with ${code ?? signal}`)}`));
        return;
      }
      resolve({ lines, cursor });
    });
  });
}

/** Where journald keeps its files: volatile first, then persistent. */
export const JOURNAL_DIRS = ['/run/log/journal', '/var/log/journal'];

/**
 * Whether there is a journal to read: some `*.journal` file under a machine-id folder of `dirs`. journalctl can be
 * installed where journald never ran (a container, a machine booted without systemd); it then answers nothing, and
 * the caller should read files instead and say so.
 */
export async function journalPresent(dirs: readonly string[] = JOURNAL_DIRS): Promise<boolean> {
  for (const dir of dirs) {
    let machines: string[];
    try { machines = await readdir(dir); } catch { continue; }
    // The default namespace's folder is the machine id; `<id>.<namespace>` folders are not what plain journalctl reads.
    for (const machine of machines.filter((m) => /^[0-9a-f]{32}$/.test(m)).slice(0, 16)) {
      try {
        if ((await readdir(join(dir, machine))).some((f) => f.endsWith('.journal') || f.endsWith('.journal~'))) return true;
      } catch { /* not a folder, or not ours to read */ }
    }
  }
  return false;
}
