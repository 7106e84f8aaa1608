import { compileJsonPath, REDACTED, redactJsonPaths, type CompiledJsonPath } from './compile-json-path.js';
import { redactText } from './detectors/index.js';
import type { DetectorKind } from './detectors/types.js';

/**
 * How a JSON value is governed outside the gateway's traffic (LLM trace inputs and outputs, per project): the same
 * JSON paths as a rule's `redact.json_fields`, and detectors that mask sensitive-looking text wherever it appears.
 */
export interface JsonGovernance {
  /** JSON paths whose values become the marker: `$.a.b`, `$.*.x`, `$.**.x`. */
  json_fields?: readonly string[];
  /** Detector kinds whose spans, in any string of the value (object keys included), become the marker. */
  detect?: readonly DetectorKind[];
}

/** A compiled `JsonGovernance`: a pure function from a JSON value to its governed copy. */
export type JsonGovernor = (value: unknown) => unknown;

/** Compiles `rules` once; throws a PolicyError naming `where` and the bad path. */
export function compileJsonGovernance(rules: JsonGovernance, where = 'governance'): JsonGovernor {
  const paths: CompiledJsonPath[] = (rules.json_fields ?? []).map((p, i) => compileJsonPath(p, `${where}.json_fields[${i}]`));
  const kinds = rules.detect && rules.detect.length > 0 ? [...rules.detect] : null;
  return (value) => {
    // A copy: the caller's value is never changed, and a value that is not JSON (a function, a cycle, a BigInt)
    // fails here, before anything could be kept.
    const copy = value === undefined ? undefined : JSON.parse(JSON.stringify(value)) as unknown;
    const redacted = paths.length > 0 ? redactJsonPaths(copy, paths) : copy;
    return kinds ? maskStrings(redacted, kinds) : redacted;
  };
}

/** A compiled `JsonGovernance` for values the caller owns (just parsed): governed in place, no copy made. */
export type OwnedJsonGovernor = (value: unknown) => unknown;

/** Like `compileJsonGovernance`, for owned values: the paths and the masking write over `value` itself. */
export function compileOwnedJsonGovernance(rules: JsonGovernance, where = 'governance'): OwnedJsonGovernor {
  const paths: CompiledJsonPath[] = (rules.json_fields ?? []).map((p, i) => compileJsonPath(p, `${where}.json_fields[${i}]`));
  const kinds = rules.detect && rules.detect.length > 0 ? [...rules.detect] : null;
  return (value) => {
    const redacted = paths.length > 0 ? redactJsonPaths(value, paths) : value;
    return kinds ? maskStringsInPlace(redacted, kinds) : redacted;
  };
}

const compiled = new WeakMap<JsonGovernance, JsonGovernor>();
const compiledOwned = new WeakMap<JsonGovernance, OwnedJsonGovernor>();

/**
 * `value` governed by `rules`, written over `value` itself: for a value the caller owns and nothing else holds (just
 * parsed from JSON), which spares the copy `governJson` makes. Same result as `governJson`; same compile-once rule.
 */
export function governOwnedJson(value: unknown, rules: JsonGovernance): unknown {
  let governor = compiledOwned.get(rules);
  if (!governor) {
    governor = compileOwnedJsonGovernance(rules);
    compiledOwned.set(rules, governor);
  }
  return governor(value);
}

/**
 * `value` governed by `rules`, never changed in place. Rules are compiled once per rules object (keep the object and
 * reuse it); a rule set that cannot compile throws, so nothing is returned unredacted.
 */
export function governJson(value: unknown, rules: JsonGovernance): unknown {
  let governor = compiled.get(rules);
  if (!governor) {
    governor = compileJsonGovernance(rules);
    compiled.set(rules, governor);
  }
  return governor(value);
}

/**
 * `value` (parsed JSON, owned by the caller) with every detected span of `kinds` masked in place; an object one of
 * whose keys holds a secret is rebuilt (keys cannot be renamed in place without changing their order).
 */
export function maskStringsInPlace(value: unknown, kinds: readonly DetectorKind[]): unknown {
  if (typeof value === 'string') return value === REDACTED ? value : redactText(value, kinds);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = maskStringsInPlace(value[i], kinds);
    return value;
  }
  const object = value as Record<string, unknown>;
  for (const k of Object.keys(object)) {
    if (redactText(k, kinds) !== k) return maskStrings(object, kinds);
    const masked = maskStringsInPlace(object[k], kinds);
    // A parsed `__proto__` is an own data property: assigning it would set the prototype instead.
    if (k === '__proto__') Object.defineProperty(object, k, { value: masked, enumerable: true, writable: true, configurable: true });
    else object[k] = masked;
  }
  return object;
}

/** `value` (parsed JSON) with every detected span of `kinds`, in any string or key, masked; a new value where needed. */
export function maskStrings(value: unknown, kinds: readonly DetectorKind[]): unknown {
  if (typeof value === 'string') return value === REDACTED ? value : redactText(value, kinds);
  if (Array.isArray(value)) return value.map((v) => maskStrings(v, kinds));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // A key can hold a secret too (`{"ada@example.com": …}`); two keys masked alike keep both values under
      // numbered markers, so nothing is silently dropped.
      let key = redactText(k, kinds);
      for (let n = 2; key !== k && Object.prototype.hasOwnProperty.call(out, key); n++) key = `${redactText(k, kinds)}#${n}`;
      Object.defineProperty(out, key, { value: maskStrings(v, kinds), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}
