// A request as one policy's decision would store it, for the detectors of `vigil scan`: the parts the decision
// restricts left out, the headers, parameters and JSON fields it names masked. Values masked already (a stored
// record's) stay masked. The decision's own detectors (`redact.detect`) are not applied here: what they would mask
// is exactly what the scan finds of their kinds, so the review drops those findings instead of detecting twice.
import { REDACTED, redactJsonPaths } from '../../../policies/compile-json-path.js';
import type { RouteDecision } from '../../../policies/merge.js';
import type { ScanInput } from '../scan/scan-core.js';

type Values = Record<string, string | string[]>;

/** Which names of a part a view holds: all, none, only these, or all but these (lower-case names). */
export type NameFilter = boolean | { only: ReadonlySet<string> } | { except: ReadonlySet<string> };

/** The parts of a request a view holds (`headers` covers request and response headers: one rule masks both). */
export interface ViewParts {
  query: NameFilter;
  headers: NameFilter;
  request_body: boolean;
  response_body: boolean;
}

function pick(values: Values | null, filter: NameFilter): Values | null {
  if (filter === true || values === null) return values;
  if (filter === false) return null;
  const out: Values = {};
  for (const key of Object.keys(values)) {
    const named = ('only' in filter ? filter.only : filter.except).has(key.toLowerCase());
    if (named === 'only' in filter) Object.defineProperty(out, key, { value: values[key], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export const ALL_PARTS: Readonly<ViewParts> = Object.freeze({ query: true, headers: true, request_body: true, response_body: true });

function maskNamed(values: Values | null, names: ReadonlySet<string>): Values | null {
  if (values === null || names.size === 0) return values;
  let out: Values | null = null;
  for (const key of Object.keys(values)) {
    if (!names.has(key.toLowerCase())) continue;
    out ??= { ...values };
    const v = values[key];
    out[key] = Array.isArray(v) ? v.map(() => REDACTED) : REDACTED;
  }
  return out ?? values;
}

function body(value: unknown, captured: boolean, decision: RouteDecision): unknown {
  if (!captured || value === null || value === undefined) return null;
  if (decision.jsonFields.length === 0) return value;
  // A text body under a `json_fields` rule is not stored (fails closed).
  if (typeof value === 'string') return null;
  return redactJsonPaths(JSON.parse(JSON.stringify(value)) as unknown, decision.jsonFields);
}

/** `input` as `decision` would store it, only `parts` of it (the others null); the input is never changed. */
export function recordView(input: ScanInput, decision: RouteDecision, parts: Readonly<ViewParts> = ALL_PARTS): ScanInput {
  const headers = decision.captureHeaders ? parts.headers : false;
  return {
    ...input,
    query: maskNamed(pick(input.query, parts.query), decision.redactQuery),
    headers: maskNamed(pick(input.headers ?? null, headers), decision.redactHeaders),
    response_headers: maskNamed(pick(input.response_headers ?? null, headers), decision.redactHeaders),
    request_body: parts.request_body ? body(input.request_body, decision.captureRequestBody, decision) : null,
    response_body: parts.response_body ? body(input.response_body, decision.captureResponseBody, decision) : null,
  };
}
