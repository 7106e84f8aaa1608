import { PolicyError, PolicyErrors } from './errors.js';

/** The redaction marker: replaces the whole matched value, object or array included. */
export const REDACTED = '[REDACTED]';

export type JsonPathSegment =
  | { readonly kind: 'key'; readonly name: string }
  | { readonly kind: 'any' }
  | { readonly kind: 'deep' };

/**
 * A compiled JSON path. Plain data (structured-cloneable); `compileJsonPath(expression)` rebuilds it anywhere.
 *
 * Semantics:
 * - `$` is the whole body; `.name` (or `['name']`) an object key; `.*` (or `[*]`) any single key or array element;
 *   `.**` zero or more levels, objects and arrays alike, so `$.**.card` also matches a top-level `card`.
 * - An array element is a level: `$.items.*.card` reaches `items[0].card`. A literal name never walks into an
 *   array implicitly (`$.items.card` does not match `items[0].card`); a numeric name (`.0`, `[0]`) selects an index.
 */
export interface CompiledJsonPath {
  readonly expression: string;
  readonly segments: readonly JsonPathSegment[];
}

// States are bits of a 32-bit mask (one per position in the path, plus "matched"): no allocation per node.
const MAX_SEGMENTS = 30;

/** Parses `$.a.b`, `$.*.x`, `$.**.x`, `$['a.b'][0]` and their combinations. */
export function compileJsonPath(expression: string, where = 'json path'): CompiledJsonPath {
  const fail = (why: string): never => {
    throw new PolicyError(PolicyErrors.JSON_PATH, where, `${JSON.stringify(expression)}: ${why}`);
  };
  if (typeof expression !== 'string' || expression[0] !== '$') fail('must start with "$" (e.g. "$.card.number")');
  const segments: JsonPathSegment[] = [];
  let i = 1;
  while (i < expression.length) {
    const c = expression[i];
    if (c === '.') {
      let j = i + 1;
      while (j < expression.length && expression[j] !== '.' && expression[j] !== '[') j++;
      const name = expression.slice(i + 1, j);
      if (name === '') fail(`empty name at offset ${i + 1} (write "$.a.b", "$.*.x" or "$.**.x")`);
      if (name === '**') {
        if (segments[segments.length - 1]?.kind !== 'deep') segments.push({ kind: 'deep' });
      } else if (name === '*') segments.push({ kind: 'any' });
      else if (name.includes('*')) fail(`"${name}": "*" and "**" must be a whole name`);
      else segments.push({ kind: 'key', name });
      i = j;
    } else if (c === '[') {
      const close = bracketEnd(expression, i);
      if (close === -1) fail(`unclosed "[" at offset ${i}`);
      const inner = expression.slice(i + 1, close);
      if (inner === '*') segments.push({ kind: 'any' });
      else if (/^[0-9]+$/.test(inner)) segments.push({ kind: 'key', name: String(Number(inner)) });
      else if (/^'(?:[^'\\]|\\.)*'$|^"(?:[^"\\]|\\.)*"$/.test(inner)) {
        segments.push({ kind: 'key', name: inner.slice(1, -1).replace(/\\(.)/g, '$1') });
      } else fail(`"[${inner}]": write [*], [0] or ['name']`);
      i = close + 1;
    } else {
      fail(`unexpected "${c}" at offset ${i}`);
    }
  }
  if (segments[segments.length - 1]?.kind === 'deep') {
    fail('cannot end with "**" (name the key it leads to, e.g. "$.**.card", or use "$" for the whole body)');
  }
  if (segments.length > MAX_SEGMENTS) fail(`more than ${MAX_SEGMENTS} segments`);
  return { expression, segments };
}

function bracketEnd(text: string, open: number): number {
  const quote = text[open + 1];
  if (quote === "'" || quote === '"') {
    for (let k = open + 2; k < text.length; k++) {
      if (text[k] === '\\') { k++; continue; }
      if (text[k] === quote) return text[k + 1] === ']' ? k + 1 : -1;
    }
    return -1;
  }
  return text.indexOf(']', open);
}

// ---- walking -----------------------------------------------------------------------------------------------

/** Adds the states reachable without consuming a level: a `**` may match zero levels. */
function closure(mask: number, segments: readonly JsonPathSegment[]): number {
  for (let i = 0; i < segments.length; i++) {
    if (mask & (1 << i) && segments[i].kind === 'deep') mask |= 1 << (i + 1);
  }
  return mask;
}

/** States of the child at `key`, given the (closed) states of its parent. */
function childMask(mask: number, key: string, segments: readonly JsonPathSegment[]): number {
  let next = 0;
  for (let i = 0; i < segments.length; i++) {
    if (!(mask & (1 << i))) continue;
    const s = segments[i];
    if (s.kind === 'deep') next |= 1 << i;
    else if (s.kind === 'any' || s.name === key) next |= 1 << (i + 1);
  }
  return next === 0 ? 0 : closure(next, segments);
}

/** True when no state at this node is a wildcard: children can be looked up by name instead of enumerated. */
function onlyKeys(mask: number, segments: readonly JsonPathSegment[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    if (mask & (1 << i) && segments[i].kind !== 'key') return false;
  }
  return true;
}

type Visit = (value: unknown) => { replace?: unknown; stop?: boolean } | undefined;

/** Walks every node matched by `path`, in document order. Returns the (possibly replaced) root. */
function walk(root: unknown, path: CompiledJsonPath, visit: Visit): unknown {
  const segments = path.segments;
  const done = 1 << segments.length;
  let stopped = false;
  const step = (node: unknown, mask: number): unknown => {
    if (mask & done) {
      const r = visit(node);
      if (r?.stop) stopped = true;
      if (r && 'replace' in r) return r.replace;
      // A match that is not replaced is still walked: `$.**.x` also matches an `x` nested inside an `x`.
    }
    if (node === null || typeof node !== 'object' || stopped) return node;
    const container = node as Record<string, unknown>;
    if (onlyKeys(mask, segments)) {
      for (let i = 0; i < segments.length && !stopped; i++) {
        if (!(mask & (1 << i))) continue;
        const name = (segments[i] as { name: string }).name;
        if (!hasChild(container, name) || sameNameEarlier(mask, segments, i, name)) continue;
        const m = childMask(mask, name, segments);
        if (m !== 0) container[name] = step(container[name], m);
      }
      return node;
    }
    if (Array.isArray(node)) {
      for (let k = 0; k < node.length && !stopped; k++) {
        const m = childMask(mask, String(k), segments);
        if (m !== 0) node[k] = step(node[k], m);
      }
    } else {
      for (const key of Object.keys(container)) {
        if (stopped) break;
        const m = childMask(mask, key, segments);
        if (m !== 0) container[key] = step(container[key], m);
      }
    }
    return node;
  };
  return step(root, closure(1, segments));
}

// Two states may want the same key (`$.a.**.a`); the child is visited once, with both states.
function sameNameEarlier(mask: number, segments: readonly JsonPathSegment[], i: number, name: string): boolean {
  for (let j = 0; j < i; j++) {
    if (mask & (1 << j) && (segments[j] as { name: string }).name === name) return true;
  }
  return false;
}

function hasChild(container: Record<string, unknown>, name: string): boolean {
  if (Array.isArray(container)) {
    const k = Number(name);
    return Number.isInteger(k) && k >= 0 && k < container.length && String(k) === name;
  }
  return Object.prototype.hasOwnProperty.call(container, name);
}

/**
 * Replaces, in place, every value matched by `path` with the marker. Returns the new root (the marker itself when
 * the path is `$`) and how many values were replaced.
 */
export function redactJsonPath(root: unknown, path: CompiledJsonPath): { value: unknown; count: number } {
  let count = 0;
  const value = walk(root, path, () => { count++; return { replace: REDACTED }; });
  return { value, count };
}

/** Applies several paths in turn; see `redactJsonPath`. */
export function redactJsonPaths(root: unknown, paths: readonly CompiledJsonPath[]): unknown {
  let value = root;
  for (const p of paths) value = redactJsonPath(value, p).value;
  return value;
}

/**
 * The first number matched by `path`, in document order, for metering. Only finite numbers ≥ 0 count (a token
 * total is never negative, and counters cannot go down); anything else gives null.
 */
export function readJsonPathNumber(root: unknown, path: CompiledJsonPath): number | null {
  let found: number | null = null;
  walk(root, path, (v) => {
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) { found = v; return { stop: true }; }
    return undefined;
  });
  return found;
}
