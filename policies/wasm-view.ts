// The input half of the WASM policy ABI: the view of one request that a policy's `decide` receives.
// Views are built on the telemetry lane, from the bounded copies the proxy made; never on the traffic lane.

/**
 * String and number leaves of a JSON body, path → value. Each path (`$.payment.card`, `$.items[0].pan`,
 * `$['odd key']`) selects exactly its leaf, so a policy can return it in `json_fields` as is. An object keyed by
 * path rather than a list of {path, value} records: a view carries dozens of fields, and the batch is JSON-encoded
 * on the host and parsed in the guest for every call.
 */
export type PolicyBodyFields = Record<string, string | number>;

export interface PolicyView {
  method: string;
  /** The folded path (policies/README.md, "Paths"): `/ADMIN;x/users` arrives as `/admin/users`. */
  path: string;
  /** Request headers, lower-case names; a repeated header's values joined with ", ". Empty when restricted. */
  headers: Record<string, string>;
  /** Query parameters; a repeated parameter gives a list. */
  query: Record<string, string | string[]>;
  /** Response status, 0 when the upstream gave none. */
  status: number;
  /** Labels the YAML policy set for this request. */
  labels: Record<string, string>;
  matched_rules: string[];
  /** Leaves of the bodies, bounded (see BodyFieldLimits). Absent when no body was parsed. */
  body_fields?: { request?: PolicyBodyFields; response?: PolicyBodyFields };
}

export interface BodyFieldLimits {
  /** Leaves per view, both bodies together, request body first. Default 64. */
  maxFields?: number;
  /** Longer strings are left out (a policy looks for short identifiers, not documents). Default 256. */
  maxValueLength?: number;
  /** Deeper leaves are left out. Default 16. */
  maxDepth?: number;
}

export interface PolicyViewSource {
  method: string;
  /** The folded path. */
  path: string;
  /** Raw request-target, for the query. */
  target: string;
  /** Node's rawHeaders form (name, value, …), or null when headers were not captured. */
  requestHeaders: readonly string[] | null;
  status: number;
  labels: Record<string, string>;
  matchedRules: readonly string[];
  /** Parsed JSON bodies (undefined when not captured or not JSON). */
  requestJson?: unknown;
  responseJson?: unknown;
}

const PLAIN_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** The path segment for an object key, in the form compile-json-path reads back to exactly that key. */
function keySegment(key: string): string {
  if (PLAIN_NAME.test(key)) return `.${key}`;
  return `['${key.replace(/[\\']/g, (c) => `\\${c}`)}']`;
}

/**
 * Adds the string and number leaves of `root` (depth-first, document order) to `out`, while `budget.left` lasts.
 * Returns how many were added.
 */
export function collectBodyFields(
  root: unknown,
  out: PolicyBodyFields,
  limits: BodyFieldLimits = {},
  budget: { left: number } = { left: limits.maxFields ?? 64 },
): number {
  const maxValueLength = limits.maxValueLength ?? 256;
  const maxDepth = limits.maxDepth ?? 16;
  let added = 0;
  const visit = (value: unknown, path: string, depth: number): void => {
    if (budget.left <= 0) return;
    if (typeof value === 'string') {
      if (value.length <= maxValueLength) { out[path] = value; budget.left--; added++; }
    } else if (typeof value === 'number') {
      if (Number.isFinite(value)) { out[path] = value; budget.left--; added++; }
    } else if (value !== null && typeof value === 'object' && depth < maxDepth) {
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length && budget.left > 0; i++) visit(value[i], `${path}[${i}]`, depth + 1);
      } else {
        for (const key of Object.keys(value)) {
          if (budget.left <= 0) break;
          visit((value as Record<string, unknown>)[key], path + keySegment(key), depth + 1);
        }
      }
    }
  };
  visit(root, '$', 0);
  return added;
}

function headerMap(raw: readonly string[] | null): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (!raw) return out;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    out[name] = out[name] === undefined ? raw[i + 1] : `${out[name]}, ${raw[i + 1]}`;
  }
  return out;
}

function queryMap(target: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  const at = target.indexOf('?');
  if (at < 0) return out;
  const params = new URLSearchParams(target.slice(at + 1));
  for (const [name, value] of params) {
    const seen = out[name];
    out[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/** The view of one exchange. */
export function buildPolicyView(source: PolicyViewSource, limits?: BodyFieldLimits): PolicyView {
  const view: PolicyView = {
    method: source.method,
    path: source.path,
    headers: headerMap(source.requestHeaders),
    query: queryMap(source.target),
    status: source.status,
    labels: { ...source.labels },
    matched_rules: [...source.matchedRules],
  };
  if (source.requestJson !== undefined || source.responseJson !== undefined) {
    const budget = { left: limits?.maxFields ?? 64 };
    const fields: { request?: PolicyBodyFields; response?: PolicyBodyFields } = {};
    if (source.requestJson !== undefined) collectBodyFields(source.requestJson, fields.request = {}, limits, budget);
    if (source.responseJson !== undefined) collectBodyFields(source.responseJson, fields.response = {}, limits, budget);
    view.body_fields = fields;
  }
  return view;
}
