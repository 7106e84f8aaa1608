import { REDACTED } from '../../policies/compile-json-path.js';

const canonicalCache = new Map<string, string>();
const CANONICAL_CACHE_MAX = 2_048;

/**
 * `content-type` -> `Content-Type`, `X-API-KEY` -> `X-Api-Key`: the first letter and every letter after a hyphen
 * upper-case, the rest lower-case (Go's CanonicalMIMEHeaderKey, which the seed's examples follow). A name holding
 * characters outside an HTTP token is returned unchanged.
 */
export function canonicalHeaderName(name: string): string {
  const hit = canonicalCache.get(name);
  if (hit !== undefined) return hit;
  let out: string;
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) out = name;
  else out = name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
  // Names are few in practice; the bound only stops a client that invents a header per request.
  if (canonicalCache.size < CANONICAL_CACHE_MAX) canonicalCache.set(name, out);
  return out;
}

/** Assigns an own property, even for `__proto__` (a header or parameter name a client controls). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function hasOwn(target: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(target, key);
}

/** Adds `value` under `key`; a repeated key becomes an array, in arrival order. */
export function appendValue(target: Record<string, string | string[]>, key: string, value: string): void {
  if (!hasOwn(target, key)) { setOwn(target, key, value); return; }
  const prev = target[key];
  if (Array.isArray(prev)) prev.push(value);
  else setOwn(target, key, [prev, value]);
}

/**
 * Node's rawHeaders as a record with canonical names. Every value of a header in `redact` (lower-case names) is
 * replaced by the marker, whatever the spelling or the number of repetitions.
 */
export function headersToRecord(raw: readonly string[], redact: ReadonlySet<string>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i];
    const value = redact.size !== 0 && redact.has(name.toLowerCase()) ? REDACTED : raw[i + 1];
    appendValue(out, canonicalHeaderName(name), value);
  }
  return out;
}

/** Every value of a header (case-insensitive), in order. */
export function headerValues(raw: readonly string[] | null, lowerName: string): string[] {
  const out: string[] = [];
  if (!raw) return out;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i].length === lowerName.length && raw[i].toLowerCase() === lowerName) out.push(raw[i + 1]);
  }
  return out;
}
