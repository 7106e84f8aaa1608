// From the recorded routes to the paths of the document. The recorder already templates each request on its own
// (`/users/42` → `/users/{id}`), but a word-like value (`/users/alice`) stays a literal there, since one request
// cannot tell a username from a word of the API. Across many routes it can: this file merges such siblings.
//
// The rule (documented in plugins/apitools/README.md): at one position, under the same prefix, the literal
// segments are merged into one parameter when more than `minSiblings` (10) distinct ones have the same
// sub-structure: the same methods and deeper paths, and the same body and query field names, compared as sets
// (a literal fits when the Jaccard similarity of its set with the set most siblings share is at least 0.7).
// Literals that are words of APIs everywhere (`me`, `search`, `v1`, … see RESERVED_SEGMENTS) are never merged,
// however many siblings there are, and neither is the first segment after the root or an API prefix made of such
// words (`/api/v1/users`, `/orders`): that one names a resource. A literal beside a parameter (`/users/usr_tz` beside
// `/users/{id}`, an id the recorder could not tell from a word) joins that parameter when its shape fits the
// parameter's, however few such literals there are.
import { singular, type FieldObservation } from '../../../gateway/fields/api-fields.js';

/** Never merged into a parameter: they name an endpoint, not a record. Versions (`v1`, `v2.1`) neither. */
export const RESERVED_SEGMENTS: ReadonlySet<string> = new Set([
  'me', 'self', 'current', 'new', 'search', 'latest', 'count', 'export', 'import', 'batch', 'bulk', 'all', 'default',
  'mine', 'recent', 'stats', 'summary', 'settings', 'config', 'status', 'health', 'login', 'logout', 'auth', 'api',
  'admin', 'public', 'private', 'first', 'last', 'next', 'previous',
]);
const VERSION = /^v[0-9]+(\.[0-9]+)*$/i;
export const DEFAULT_MIN_SIBLINGS = 10;
/** How alike (Jaccard) a sibling's shape must be to the shape most siblings share. */
const FIT = 0.7;

export interface RouteInput {
  /** The recorded route key, `GET /users/alice`. */
  route: string;
  /** Field names that make its shape: `query:page`, `response_body:$.name` … */
  shape: ReadonlySet<string>;
}

export interface RoutePath {
  method: string;
  /** The document's path, `/users/{user_name}`. */
  path: string;
  /**
   * Parameters made here from merged literals (their values never reach the document); `joined` when the literals
   * joined a parameter the recorder had made.
   */
  merged: { name: string; literals: number; joined?: true }[];
}

const isParam = (segment: string) => segment.startsWith('{') && segment.endsWith('}');
const isReserved = (segment: string) => RESERVED_SEGMENTS.has(segment.toLowerCase()) || VERSION.test(segment);

/** `GET /users/alice` → method and path; a route without a space is taken as a GET path. */
export function splitRoute(route: string): { method: string; path: string } {
  const space = route.indexOf(' ');
  if (space < 0) return { method: 'GET', path: route || '/' };
  return { method: route.slice(0, space).toUpperCase(), path: route.slice(space + 1) || '/' };
}

interface Work {
  input: RouteInput;
  method: string;
  segments: string[];
  merged: RoutePath['merged'];
}

/** The document path of every recorded route, with sibling literals merged (the rule at the top of this file). */
export function mergeLiteralSegments(routes: readonly RouteInput[], minSiblings = DEFAULT_MIN_SIBLINGS): Map<string, RoutePath> {
  const work: Work[] = routes.map((input) => {
    const { method, path } = splitRoute(input.route);
    return { input, method, segments: path.split('/'), merged: [] };
  });
  const depth = Math.max(0, ...work.map((w) => w.segments.length));
  for (let i = 1; i < depth; i++) {
    const columns = new Map<string, Work[]>();
    for (const w of work) {
      if (w.segments.length <= i) continue;
      const key = w.segments.slice(0, i).join('/');
      let list = columns.get(key);
      if (list === undefined) columns.set(key, list = []);
      list.push(w);
    }
    for (const column of columns.values()) mergeColumn(column, i, minSiblings);
  }
  const out = new Map<string, RoutePath>();
  for (const w of work) out.set(w.input.route, { method: w.method, path: w.segments.join('/') || '/', merged: w.merged });
  return out;
}

function mergeColumn(column: Work[], i: number, minSiblings: number): void {
  // The first word after the root or an API prefix (`/api/v1/users`) names a resource, however many there are and
  // however alike their bodies (ids, names, timestamps): only a position under such a word holds values.
  if (column[0].segments.slice(1, i).every((s) => isReserved(s))) return;
  const byLiteral = new Map<string, Work[]>();
  for (const w of column) {
    const segment = w.segments[i];
    if (segment === '' || isParam(segment) || isReserved(segment)) continue;
    let list = byLiteral.get(segment);
    if (list === undefined) byLiteral.set(segment, list = []);
    list.push(w);
  }
  joinParameter(column, byLiteral, i);
  if (byLiteral.size <= minSiblings) return;
  const signatures = new Map<string, Set<string>>();
  for (const [literal, list] of byLiteral) signatures.set(literal, signatureOf(list, i));
  const shared = sharedByMost([...signatures.values()]);
  const members = [...byLiteral.keys()].filter((l) => similarity(signatures.get(l)!, shared) >= FIT);
  if (members.length <= minSiblings) return;
  const affected = members.flatMap((l) => byLiteral.get(l)!);
  const name = paramName(affected, i);
  for (const w of affected) {
    w.segments[i] = `{${name}}`;
    w.merged.push({ name, literals: members.length });
  }
}

/** What a group of routes under one segment looks like: methods with deeper paths, and field names. */
function signatureOf(list: Work[], i: number): Set<string> {
  const sig = new Set<string>();
  for (const w of list) {
    sig.add(`${w.method} ${w.segments.slice(i + 1).join('/')}`);
    for (const s of w.input.shape) sig.add(s);
  }
  return sig;
}

/** Literals whose shape fits the column's (busiest) parameter become that parameter; they leave `byLiteral`. */
function joinParameter(column: Work[], byLiteral: Map<string, Work[]>, i: number): void {
  const byParam = new Map<string, Work[]>();
  for (const w of column) {
    if (!isParam(w.segments[i])) continue;
    let list = byParam.get(w.segments[i]);
    if (list === undefined) byParam.set(w.segments[i], list = []);
    list.push(w);
  }
  if (byParam.size === 0 || byLiteral.size === 0) return;
  const [param, routes] = [...byParam].sort((a, b) => b[1].length - a[1].length)[0];
  const shape = signatureOf(routes, i);
  const joining = [...byLiteral].filter(([, list]) => similarity(signatureOf(list, i), shape) >= FIT);
  const name = param.slice(1, -1);
  for (const [literal, list] of joining) {
    for (const w of list) {
      w.segments[i] = param;
      w.merged.push({ name, literals: joining.length, joined: true });
    }
    byLiteral.delete(literal);
  }
}

/** The elements at least half of the sets hold. */
function sharedByMost(sets: Set<string>[]): Set<string> {
  const counts = new Map<string, number>();
  for (const set of sets) for (const s of set) counts.set(s, (counts.get(s) ?? 0) + 1);
  return new Set([...counts].filter(([, n]) => n * 2 >= sets.length).map(([s]) => s));
}

/** Jaccard similarity; two empty sets are alike (routes seen without bodies or queries). */
function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let both = 0;
  for (const s of a) if (b.has(s)) both++;
  return both / (a.size + b.size - both);
}

/** `users` before it → `user_name`; no literal before → `name`; numbered when a route already has that name. */
function paramName(affected: Work[], i: number): string {
  const before = affected[0].segments.slice(1, i).reverse().find((s) => !isParam(s) && /^[A-Za-z][A-Za-z0-9_-]*$/.test(s));
  const base = before === undefined ? 'name' : `${singular(before)}_name`;
  const taken = new Set(affected.flatMap((w) => w.segments.filter(isParam).map((s) => s.slice(1, -1))));
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  return name;
}

/** `/users/{id}` and `/users/{email}` are one path to OpenAPI: the key with parameter names blanked. */
export function pathSkeleton(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}

/** The parameter names of a path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
}

/** The shape of a route for the sibling comparison: its query and body field names. */
export function routeShape(fields: readonly FieldObservation[]): Set<string> {
  const shape = new Set<string>();
  for (const f of fields) {
    // `$` and `$[*]` say only that there is a body, which nearly every sibling has: they would make any two alike.
    if (f.location === 'query' || ((f.location === 'request_body' || f.location === 'response_body') && !/^\$(\[\*\])*$/.test(f.name))) {
      shape.add(`${f.location}:${f.name}`);
    }
  }
  return shape;
}
