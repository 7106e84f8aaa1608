// What `vigil check` is asked about: a route ('POST /api/users', a concrete path is templated like the stored
// routes) and a field of it, named as capture_fields names them (gateway/fields/api-fields.ts).
import { routeTemplate, type FieldLocation } from '../../../gateway/fields/api-fields.js';

export interface FieldSpec {
  /** As written, for the report. */
  route: string;
  field: string;
  /** As stored: `POST /api/users/{id}`. */
  routeKey: string;
  location: FieldLocation;
  name: string;
}

const METHOD = /^[A-Za-z]+$/;
/** `location:` prefixes a field may take; a bare `$…` is the request body, a bare `?name` a query parameter. */
const PREFIXES: Record<string, FieldLocation> = {
  request: 'request_body', request_body: 'request_body', body: 'request_body',
  response: 'response_body', response_body: 'response_body',
  query: 'query', header: 'request_header', request_header: 'request_header', response_header: 'response_header',
  path: 'path',
};
export const FIELD_SYNTAX = "$.a.b (request body), response:$.a.b, ?name or query:name, header:name, response_header:name, path:name";

/** `METHOD /path` as the stored route key; a reason when it is not one. */
export function parseRoute(text: string): { key: string } | { error: string } {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 2 || !METHOD.test(parts[0]) || !parts[1].startsWith('/')) {
    return { error: `a route is "METHOD /path" (e.g. "POST /api/users"), got "${text}"` };
  }
  return { key: routeTemplate(parts[0], parts[1]) };
}

/**
 * A JSON path as the recorder spells it: `.name` for plain keys, `['a b']` otherwise, `[*]` for array elements
 * (an index such as `[0]` or `.0` reads as `[*]`: elements are recorded together).
 */
export function normalizeJsonPath(path: string): string | null {
  if (!path.startsWith('$')) return null;
  let out = '$';
  let i = 1;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      let j = i + 1;
      while (j < path.length && path[j] !== '.' && path[j] !== '[') j++;
      const key = path.slice(i + 1, j);
      if (key === '') return null;
      out += /^[0-9]+$/.test(key) ? '[*]' : `.${key}`;
      i = j;
    } else if (c === '[') {
      const quoted = /^\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(\*|[0-9]+))\]/.exec(path.slice(i));
      if (!quoted) return null;
      if (quoted[3] !== undefined) out += '[*]';
      else {
        const key = (quoted[1] ?? quoted[2]).replace(/\\(.)/g, '$1');
        out += /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key) ? `.${key}` : `['${key.replace(/[\\']/g, (x) => `\\${x}`)}']`;
      }
      i += quoted[0].length;
    } else return null;
  }
  return out;
}

/** A field as capture_fields names it; a reason when it cannot be one. */
export function parseField(text: string): { location: FieldLocation; name: string } | { error: string } {
  const field = text.trim();
  const bad = { error: `a field is one of ${FIELD_SYNTAX}; got "${text}"` };
  if (field.startsWith('?')) return field.length > 1 ? { location: 'query', name: field.slice(1) } : bad;
  if (field.startsWith('$')) {
    const name = normalizeJsonPath(field);
    return name === null ? bad : { location: 'request_body', name };
  }
  const colon = field.indexOf(':');
  if (colon <= 0) return bad;
  const location = PREFIXES[field.slice(0, colon).toLowerCase()];
  const rest = field.slice(colon + 1).trim();
  if (location === undefined || rest === '') return bad;
  if (location === 'request_body' || location === 'response_body') {
    const name = normalizeJsonPath(rest);
    return name === null ? bad : { location, name };
  }
  return { location, name: location.endsWith('_header') ? rest.toLowerCase() : rest };
}

export function fieldSpec(route: string, field: string): FieldSpec | { error: string } {
  const r = parseRoute(route);
  if ('error' in r) return r;
  const f = parseField(field);
  if ('error' in f) return f;
  return { route, field, routeKey: r.key, location: f.location, name: f.name };
}
