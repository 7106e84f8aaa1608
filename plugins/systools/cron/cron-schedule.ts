// A crontab schedule (crontab(5), Vixie/ISC cron as Debian ships it): five fields or an @ word, checked as cron
// checks it, and read out in words ("every weekday at 03:00"). Pure functions over one line: bounded by the line.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The @ words cron accepts, and what each means in words. */
export const SPECIAL_SCHEDULES: Record<string, string> = {
  '@reboot': 'once, when cron starts (at boot)',
  '@yearly': 'every year on 1 January at 00:00',
  '@annually': 'every year on 1 January at 00:00',
  '@monthly': 'on the first day of every month at 00:00',
  '@weekly': 'every Sunday at 00:00',
  '@daily': 'every day at 00:00',
  '@midnight': 'every day at 00:00',
  '@hourly': 'every hour, on the hour',
};

interface FieldSpec { name: string; min: number; max: number; names?: string[] }
const FIELDS: FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  { name: 'day of week', min: 0, max: 7, names: DAYS },
];

/** One comma-separated part of a field: a value, a range, or either with a step (`*` is the whole range). */
interface Part { from: number; to: number; step: number; star: boolean }

export class ScheduleError extends Error {}

function value(text: string, spec: FieldSpec): number {
  const lower = text.toLowerCase();
  if (spec.names) {
    const i = spec.names.indexOf(lower);
    // Month names count from 1; day names from 0 (Sunday).
    if (i >= 0) return spec.name === 'month' ? i + 1 : i;
  }
  if (!/^\d{1,2}$/.test(text)) {
    const names = spec.names ? ` or a name (${spec.names.slice(0, 3).join(', ')}, …)` : '';
    throw new ScheduleError(`the ${spec.name} field has "${text}": expected a number from ${spec.min} to ${spec.max}${names}`);
  }
  const n = Number(text);
  if (n < spec.min || n > spec.max) throw new ScheduleError(`the ${spec.name} field has ${n}: it must be from ${spec.min} to ${spec.max}`);
  return n;
}

function parseField(text: string, spec: FieldSpec): Part[] {
  if (text === '') throw new ScheduleError(`the ${spec.name} field is empty`);
  return text.split(',').map((piece) => {
    const [range, stepText, extra] = piece.split('/');
    if (extra !== undefined) throw new ScheduleError(`the ${spec.name} field has "${piece}": one step (/n) at most`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d{1,2}$/.test(stepText) || Number(stepText) === 0) throw new ScheduleError(`the ${spec.name} field has the step "/${stepText}": a step is a whole number from 1`);
      step = Number(stepText);
    }
    if (range === '*') return { from: spec.min, to: spec.max, step, star: true };
    const [a, b, more] = range.split('-');
    if (more !== undefined || a === '') throw new ScheduleError(`the ${spec.name} field has "${piece}": expected a value, a range a-b, or *`);
    const from = value(a, spec);
    // cron reads `5/15` as `5-<max>/15`.
    const to = b !== undefined ? value(b, spec) : stepText !== undefined ? spec.max : from;
    if (to < from) throw new ScheduleError(`the ${spec.name} field has the range "${range}", which runs backwards`);
    return { from, to, step, star: false };
  });
}

export interface ParsedSchedule {
  /** The schedule as written (`0 3 * * 1-5` or `@daily`). */
  text: string;
  special: string | null;
  fields: Part[][] | null;
}

/** Splits a crontab entry's schedule from its command; throws ScheduleError with the field at fault. */
export function splitEntry(line: string): { schedule: ParsedSchedule; command: string } {
  const trimmed = line.replace(/^[ \t]+/, '');
  if (trimmed.startsWith('@')) {
    const m = /^(@\S+)[ \t]+(.*)$/.exec(trimmed);
    const word = (m?.[1] ?? trimmed.split(/\s/)[0]).toLowerCase();
    if (!Object.hasOwn(SPECIAL_SCHEDULES, word)) throw new ScheduleError(`"${word}" is not a schedule word; cron knows ${Object.keys(SPECIAL_SCHEDULES).join(', ')}`);
    return { schedule: { text: m?.[1] ?? word, special: word, fields: null }, command: m?.[2] ?? '' };
  }
  const m = /^(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)(?:[ \t]+(.*))?$/.exec(trimmed);
  if (!m) throw new ScheduleError('a schedule is five fields (minute hour day-of-month month day-of-week) or an @ word such as @daily');
  return { schedule: parseSchedule(m.slice(1, 6).join(' ')), command: m[6] ?? '' };
}

/** Checks a schedule as the user typed it (five fields or an @ word), without a command. */
export function parseSchedule(text: string): ParsedSchedule {
  const t = text.trim();
  if (t.startsWith('@')) {
    const word = t.toLowerCase();
    if (!Object.hasOwn(SPECIAL_SCHEDULES, word)) throw new ScheduleError(`"${t}" is not a schedule word; cron knows ${Object.keys(SPECIAL_SCHEDULES).join(', ')}`);
    return { text: t, special: word, fields: null };
  }
  const parts = t.split(/[ \t]+/);
  if (parts.length !== 5) throw new ScheduleError(`a schedule is five fields (minute hour day-of-month month day-of-week); "${t.slice(0, 80)}" has ${parts.length}`);
  return { text: parts.join(' '), special: null, fields: parts.map((p, i) => parseField(p, FIELDS[i])) };
}

const pad = (n: number) => String(n).padStart(2, '0');

function list(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

const single = (f: Part[]) => f.length === 1 && !f[0].star && f[0].from === f[0].to;
const whole = (f: Part[]) => f.length === 1 && f[0].star && f[0].step === 1;

/** A field's values in words with `name` mapping a value to a word. */
function partsText(f: Part[], name: (n: number) => string, unit: string): string {
  return list(f.map((p) => {
    if (p.star) return `every ${p.step === 1 ? unit : `${p.step}${ordinalSuffix(p.step)} ${unit}`}`;
    if (p.from === p.to) return name(p.from);
    const range = `${name(p.from)} to ${name(p.to)}`;
    return p.step === 1 ? range : `every ${p.step}${ordinalSuffix(p.step)} ${unit} from ${range}`;
  }));
}

function ordinalSuffix(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
}

const dayName = (n: number) => DAY_NAMES[n % 7];
const monthName = (n: number) => MONTH_NAMES[n - 1];

/** The days of the week as a noun phrase: `weekday`, `Saturday and Sunday`, `Monday and Friday`, `day`. */
function weekdays(f: Part[]): string {
  // The common sets read as people say them.
  const set = new Set<number>();
  for (const p of f) for (let v = p.from; v <= p.to; v += p.step) set.add(v % 7);
  const key = [...set].sort().join(',');
  if (key === '1,2,3,4,5') return 'weekday';
  if (key === '0,6') return 'Saturday and Sunday';
  if (set.size === 7) return 'day';
  return partsText(f, dayName, 'day');
}

function timeOfDay(minute: Part[], hour: Part[]): string {
  if (single(minute) && single(hour)) return `at ${pad(hour[0].from)}:${pad(minute[0].from)}`;
  if (single(minute) && hour.every((p) => !p.star && p.from === p.to) && hour.length <= 6) {
    return `at ${list(hour.map((h) => `${pad(h.from)}:${pad(minute[0].from)}`))}`;
  }
  const minutes = whole(minute) ? 'every minute'
    : minute.length === 1 && minute[0].star ? `every ${minute[0].step} minutes`
    : single(minute) ? (minute[0].from === 0 ? 'on the hour' : `at minute ${minute[0].from}`)
    : `at minutes ${partsText(minute, String, 'minute')}`;
  if (whole(hour)) return minutes.startsWith('every ') ? minutes : `every hour ${minutes}`;
  if (hour.length === 1 && hour[0].star) return `every ${hour[0].step} hours ${minutes}`;
  const hours = `during hour${hour.length === 1 && hour[0].from === hour[0].to ? '' : 's'} ${partsText(hour, (h) => pad(h), 'hour')}`;
  return `${minutes}, ${hours}`;
}

/** The schedule in words: "every weekday at 03:00", "every 15 minutes", "on day 1 of every month at 00:00". */
export function describeSchedule(s: ParsedSchedule): string {
  if (s.special) return SPECIAL_SCHEDULES[s.special];
  const [minute, hour, dom, month, dow] = s.fields!;
  const time = timeOfDay(minute, hour);
  const days: string[] = [];
  const domAll = whole(dom);
  const dowAll = whole(dow);
  if (!domAll) {
    const many = dom.length > 1 || dom[0].from !== dom[0].to;
    days.push(dom.length === 1 && dom[0].star ? `every ${dom[0].step}${ordinalSuffix(dom[0].step)} day of the month` : `on day${many ? 's' : ''} ${partsText(dom, String, 'day')} of the month`);
  }
  // cron runs when either day field matches if both are restricted (crontab(5)): say "or".
  if (!dowAll) {
    const names = weekdays(dow);
    days.push(domAll ? `every ${names}` : `on ${names === 'weekday' ? 'weekdays' : names}`);
  }
  const months = whole(month) ? '' : ` in ${partsText(month, monthName, 'month')}`;
  const day = days.join(' or ');
  // "every weekday at 03:00", but "every 5 minutes, every weekday": a time of day reads after the days, a rate before.
  if (time.startsWith('at ')) return `${day || 'every day'} ${time}${months}`;
  return (day ? `${time}, ${day}` : time) + months;
}
