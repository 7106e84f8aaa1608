/** Where log lines come from: one of the journal's three views, or a file under the allow-list. */
export type LogSource = 'system' | 'user' | 'kernel' | 'file';
export const LOG_SOURCES: readonly LogSource[] = ['system', 'user', 'kernel', 'file'];

/** syslog priorities, 0 (emerg) to 7 (debug), as the journal numbers them. */
export const PRIORITY_NAMES = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'] as const;

/** One line, from the journal or a file. A file line has no priority, unit or pid: null, never a guess. */
export interface LogLine {
  /** ISO 8601; null for a file line (its own text carries whatever time it has). */
  time: string | null;
  priority: number | null;
  /** The unit, else the syslog identifier, else the command name. */
  unit: string | null;
  pid: number | null;
  message: string;
}

/** Characters of one message kept: a line past it is cut and ends with `…`. */
export const MAX_MESSAGE_CHARS = 4096;
/** Lines one answer holds at most. */
export const MAX_LINES = 1000;

export function clip(message: string): string {
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…` : message;
}

/** `3`, `err` or `error` → 3; undefined for anything else. */
export function parsePriority(value: string): number | undefined {
  const v = value.trim().toLowerCase();
  if (/^[0-7]$/.test(v)) return Number(v);
  const aliases: Record<string, number> = { error: 3, warn: 4, panic: 0, critical: 2, emergency: 0 };
  const i = (PRIORITY_NAMES as readonly string[]).indexOf(v);
  return i >= 0 ? i : aliases[v];
}
