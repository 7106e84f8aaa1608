// syslog priorities (RFC 5424), as journalctl's `-p` takes them: a filter keeps the priority chosen and every more
// severe one.
import type { Tone } from '../../components/stat.js';

export const PRIORITIES = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'] as const;
export type PriorityName = (typeof PRIORITIES)[number];

/** The priority's name for a number 0..7; out of range reads as `info`. */
export const priorityName = (n: number): PriorityName => PRIORITIES[Number.isInteger(n) && n >= 0 && n <= 7 ? n : 6];

/** The filter's words: `err` → `Errors and worse`. */
export const PRIORITY_LABEL: Record<PriorityName, string> = {
  emerg: 'Emergencies', alert: 'Alerts and worse', crit: 'Critical and worse', err: 'Errors and worse',
  warning: 'Warnings and worse', notice: 'Notices and worse', info: 'Info and worse', debug: 'Everything',
};

/** A priority's tone in the list: errors and worse danger, warnings warning, the rest quiet. */
export function priorityTone(n: number): Tone {
  if (n <= 3) return 'danger';
  if (n === 4) return 'warning';
  if (n === 5) return 'accent';
  return 'neutral';
}

/** Whether `text` is a priority name the filter takes. */
export const isPriority = (text: string): text is PriorityName => (PRIORITIES as readonly string[]).includes(text);
