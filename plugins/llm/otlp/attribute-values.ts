/**
 * Reading span attributes the way the GenAI conventions write them: the first present of several names, numbers
 * that sometimes arrive as strings, JSON that arrives as a string attribute, and OTLP values turned into plain JSON.
 */
import { Buffer } from 'node:buffer';
import type { OtlpAttributes, OtlpValue } from './otlp-model.js';

/** JSON parsed from attribute strings nests at most this deep: deeper text stays a string (stringify would overflow). */
const MAX_JSON_DEPTH = 64;

/** The first of `keys` whose value is a non-empty string. */
export function firstString(attrs: OtlpAttributes, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const v = attrs[key];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/** A count: a non-negative finite number, or a string of one (some SDKs stringify). Anything else is undefined. */
export function asCount(v: OtlpValue | unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The first of `keys` that holds a count; `invalid` collects keys that were present but not counts. */
export function firstCount(attrs: OtlpAttributes, keys: readonly string[], invalid?: string[]): number | undefined {
  for (const key of keys) {
    const v = attrs[key];
    if (v === undefined || v === null) continue;
    const n = asCount(v);
    if (n !== undefined) return n;
    invalid?.push(key);
  }
  return undefined;
}

function depthWithin(v: unknown, limit: number): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (limit === 0) return false;
  for (const child of Object.values(v)) if (!depthWithin(child, limit - 1)) return false;
  return true;
}

/**
 * JSON text from an attribute, parsed; undefined when it is not JSON or nests too deep. A string that is not an
 * object or array in JSON form is not parsed (`"42"` stays the text it is).
 */
export function parseJsonText(text: string): unknown {
  const c = text.trimStart()[0];
  if (c !== '{' && c !== '[') return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return depthWithin(v, MAX_JSON_DEPTH) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** An attribute that holds JSON either as text (most SDKs) or as a structured OTLP value: as plain JSON. */
export function jsonAttribute(v: OtlpValue | undefined): unknown {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return parseJsonText(v) ?? v;
  return toJson(v);
}

/**
 * An OTLP value as plain JSON: bytes become base64, kvlists become objects (own keys defined, so a `__proto__` key
 * from the wire stays a key), non-finite doubles become null as JSON.stringify would make them.
 */
export function toJson(v: OtlpValue): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  if (Array.isArray(v)) return v.map(toJson);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) Object.defineProperty(out, key, { value: toJson(v[key]), enumerable: true, writable: true, configurable: true });
  return out;
}

/** Attributes under `prefix.` as a nested object keyed by the rest of the name (`ai.telemetry.metadata.userId` → `{ userId }`). */
export function attributesUnder(attrs: OtlpAttributes, prefix: string): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  const p = `${prefix}.`;
  for (const key of Object.keys(attrs)) {
    if (!key.startsWith(p) || key.length === p.length) continue;
    out ??= {};
    Object.defineProperty(out, key.slice(p.length), { value: jsonAttribute(attrs[key]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Nanoseconds since the epoch (a double) as an ISO 8601 string; undefined for 0 or nonsense. */
export function isoFromUnixNano(ns: number): string | undefined {
  if (!(ns > 0) || !Number.isFinite(ns)) return undefined;
  const d = new Date(ns / 1e6);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
