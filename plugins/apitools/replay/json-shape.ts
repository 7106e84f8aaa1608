// The shape of a JSON document: which JSON paths exist and what types they hold, never the values. `vigil replay
// --diff shape` compares the stored response's shape with the target's, so a renamed key, a removed field or a
// number that became a string is a change, while new ids, prices or names are not.

/**
 * Value kinds as the shape sees them; integers and fractions are both `number` (a price of 10 then 10.5 is no
 * change). A whole body that is not JSON is `text`, or `empty` when it has no bytes.
 */
export type ShapeKind = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array' | 'redacted' | 'text' | 'empty';

/** JSON path (`$`, `$.user.email`, `$.items[*].id`) → the kinds seen there (arrays merge their elements under `[*]`). */
export type Shape = Map<string, Set<ShapeKind>>;

/** The shape of a response body as bytes: its JSON shape, or a lone `text` or `empty` at `$` when it is not JSON. */
export function bodyShape(body: Buffer): Shape {
  if (body.length === 0) return new Map([['$', new Set<ShapeKind>(['empty'])]]);
  try {
    return jsonShape(JSON.parse(body.toString('utf8')) as unknown);
  } catch {
    return new Map([['$', new Set<ShapeKind>(['text'])]]);
  }
}

/** How deep the walk goes: a hostile or runaway document cannot make the comparison unbounded. */
const MAX_DEPTH = 64;

/**
 * The shape of a parsed JSON value. `redacted` is the marker string the stored record holds where a rule masked a
 * value: it stands for any kind, so a masked field never reads as a change.
 */
export function jsonShape(value: unknown, redactedMarker?: string): Shape {
  const shape: Shape = new Map();
  const add = (path: string, kind: ShapeKind) => {
    let kinds = shape.get(path);
    if (!kinds) shape.set(path, (kinds = new Set()));
    kinds.add(kind);
  };
  const walk = (v: unknown, path: string, depth: number): void => {
    if (v === null) return add(path, 'null');
    if (Array.isArray(v)) {
      add(path, 'array');
      if (depth < MAX_DEPTH) for (const item of v) walk(item, `${path}[*]`, depth + 1);
      return;
    }
    switch (typeof v) {
      case 'object':
        add(path, 'object');
        if (depth < MAX_DEPTH) for (const key of Object.keys(v as object)) walk((v as Record<string, unknown>)[key], childPath(path, key), depth + 1);
        return;
      case 'string': return add(path, redactedMarker !== undefined && v === redactedMarker ? 'redacted' : 'string');
      case 'number': return add(path, 'number');
      case 'boolean': return add(path, 'boolean');
      default: return undefined;
    }
  };
  walk(value, '$', 0);
  return shape;
}

/** `$.name` for plain keys, `$['odd key']` for others, so that a path reads back unambiguously. */
function childPath(parent: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** One difference between two shapes. */
export interface ShapeChange {
  path: string;
  change: 'added' | 'removed' | 'type';
  /** The kinds at the path in the stored response (empty when added) and in the new one (empty when removed). */
  before: ShapeKind[];
  after: ShapeKind[];
}

/**
 * Where the new shape differs from the stored one, reported at the first level of difference only:
 * - a key present on one side only, under an object that both sides have (`added`, `removed`);
 * - a path whose kinds differ (`type`), except where one side only saw `null` (an optional value that was empty)
 *   or the stored side holds the redaction marker.
 * What lies under a path that differs is not reported again, and array elements are compared only when both arrays
 * had some: an empty list against a full one is a difference of values, not of shape.
 */
export function diffShapes(before: Shape, after: Shape): ShapeChange[] {
  const changes: ShapeChange[] = [];
  const paths = new Set([...before.keys(), ...after.keys()]);
  for (const path of [...paths].sort()) {
    const b = before.get(path);
    const a = after.get(path);
    const parent = parentPath(path);
    if (parent !== null) {
      // Compared only where the parent is the same container on both sides (else the parent's change says it all).
      const container = path.endsWith('[*]') ? 'array' : 'object';
      const pb = before.get(parent);
      const pa = after.get(parent);
      if (!pb?.has(container) || !pa?.has(container) || pb.has('redacted')) continue;
      if (path.endsWith('[*]') && (!b || !a)) continue;
      if (!comparable(pb, pa)) continue;
    }
    if (!b || !a) {
      changes.push({ path, change: b ? 'removed' : 'added', before: sorted(b), after: sorted(a) });
      continue;
    }
    if (!comparable(b, a)) changes.push({ path, change: 'type', before: sorted(b), after: sorted(a) });
  }
  return changes;
}

/** Whether two kind sets agree, with `redacted` matching anything and a lone `null` matching anything. */
function comparable(b: Set<ShapeKind>, a: Set<ShapeKind>): boolean {
  if (b.has('redacted')) return true;
  const bk = withoutNull(b);
  const ak = withoutNull(a);
  if (bk.length === 0 || ak.length === 0) return true;
  return bk.length === ak.length && bk.every((k) => a.has(k));
}

function withoutNull(kinds: Set<ShapeKind>): ShapeKind[] {
  return [...kinds].filter((k) => k !== 'null');
}

function sorted(kinds: Set<ShapeKind> | undefined): ShapeKind[] {
  return kinds ? [...kinds].sort() : [];
}

/** `$.a.b` → `$.a`, `$.a[*]` → `$.a`, `$.a["x y"]` → `$.a`, `$` → null. */
function parentPath(path: string): string | null {
  if (path === '$') return null;
  if (path.endsWith('[*]')) return path.slice(0, -3);
  if (path.endsWith('"]')) {
    // The key was written with JSON.stringify, so every quote inside it is escaped (`\"`): the last `["` opens it.
    const open = path.lastIndexOf('["');
    if (open > 0) return path.slice(0, open);
  }
  return path.slice(0, path.lastIndexOf('.'));
}

/** One change as a line: `removed $.email (string)`, `$.id: number → string`. */
export function describeShapeChange(c: ShapeChange): string {
  if (c.change === 'added') return `added ${c.path} (${c.after.join('|')})`;
  if (c.change === 'removed') return `removed ${c.path} (${c.before.join('|')})`;
  return `${c.path}: ${c.before.join('|')} → ${c.after.join('|')}`;
}
