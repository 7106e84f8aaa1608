// `inferSpec`: an OpenAPI 3.1 document from field observations (what `vigil run` recorded in `capture_fields`).
// Pure: the same observations and options always give the same document, key for key, so a spec in git only
// changes when the traffic did. `vigil sdk` and `vigil mock` call it too (see plugins/apitools/README.md).
import type { FieldObservation } from '../../../gateway/fields/api-fields.js';
import { HTTP_METHODS, type HttpMethod, type OpenApiDocument, type OperationObject, type PathItemObject } from './document.js';
import { buildOperation } from './operation.js';
import { operationIdFor } from './operation-id.js';
import { DEFAULT_MIN_SIBLINGS, mergeLiteralSegments, pathParams, pathSkeleton, routeShape, type RoutePath } from './route-paths.js';

export interface InferOptions {
  /** `count / parents` at or above which a key, query parameter or header is required, and a format kept. Default 0.95. */
  minPresence?: number;
  /** Sibling literals merged into a parameter when more than this many share a shape. Default 10. */
  minSiblings?: number;
  /** `info.title`; default 'Observed API'. */
  title?: string;
  /** `info.version`; default `observed-YYYY-MM-DD`, the day of the last observation. */
  version?: string;
}

export const DEFAULT_MIN_PRESENCE = 0.95;

/** One operation's observations, after its routes were merged into one document path. */
export interface ObservedOperation {
  method: HttpMethod;
  path: string;
  fields: FieldObservation[];
  /** Literal-merged parameters (name, how many literals). */
  merged: RoutePath['merged'];
}

export function inferSpec(fields: readonly FieldObservation[], options: InferOptions = {}): OpenApiDocument {
  const minPresence = options.minPresence ?? DEFAULT_MIN_PRESENCE;
  const operations = observedOperations(fields, options.minSiblings ?? DEFAULT_MIN_SIBLINGS);
  const paths: Record<string, PathItemObject> = {};
  const ids = new Set<string>();
  let exchanges = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const op of operations) {
    const operation: OperationObject = buildOperation(op, minPresence);
    let id = operationIdFor(op.method, op.path);
    for (let n = 2; ids.has(id); n++) id = `${operationIdFor(op.method, op.path)}${n}`;
    ids.add(id);
    (paths[op.path] ??= {})[op.method] = { operationId: id, ...operation };
    for (const f of op.fields) {
      if (f.location === 'exchange') exchanges += f.count;
      if (f.firstSeen < first) first = f.firstSeen;
      if (f.lastSeen > last) last = f.lastSeen;
    }
  }
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const seen = Number.isFinite(first) ? `, seen from ${new Date(first).toISOString()} to ${new Date(last).toISOString()}` : '';
  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Observed API',
      version: options.version ?? (Number.isFinite(last) ? `observed-${day(last)}` : 'observed'),
      description: `Inferred by vigil spec from ${exchanges} exchanges on ${operations.length} operations${seen}.`,
    },
    paths,
  };
}

/**
 * The operations of the document: routes grouped by method and document path, their literal siblings merged,
 * and paths that OpenAPI would take as one (`/users/{id}`, `/users/{email}`) given one spelling, the busiest's.
 */
export function observedOperations(fields: readonly FieldObservation[], minSiblings = DEFAULT_MIN_SIBLINGS): ObservedOperation[] {
  const byRoute = new Map<string, FieldObservation[]>();
  for (const f of fields) {
    let list = byRoute.get(f.route);
    if (list === undefined) byRoute.set(f.route, list = []);
    list.push(f);
  }
  const routePaths = mergeLiteralSegments([...byRoute].map(([route, list]) => ({ route, shape: routeShape(list) })), minSiblings);

  // One spelling per skeleton: the path with the most exchanges, then the first in order.
  const traffic = new Map<string, number>();
  for (const [route, list] of byRoute) {
    const p = routePaths.get(route)!.path;
    traffic.set(p, (traffic.get(p) ?? 0) + exchangesOf(list));
  }
  const spelling = new Map<string, string>();
  for (const [p] of [...traffic].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    if (!spelling.has(pathSkeleton(p))) spelling.set(pathSkeleton(p), p);
  }

  const grouped = new Map<string, { op: ObservedOperation; rows: Map<string, FieldObservation>; routes: number }>();
  for (const [route, list] of byRoute) {
    const rp = routePaths.get(route)!;
    const method = rp.method.toLowerCase() as HttpMethod;
    // A method OpenAPI cannot describe (PROPFIND …), or no path (`OPTIONS *`): not an operation of the document.
    if (!HTTP_METHODS.includes(method) || !rp.path.startsWith('/')) continue;
    const path = spelling.get(pathSkeleton(rp.path))!;
    const rename = new Map(pathParams(rp.path).map((name, i) => [name, pathParams(path)[i]]));
    const key = `${method} ${path}`;
    let group = grouped.get(key);
    if (group === undefined) grouped.set(key, group = { op: { method, path, fields: [], merged: [] }, rows: new Map(), routes: 0 });
    group.routes++;
    for (const m of rp.merged) {
      const name = rename.get(m.name) ?? m.name;
      if (!group.op.merged.some((x) => x.name === name)) group.op.merged.push({ ...m, name });
    }
    const exchanges = exchangesOf(list);
    const seen = list.reduce((acc, f) => [Math.min(acc[0], f.firstSeen), Math.max(acc[1], f.lastSeen)], [Infinity, -Infinity]);
    // A merged literal was a value in every exchange of the route: a string parameter, present each time.
    const synthetic: FieldObservation[] = rp.merged.map((m) => ({
      route, location: 'path', status: 0, name: m.name, count: exchanges, parents: exchanges, kinds: { string: exchanges },
      formats: {}, redacted: 0, firstSeen: seen[0], lastSeen: seen[1],
    }));
    for (const f of [...list, ...synthetic]) {
      const name = f.location === 'path' ? rename.get(f.name) ?? f.name : f.name;
      add(group.rows, { ...f, name });
    }
  }
  const out = [...grouped.values()].map(({ op, rows, routes }) => {
    if (routes > 1) recountParents(rows);
    return { ...op, fields: [...rows.values()] };
  });
  const order = (m: HttpMethod) => HTTP_METHODS.indexOf(m);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : order(a.method) - order(b.method)));
}

/** The JSON path of a key's or element's container: `$.a.b` → `$.a`, `$.a[*]` → `$.a`, `$['x']` → `$`. */
const CONTAINER = /(\.[^.[]+|\['(?:[^'\\]|\\.)*'\]|\["(?:[^"\\]|\\.)*"\]|\[\*\])$/;

/**
 * Parents of merged routes, counted again over the merged route: a field one route had and another lacked was
 * absent from the other's exchanges, so its parents are all the exchanges (of that status), or all the times its
 * container object was present, as the recorder defines them; summing each route's own parents would make a
 * query parameter only some routes had look required.
 */
function recountParents(rows: Map<string, FieldObservation>): void {
  const exchanges = new Map<number, number>();
  let all = 0;
  for (const f of rows.values()) {
    if (f.location !== 'exchange') continue;
    exchanges.set(f.status, (exchanges.get(f.status) ?? 0) + f.count);
    all += f.count;
  }
  for (const f of rows.values()) {
    if (f.location === 'exchange') continue;
    const response = f.location === 'response_header' || f.location === 'response_body';
    const body = f.location === 'request_body' || f.location === 'response_body';
    if (!body || f.name === '$') {
      f.parents = response ? exchanges.get(f.status) ?? f.parents : all;
    } else if (f.name.endsWith('[*]')) {
      f.parents = f.count;
    } else {
      const container = rows.get(`${f.location}\u0000${f.status}\u0000${f.name.replace(CONTAINER, '')}`);
      // Without its container's row (a cap reached), the recorded parents stand.
      if (container !== undefined) f.parents = container.kinds.object ?? f.parents;
    }
  }
}

function exchangesOf(list: readonly FieldObservation[]): number {
  let n = 0;
  for (const f of list) if (f.location === 'exchange') n += f.count;
  return n;
}

/** Rows of merged routes add up: counts, parents, kinds and formats summed, the seen range widened. */
function add(rows: Map<string, FieldObservation>, f: FieldObservation): void {
  const key = `${f.location}\u0000${f.status}\u0000${f.name}`;
  const had = rows.get(key);
  if (had === undefined) {
    rows.set(key, { ...f, kinds: { ...f.kinds }, formats: { ...f.formats } });
    return;
  }
  had.count += f.count;
  had.parents += f.parents;
  had.redacted += f.redacted;
  for (const [k, n] of Object.entries(f.kinds)) had.kinds[k as keyof typeof had.kinds] = (had.kinds[k as keyof typeof had.kinds] ?? 0) + (n ?? 0);
  for (const [k, n] of Object.entries(f.formats)) had.formats[k as keyof typeof had.formats] = (had.formats[k as keyof typeof had.formats] ?? 0) + (n ?? 0);
  had.firstSeen = Math.min(had.firstSeen, f.firstSeen);
  had.lastSeen = Math.max(had.lastSeen, f.lastSeen);
}
