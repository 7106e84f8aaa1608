// What the telemetry lane learns about an API's fields without keeping a value: which fields each route uses, and
// the JSON types and formats seen at each. Taken in the governance workers before redaction, stored by capture
// (`capture_fields`), read by `vigil check`, `vigil spec`, `vigil sdk` and `vigil mock`.

/** Where a field was seen. */
export type FieldLocation =
  | 'exchange' // one row per route and status: `name` is '', `count` the exchanges (the parent of top-level fields)
  | 'path' // a parameter of the route's template: `name` is the parameter's name
  | 'query' // a query parameter, by name as sent
  | 'request_header' // a request header, by lowercase name
  | 'request_body' // a JSON path in the request body: '$', '$.user.email', '$.items[*].id'
  | 'response_header'
  | 'response_body';

export type JsonKind = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array';

/** Formats recognised in strings (and path segments), named as JSON Schema's `format` where it has one. */
export type ValueFormat = 'email' | 'uuid' | 'date-time' | 'date' | 'uri' | 'ipv4' | 'card-like' | 'integer';

/**
 * One field of one route, one location and (for the response side) one status: how often it was present and what
 * it held. A redacted field counts like any other: its name and type, never its value.
 */
export interface FieldObservation {
  /** Method and path template: `POST /users/{id}` (see `routeTemplate`). */
  route: string;
  location: FieldLocation;
  /** The response's status on the response side and for `exchange`; 0 on the request side. */
  status: number;
  /** The JSON path, the lowercase header name, the query or path parameter name; '' for `exchange`. */
  name: string;
  /** Times present. */
  count: number;
  /**
   * Times its container was present: the route's exchanges (with this status on the response side) for a
   * top-level field, the parent object's count for a nested key, the array's elements for `[*]`. `count / parents`
   * is the presence ratio that makes a key required.
   */
  parents: number;
  /** Values seen by JSON type (query, header and path values are strings, or `integer`/`number` when they parse). */
  kinds: Partial<Record<JsonKind, number>>;
  /** String values by recognised format. */
  formats: Partial<Record<ValueFormat, number>>;
  /** Times the value was masked by a rule or a detector. */
  redacted: number;
  /** Epoch ms. */
  firstSeen: number;
  lastSeen: number;
}

/** Fields a batch could not record because a cap was reached: new routes (`total`), new fields of a route (`route`). */
export interface FieldOverflow {
  route: number;
  total: number;
}

/**
 * The bounds of field observations, the same in a governance worker's batch and in capture's accumulator: what they
 * leave out is counted (`FieldOverflow`, `vigil_capture_fields_overflow_total`), never stored.
 */
export const FIELD_LIMITS = Object.freeze({
  /** Distinct (location, status, name) rows of one route, its `exchange` rows included. */
  fieldsPerRoute: 512,
  /** Distinct routes. */
  routes: 2_000,
  /** JSON path levels below `$`: a deeper value is counted at its ancestor of this depth (as its type), not on its own. */
  depth: 12,
});

// ---- Path templates ----

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER = /^[0-9]+$/;
const HEX_ID = /^[0-9a-f]{16,}$/i;
const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const EMAIL = /^[^@/\s]+@[^@/\s]+\.[^@/\s]+$/;
/**
 * `cus_NffrFeUfNV2Hib`, `ord_1234`, `usr_t2`, `exp_119`: a short lowercase prefix, an underscore, and a tail with a
 * digit, or a long mixed-case one. `usr_missing` stays a word.
 */
const PREFIXED_ID = /^[a-z]{2,8}_([A-Za-z0-9]+)$/;
const TOKEN_CHARS = /^[A-Za-z0-9_-]+$/;
/** Segments that look like ids but are words of the API: versions, and a few common literals. */
const VERSION = /^v[0-9]+(\.[0-9]+)*$/i;
const MAX_SEGMENTS = 32;
const MAX_LITERAL_LENGTH = 64;

/** What a path segment is: a literal of the route, or a parameter with the format that made it one. */
export type SegmentKind = { param: false } | { param: true; format: ValueFormat | 'id' };

/**
 * Whether a segment is a value (an id, a date, an email) rather than a word of the route. Conservative: a word is
 * never a parameter here; `vigil spec` merges sibling literals across paths when there are many of them.
 */
export function classifySegment(segment: string): SegmentKind {
  if (segment.length === 0 || VERSION.test(segment)) return { param: false };
  if (INTEGER.test(segment)) return { param: true, format: 'integer' };
  if (UUID.test(segment)) return { param: true, format: 'uuid' };
  if (DATE.test(segment)) return { param: true, format: 'date' };
  if (HEX_ID.test(segment) && /[0-9]/.test(segment)) return { param: true, format: 'id' };
  if ((segment.includes('@') || segment.includes('%40')) && EMAIL.test(decodeSafely(segment))) return { param: true, format: 'email' };
  if (segment.length > MAX_LITERAL_LENGTH) return { param: true, format: 'id' };
  const tail = PREFIXED_ID.exec(segment)?.[1];
  if (tail !== undefined && (/[0-9]/.test(tail) || (tail.length >= 8 && /[A-Z]/.test(tail)))) return { param: true, format: 'id' };
  if (segment.length >= 8 && TOKEN_CHARS.test(segment) && looksRandom(segment)) return { param: true, format: 'id' };
  return { param: false };
}

/** Digits mixed with letters, no long run of letters (a word), at least two digits: `a1b2c3d4`, `8f3k2j9d`. */
function looksRandom(segment: string): boolean {
  let digits = 0;
  let letters = 0;
  let run = 0;
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    if (c >= 48 && c <= 57) { digits++; run = 0; } else if ((c | 32) >= 97 && (c | 32) <= 122) {
      letters++;
      if (++run >= 5) return false;
    } else run = 0;
  }
  return digits >= 2 && letters >= 2;
}

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface RouteTemplate {
  /** `/users/{id}`, `/users/{user_id}/orders/{order_id}`. */
  path: string;
  /** The parameters in order, with the format of the segment each replaced. */
  params: { name: string; format: ValueFormat | 'id' }[];
}

/**
 * The template of a request path (query cut): value-like segments become parameters. A single parameter is `{id}`
 * (`{date}`, `{email}` by format); with several, each is named after the literal before it (`users` → `user_id`),
 * then numbered to stay unique. Paths deeper than 32 segments keep the rest as one `{rest}` parameter, so a hostile
 * path cannot make a long key.
 */
export function pathTemplate(path: string): RouteTemplate {
  const cut = path.indexOf('?');
  const segments = (cut < 0 ? path : path.slice(0, cut)).split('/');
  const kinds = segments.map((s, i) => (i === 0 ? { param: false as const } : classifySegment(s)));
  const count = kinds.filter((k) => k.param).length;
  const params: RouteTemplate['params'] = [];
  const used = new Set<string>();
  const out: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    if (i > MAX_SEGMENTS) {
      out.push('{rest}');
      params.push({ name: 'rest', format: 'id' });
      break;
    }
    const kind = kinds[i];
    if (!kind.param) {
      out.push(segments[i]);
      continue;
    }
    let name = count === 1 ? singleName(kind.format) : `${singular(literalBefore(segments, kinds, i))}_id`;
    for (let n = 2; used.has(name); n++) name = `${name.replace(/[0-9]+$/, '')}${n}`;
    used.add(name);
    params.push({ name, format: kind.format });
    out.push(`{${name}}`);
  }
  return { path: out.join('/') || '/', params };
}

/** `POST /users/{id}`: the key of a route in field observations. */
export function routeTemplate(method: string, path: string): string {
  return `${method.toUpperCase()} ${pathTemplate(path).path}`;
}

function singleName(format: ValueFormat | 'id'): string {
  return format === 'date' || format === 'email' ? format : 'id';
}

function literalBefore(segments: string[], kinds: SegmentKind[], i: number): string {
  for (let j = i - 1; j > 0; j--) if (!kinds[j].param && /^[A-Za-z][A-Za-z0-9_-]*$/.test(segments[j])) return segments[j];
  return 'param';
}

/** `users` → `user`, `categories` → `category`, `addresses` → `address`; other words as they are, lowercased. */
export function singular(word: string): string {
  const w = word.toLowerCase().replace(/-/g, '_');
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && w.length > 3) return w.slice(0, -1);
  return w;
}
