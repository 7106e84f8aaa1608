import { tryParseDuration } from './units.js';

const isoDateTime = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A `since` query parameter of the public API as epoch ms, or undefined when it is none: digits (epoch ms), an ISO 8601
 * date or date-time (UTC without an offset), or a duration back from now (`15m`, `7d`). Shared so that every plugin's
 * list reads `since` alike; each answers a bad one with its own error code.
 */
export function tryParseSince(value: string, now = Date.now()): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  if (/^[\d.]+[a-z]/.test(text)) {
    const ms = tryParseDuration(text);
    if (ms !== undefined) return now - ms;
  }
  const iso = isoDateTime.exec(text);
  if (!iso) return undefined;
  const t = Date.parse(iso[1] === undefined && text.length > 10 ? `${text}Z` : text);
  if (Number.isNaN(t)) return undefined;
  // Date.parse rolls 2024-02-30 over to March; a date that is not on the calendar is refused, not moved.
  return iso[1] !== undefined || new Date(t).toISOString().slice(0, 10) === text.slice(0, 10) ? t : undefined;
}
