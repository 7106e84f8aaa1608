// Which JSON paths of one body each policy's `json_fields` mask, compared. The values are not needed (and in a
// stored record the ones masked then are gone): the body's shape is copied with every scalar replaced by a
// placeholder, and each policy's paths are applied to a copy by the gateway's own `redactJsonPaths`. A node that
// comes out as the marker is covered by that policy; the marker stored in place of a value is just another leaf.
import { REDACTED, redactJsonPaths, type CompiledJsonPath } from '../../../policies/compile-json-path.js';
import { childField } from '../scan/scan-core.js';

export interface CoverageChanges {
  /** Paths of leaves base masks and head stores (arrays written `.*`, as `vigil scan` and the rules write them). */
  stops: Set<string>;
  /** Paths of leaves head masks and base stores. */
  starts: Set<string>;
}

// Deeper than this the gateway does not store a body at all ("too deep to walk"); the rest is taken as one leaf.
const MAX_DEPTH = 64;

/** The body's shape: objects and arrays kept, every other value 0 (never the marker). */
function shape(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return 0;
  if (Array.isArray(value)) return value.map((v) => shape(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(out, key, { value: shape((value as Record<string, unknown>)[key], depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Leaves of `node` not masked, into `into`; an empty object or array counts as a leaf. */
function unmaskedLeaves(node: unknown, field: string, into: Set<string>): void {
  if (node === REDACTED) return;
  if (node === null || typeof node !== 'object') { into.add(field); return; }
  const array = Array.isArray(node);
  const keys = Object.keys(node);
  if (keys.length === 0) { into.add(field); return; }
  for (const k of keys) unmaskedLeaves((node as Record<string, unknown>)[k], array ? `${field}.*` : childField(field, k), into);
}

function compare(b: unknown, h: unknown, field: string, out: CoverageChanges): void {
  const bm = b === REDACTED;
  const hm = h === REDACTED;
  if (bm && hm) return;
  if (bm) { unmaskedLeaves(h, field, out.stops); return; }
  if (hm) { unmaskedLeaves(b, field, out.starts); return; }
  if (b === null || typeof b !== 'object') return;
  const array = Array.isArray(b);
  for (const k of Object.keys(b)) {
    compare((b as Record<string, unknown>)[k], (h as Record<string, unknown>)[k], array ? `${field}.*` : childField(field, k), out);
  }
}

/**
 * What changes for one body between the base's and the head's JSON field redactions. A text body (a string) under
 * any `json_fields` is not stored at all (the gateway fails closed on a body it cannot parse), so it is covered
 * whole, as `$`.
 */
export function coverageChanges(body: unknown, base: readonly CompiledJsonPath[], head: readonly CompiledJsonPath[]): CoverageChanges {
  const out: CoverageChanges = { stops: new Set(), starts: new Set() };
  if (typeof body === 'string') {
    if (base.length > 0 && head.length === 0) out.stops.add('$');
    if (head.length > 0 && base.length === 0) out.starts.add('$');
    return out;
  }
  compare(redactJsonPaths(shape(body, 0), base), redactJsonPaths(shape(body, 0), head), '$', out);
  return out;
}
