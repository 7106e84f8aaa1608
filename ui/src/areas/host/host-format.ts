// Figures of the host monitor: bytes and byte rates in binary units (what `free -h` and `df -h` print), shares of
// 0..100 as the server sends them, temperatures and load. A unit is joined by a no-break space, as in format/numbers.
import type { Tone } from '../../components/stat.js';
import { NBSP } from '../../format/numbers.js';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

const trimZeros = (text: string): string => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

/** Bytes in the largest binary unit under 1024 of it, with three significant digits: `512 B`, `1.5 KiB`, `7.63 GiB`. */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  let v = Math.abs(n);
  let unit = 0;
  while (v >= 1024 && unit < UNITS.length - 1) {
    v /= 1024;
    unit++;
  }
  // 1023.96 KiB would print as 1024 KiB: say 1 MiB.
  if (unit < UNITS.length - 1 && Number(v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2)) >= 1024) {
    v /= 1024;
    unit++;
  }
  const digits = unit === 0 ? 0 : v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${n < 0 ? '-' : ''}${trimZeros(v.toFixed(digits))}${NBSP}${UNITS[unit]}`;
}

/** A byte count as its number and its unit, for a figure that sets the unit smaller: `{ value: '1.5', unit: 'KiB' }`. */
export function splitBytes(n: number | null | undefined): { value: string; unit: string } {
  const text = formatBytes(n);
  const at = text.indexOf(NBSP);
  return at < 0 ? { value: text, unit: '' } : { value: text.slice(0, at), unit: text.slice(at + 1) };
}

/** Bytes a second: `0 B/s`, `12.3 KiB/s`, `1.2 GiB/s`. */
export function formatByteRate(perSecond: number | null | undefined): string {
  if (perSecond === null || perSecond === undefined || !Number.isFinite(perSecond)) return '—';
  return `${formatBytes(Math.max(0, perSecond))}/s`;
}

/** A share the server gives as 0..100: one decimal below 10 (`4.2%`), whole above (`42%`); null as `—`. */
export function formatShare(pct: number | null | undefined): string {
  if (pct === null || pct === undefined || !Number.isFinite(pct)) return '—';
  if (pct !== 0 && Math.abs(pct) < 0.1) return '<0.1%';
  return `${Math.abs(pct) < 10 ? trimZeros(pct.toFixed(1)) : Math.round(pct)}%`;
}

/** Degrees Celsius, whole: `54 °C`. */
export function formatCelsius(c: number | null | undefined): string {
  if (c === null || c === undefined || !Number.isFinite(c)) return '—';
  return `${Math.round(c)}${NBSP}°C`;
}

/** A load average with two decimals: `0.42`, `12.05`. */
export const formatLoad = (n: number): string => n.toFixed(2);

/** Thresholds of a share, 0..100: at or above `warning` it warns, at or above `danger` it is an alarm. */
export interface ShareLimits { warning: number; danger: number }

/** perch's alert defaults as the colours of a figure (CPU and memory 90/95, a disk 85/90: seed 002). */
export const LIMITS = {
  cpu: { warning: 80, danger: 90 },
  memory: { warning: 85, danger: 95 },
  disk: { warning: 85, danger: 90 },
  swap: { warning: 50, danger: 80 },
  temperature: { warning: 75, danger: 85 },
} as const satisfies Record<string, ShareLimits>;

/** The tone of a value against its limits: neutral below them (a healthy figure needs no colour), and for null. */
export function limitTone(value: number | null | undefined, limits: ShareLimits): Tone {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'neutral';
  if (value >= limits.danger) return 'danger';
  if (value >= limits.warning) return 'warning';
  return 'neutral';
}

/** A figure's tone only past a limit: none while healthy (the home tiles colour alarms alone). */
export function alarmTone(value: number | null | undefined, limits: ShareLimits): 'danger' | 'warning' | undefined {
  const tone = limitTone(value, limits);
  return tone === 'danger' || tone === 'warning' ? tone : undefined;
}

/** A bar's tone: the accent while healthy, the limit's tone beyond. */
export function meterTone(value: number | null | undefined, limits: ShareLimits): Tone {
  const tone = limitTone(value, limits);
  return tone === 'neutral' ? 'accent' : tone;
}

/** A battery's tone: low when at or under 15 % unplugged (perch's rule), warning under 30 % unplugged. */
export function batteryTone(percent: number, plugged: boolean): Tone {
  if (plugged) return 'success';
  if (percent <= 15) return 'danger';
  if (percent < 30) return 'warning';
  return 'neutral';
}
