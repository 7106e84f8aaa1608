import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { join } from 'node:path';

/** Failed logins from one place: a remote address for SSH, a local account for sudo. */
export interface FailureSource {
  kind: 'ssh' | 'sudo';
  /** The remote address (ssh) or the account that typed a wrong password (sudo). */
  source: string;
  attempts: number;
  /** Account names tried, at most 10. */
  users: string[];
  /** The newest attempt, ISO 8601; null when the log line's time could not be read. */
  last_seen: string | null;
}

export interface AuthFailures {
  /** Where the lines came from: the file read, or `journal`. */
  from: string;
  /** Worst first (most attempts), at most `MAX_SOURCES`. */
  sources: FailureSource[];
  /** Sources beyond the list. */
  more: number;
  /** Lines looked at (the tail of the log, at most `TAIL_BYTES`). */
  lines: number;
}

/** Log files of authentication, Debian's first, then Red Hat's. */
const AUTH_LOGS = ['/var/log/auth.log', '/var/log/secure'];
/** Only the end of a log is read: on a machine under a brute-force storm auth.log grows by megabytes a day. */
const TAIL_BYTES = 4 * 1024 * 1024;
const JOURNAL_LINES = 20_000;
const JOURNAL_TIMEOUT_MS = 5_000;
export const WINDOW_MS = 7 * 24 * 3_600_000;
const MAX_SOURCES = 50;
const MAX_USERS = 10;

const SSH_FAILED = /\bsshd\[\d+\]: Failed (?:password|publickey|keyboard-interactive\/pam|none) for (?:invalid user )?(\S*) from (\S+) port \d+/;
const SUDO_WRONG = /\bsudo(?:\[\d+\])?: +(\S+) : (?:(\d+) incorrect password attempts?|user NOT in sudoers)/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The time at the start of a log line: ISO 8601 (rsyslog's high-precision format, journalctl -o short-iso) or classic syslog (`Dec  4 10:00:00`, this year unless that is in the future). */
export function lineTime(line: string, now: number): number | null {
  const iso = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)/.exec(line);
  if (iso) {
    const t = Date.parse(iso[1]);
    return Number.isFinite(t) ? t : null;
  }
  const classic = /^([A-Z][a-z]{2}) +(\d{1,2}) (\d\d):(\d\d):(\d\d)/.exec(line);
  if (!classic) return null;
  const month = MONTHS.indexOf(classic[1]);
  if (month < 0) return null;
  const year = new Date(now).getFullYear();
  const at = (y: number) => new Date(y, month, Number(classic[2]), Number(classic[3]), Number(classic[4]), Number(classic[5])).getTime();
  const t = at(year);
  return t > now + 86_400_000 ? at(year - 1) : t;
}

/** Lines read between two yields to the event loop: a 4 MiB tail is about 37,000 lines, 20 to 60 ms in one go. */
const SLICE_LINES = 4_000;

/** Failed logins grouped by source as lines are added, in any number of slices. */
class FailureTally {
  private readonly bySource = new Map<string, FailureSource & { at: number }>();

  constructor(private readonly now: number) {}

  add(lines: readonly string[], from = 0, to = lines.length): void {
    for (let i = from; i < to; i++) {
      const line = lines[i];
      const ssh = SSH_FAILED.exec(line);
      const sudo = ssh ? null : SUDO_WRONG.exec(line);
      if (!ssh && !sudo) continue;
      const at = lineTime(line, this.now);
      if (at !== null && at < this.now - WINDOW_MS) continue;
      if (ssh) this.count('ssh', ssh[2], ssh[1], 1, at);
      else this.count('sudo', sudo![1], sudo![1], sudo![2] ? Number(sudo![2]) : 1, at);
    }
  }

  result(): { sources: FailureSource[]; more: number } {
    const all = [...this.bySource.values()].sort((a, b) => b.attempts - a.attempts || b.at - a.at);
    return { sources: all.slice(0, MAX_SOURCES).map(({ at: _at, ...s }) => s), more: Math.max(0, all.length - MAX_SOURCES) };
  }

  private count(kind: FailureSource['kind'], source: string, user: string, n: number, at: number | null): void {
    const key = `${kind} ${source}`;
    let s = this.bySource.get(key);
    if (!s) this.bySource.set(key, s = { kind, source, attempts: 0, users: [], last_seen: null, at: -Infinity });
    s.attempts += n;
    if (user && s.users.length < MAX_USERS && !s.users.includes(user)) s.users.push(user);
    if (at !== null && at > s.at) { s.at = at; s.last_seen = new Date(at).toISOString(); }
  }
}

/** Failed SSH logins by remote address and wrong sudo passwords by account, over the last week of `lines`. */
export function groupFailures(lines: readonly string[], now: number): { sources: FailureSource[]; more: number } {
  const tally = new FailureTally(now);
  tally.add(lines);
  return tally.result();
}

/** `groupFailures` in slices of `SLICE_LINES`, giving the event loop back between them. */
async function groupFailuresInSlices(lines: readonly string[], now: number): Promise<{ sources: FailureSource[]; more: number }> {
  const tally = new FailureTally(now);
  for (let i = 0; i < lines.length; i += SLICE_LINES) {
    if (i > 0) await new Promise((r) => setImmediate(r));
    tally.add(lines, i, Math.min(lines.length, i + SLICE_LINES));
  }
  return tally.result();
}

/** The last `TAIL_BYTES` of a file as lines (a first, cut line dropped), or undefined when it cannot be read. */
async function tailLines(path: string): Promise<string[] | undefined> {
  let file;
  try {
    file = await open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const { size } = await file.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    await file.read(buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8').split('\n');
    return start > 0 ? lines.slice(1) : lines;
  } finally {
    await file.close();
  }
}

function journalLines(): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    execFile('journalctl', ['-t', 'sshd', '-t', 'sudo', '--since', '-7d', '-n', String(JOURNAL_LINES), '-o', 'short-iso', '--no-pager', '-q'],
      { timeout: JOURNAL_TIMEOUT_MS, maxBuffer: TAIL_BYTES, env: { ...process.env, LC_ALL: 'C' } },
      (error, stdout) => resolve(error ? undefined : String(stdout).split('\n')));
  });
}

/**
 * Failed logins over the last week: the tail of auth.log (or secure) under `root`, else the journal (5 s timeout,
 * the last 20,000 lines of sshd and sudo). Null where neither can be read (no log, or not readable by Vigil's user).
 */
export async function readAuthFailures(root: string, now: number, journal = journalLines): Promise<AuthFailures | null> {
  for (const log of AUTH_LOGS) {
    const lines = await tailLines(join(root, log));
    if (lines) return { from: log, lines: lines.length, ...(await groupFailuresInSlices(lines, now)) };
  }
  if (root !== '/') return null;
  const lines = await journal();
  return lines ? { from: 'journal', lines: lines.length, ...(await groupFailuresInSlices(lines, now)) } : null;
}
