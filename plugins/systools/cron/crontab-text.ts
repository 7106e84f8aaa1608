// A crontab as lines kept byte for byte: only the line an edit names changes, so comments, blank lines, variables
// and spacing come back exactly as they were read. Entries commented out with `#` read as disabled entries.
import { createHash } from 'node:crypto';
import { mapInSlices } from '../sliced-map.js';
import { describeSchedule, parseSchedule, ScheduleError, splitEntry } from './cron-schedule.js';

export type CronLineKind = 'entry' | 'comment' | 'blank' | 'variable' | 'invalid';

export interface CronLine {
  /** 0-based line number in the crontab: the id edits name. */
  line: number;
  kind: CronLineKind;
  /** The line as stored. */
  raw: string;
  /** Entries: false when commented out (`# 0 3 * * * job`). */
  enabled?: boolean;
  schedule?: string;
  command?: string;
  /** Entries: the schedule in words. */
  human?: string;
  /** Variables (`MAILTO=ops@example.com`). */
  name?: string;
  value?: string;
  /** Invalid lines: what cron would say. */
  error?: string;
}

export interface Crontab {
  lines: string[];
  /** Whether the text ended with a line break (the last element of `lines` is then not a line). */
  finalNewline: boolean;
}

export const MAX_CRONTAB_BYTES = 256 * 1024;
export const MAX_COMMAND_CHARS = 4096;

const VARIABLE = /^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*(.*)$/;
const DISABLED = /^([ \t]*)#[ \t]?/;

export function parseCrontab(text: string): Crontab {
  const finalNewline = text.endsWith('\n');
  const lines = (finalNewline ? text.slice(0, -1) : text).split('\n');
  return { lines: text === '' ? [] : lines, finalNewline: text === '' ? true : finalNewline };
}

/** The text to install: exactly the lines read, and a final line break, which `crontab -` requires. */
export function crontabText(c: Crontab): string {
  if (c.lines.length === 0) return '';
  return `${c.lines.join('\n')}\n`;
}

/** A short digest of the text: the page sends it back with an edit so a crontab changed meanwhile is not overwritten. */
export function crontabRevision(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function entryOf(body: string): Pick<CronLine, 'schedule' | 'command' | 'human'> | null {
  try {
    const { schedule, command } = splitEntry(body);
    if (command.trim() === '') return null;
    return { schedule: schedule.text, command, human: describeSchedule(schedule) };
  } catch {
    return null;
  }
}

/** Each line with what it is. */
export function describeLines(c: Crontab): CronLine[] {
  return c.lines.map(describeLine);
}

/** The same, giving the event loop back every few hundred lines (a crontab may be up to 256 KiB). */
export function describeLinesSliced(c: Crontab): Promise<CronLine[]> {
  return mapInSlices(c.lines, describeLine);
}

function describeLine(raw: string, line: number): CronLine {
  const text = raw.replace(/\r$/, '');
  if (text.trim() === '') return { line, kind: 'blank', raw };
  const disabled = DISABLED.exec(text);
  if (disabled) {
    const entry = entryOf(text.slice(disabled[0].length));
    return entry ? { line, kind: 'entry', raw, enabled: false, ...entry } : { line, kind: 'comment', raw };
  }
  const variable = VARIABLE.exec(text);
  if (variable) return { line, kind: 'variable', raw, name: variable[1], value: variable[2] };
  try {
    const { schedule, command } = splitEntry(text);
    if (command.trim() === '') return { line, kind: 'invalid', raw, error: 'the entry has a schedule but no command' };
    return { line, kind: 'entry', raw, enabled: true, schedule: schedule.text, command, human: describeSchedule(schedule) };
  } catch (err) {
    return { line, kind: 'invalid', raw, error: err instanceof ScheduleError ? err.message : String(err) };
  }
}

export class CronEditError extends Error {
  constructor(readonly kind: 'schedule' | 'command' | 'line', message: string) {
    super(message);
  }
}

/** `schedule command` as one checked line. */
export function entryLine(schedule: string, command: string): string {
  let parsed;
  try {
    parsed = parseSchedule(schedule);
  } catch (err) {
    throw new CronEditError('schedule', err instanceof Error ? err.message : String(err));
  }
  if (command.trim() === '') throw new CronEditError('command', 'the command is empty');
  if (/[\r\n\0]/.test(command)) throw new CronEditError('command', 'the command holds a line break or NUL: one entry is one line');
  if (command.length > MAX_COMMAND_CHARS) throw new CronEditError('command', `the command is ${command.length} characters; at most ${MAX_COMMAND_CHARS}`);
  return `${parsed.text} ${command.trim()}`;
}

export type CronEdit =
  | { op: 'add'; schedule: string; command: string }
  | { op: 'edit'; line: number; schedule: string; command: string }
  | { op: 'disable' | 'enable' | 'delete'; line: number };

function entryAt(c: Crontab, line: number): CronLine {
  const found = line >= 0 && line < c.lines.length ? describeLines({ lines: [c.lines[line]], finalNewline: true })[0] : undefined;
  if (!found || found.kind !== 'entry') throw new CronEditError('line', `line ${line + 1} of the crontab is ${found ? `a ${found.kind} line, not an entry` : 'beyond its end'}`);
  return found;
}

/** The crontab after one edit; every other line is untouched. */
export function applyEdit(c: Crontab, edit: CronEdit): Crontab {
  const lines = [...c.lines];
  switch (edit.op) {
    case 'add':
      lines.push(entryLine(edit.schedule, edit.command));
      break;
    case 'edit': {
      const old = entryAt(c, edit.line);
      const next = entryLine(edit.schedule, edit.command);
      lines[edit.line] = old.enabled ? next : `# ${next}`;
      break;
    }
    case 'disable': {
      const old = entryAt(c, edit.line);
      if (old.enabled) lines[edit.line] = `# ${old.raw}`;
      break;
    }
    case 'enable': {
      const old = entryAt(c, edit.line);
      if (!old.enabled) lines[edit.line] = old.raw.replace(DISABLED, '$1');
      break;
    }
    case 'delete':
      entryAt(c, edit.line);
      lines.splice(edit.line, 1);
      break;
  }
  return { lines, finalNewline: true };
}
