// What kind of value a string holds, for field observations (api-fields.ts): its format (email, uuid, date-time,
// date, uri, ipv4, card-like), and, for query, header and path values, whether it reads as a number. Only the
// format's name is kept, never the value.
import type { JsonKind, ValueFormat } from './api-fields.js';
import { luhnValid } from '../../policies/detectors/index.js';

/** Format indexes, in the order of `FORMAT_NAMES`; -1 is none. */
export const FORMAT_NAMES: readonly ValueFormat[] = ['email', 'uuid', 'date-time', 'date', 'uri', 'ipv4', 'card-like', 'integer'];
export const EMAIL = 0;
export const UUID = 1;
export const DATE_TIME = 2;
export const DATE = 3;
export const URI = 4;
export const IPV4 = 5;
export const CARD_LIKE = 6;
export const INTEGER_FORMAT = 7;
export const NO_FORMAT = -1;

/** Kind indexes, in the order of `KIND_NAMES`. */
export const KIND_NAMES: readonly JsonKind[] = ['string', 'integer', 'number', 'boolean', 'null', 'object', 'array'];
export const STRING = 0;
export const INTEGER = 1;
export const NUMBER = 2;
export const BOOLEAN = 3;
export const NULL = 4;
export const OBJECT = 5;
export const ARRAY = 6;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_RE = /^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$/;
const DATE_TIME_RE = /^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])[Tt ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:[Zz]|[+-][0-9]{2}:?[0-9]{2})?$/;
const EMAIL_RE = /^[^@\s"<>()[\],;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
const URI_RE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s]+$|^(?:mailto|urn|tel|data):[^\s]+$/;
const IPV4_RE = /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
const CARD_RE = /^[0-9](?:[ -]?[0-9]){12,18}$/;
const INTEGER_RE = /^-?(?:0|[1-9][0-9]*)$/;
const NUMBER_RE = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
/** Longest string tested for a format: the formats are all short; a long text is prose or a blob. */
const MAX_FORMAT_LENGTH = 2048;

/**
 * The format of `text[from, to)`, a string's characters without escapes, or -1. A first look at the characters
 * decides which single test may apply, so most strings (words, names, prose) cost a few comparisons and no slice.
 */
export function formatOfRange(text: string, from: number, to: number): number {
  const length = to - from;
  if (length < 3 || length > MAX_FORMAT_LENGTH) return NO_FORMAT;
  const first = text.charCodeAt(from);
  const isDigit = first >= 48 && first <= 57;
  if (length === 36 && text.charCodeAt(from + 8) === 45 /* - */ && text.charCodeAt(from + 13) === 45) {
    return UUID_RE.test(text.slice(from, to)) ? UUID : NO_FORMAT;
  }
  if (isDigit) {
    if (length >= 10 && text.charCodeAt(from + 4) === 45 && text.charCodeAt(from + 7) === 45) {
      const s = text.slice(from, to);
      if (length === 10) return DATE_RE.test(s) ? DATE : NO_FORMAT;
      return DATE_TIME_RE.test(s) ? DATE_TIME : NO_FORMAT;
    }
    if (length >= 7 && length <= 15 && text.charCodeAt(from + 1) !== 45) {
      const s = text.slice(from, to);
      if (IPV4_RE.test(s)) return IPV4;
      return length >= 13 ? cardLike(s) : NO_FORMAT;
    }
    if (length >= 13 && length <= 37) return cardLike(text.slice(from, to));
  }
  // Emails and URIs hold a character no word has: look for it (within the string: `indexOf` would search the rest
  // of the document) before slicing. An email's `@` comes within 65 characters (a local part has at most 64), a
  // URI's scheme ends within 32: a long text is looked at no further.
  const end = Math.min(to, from + 65);
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 64 /* @ */) return EMAIL_RE.test(text.slice(from, to)) ? EMAIL : NO_FORMAT;
    if (c === 58 /* : */ && i - from <= 32) return URI_RE.test(text.slice(from, to)) ? URI : NO_FORMAT;
    if (c === 32 /* space */) return NO_FORMAT; // neither has a space
  }
  return NO_FORMAT;
}

/** 13 to 19 digits, spaces or dashes between them, Luhn valid. */
function cardLike(s: string): number {
  if (!CARD_RE.test(s)) return NO_FORMAT;
  return luhnValid(s.replace(/[ -]/g, '')) ? CARD_LIKE : NO_FORMAT;
}

/** The format of a whole string. */
export function formatOf(value: string): number {
  return formatOfRange(value, 0, value.length);
}

/**
 * The kind of a value sent as text (a query parameter, a header, a path segment): `integer` or `number` when it
 * reads as one, else `string`.
 */
export function textKind(value: string): number {
  if (value.length === 0 || value.length > 32) return STRING;
  const c = value.charCodeAt(0);
  if (!(c === 45 || (c >= 48 && c <= 57))) return STRING;
  if (INTEGER_RE.test(value)) return INTEGER;
  return NUMBER_RE.test(value) ? NUMBER : STRING;
}
