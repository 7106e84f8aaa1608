// A request as one policy's decision would store it, for the detectors of `vigil scan`: the parts the decision
// restricts left out, the headers, parameters and JSON fields it names masked, its detectors' spans masked. Values
// masked already (a stored record's) stay masked, so what the scan still finds was stored in the clear under both.
import { REDACTED, redactJsonPaths } from '../../../policies/compile-json-path.js';
import { maskStrings } from '../../../policies/govern-json.js';
import type { RouteDecision } from '../../../policies/merge.js';
import { maskValues } from '../mask-detected.js';
import type { ScanInput } from '../scan/scan-core.js';

type Values = Record<string, string | string[]>;

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

/** `input` as `decision` would store it; the input is never changed. */
export function recordView(input: ScanInput, decision: RouteDecision): ScanInput {
  const kinds = decision.detect.size === 0 ? null : [...decision.detect];
  const values = (v: Values | null | undefined, names: ReadonlySet<string>): Values | null => {
    const masked = maskNamed(v ?? null, names);
    return kinds === null || masked === null ? masked : maskValues(masked, kinds);
  };
  const bodyOf = (v: unknown, captured: boolean): unknown => {
    const masked = body(v, captured, decision);
    return kinds === null || masked === null ? masked : maskStrings(masked, kinds);
  };
  return {
    ...input,
    query: values(input.query, decision.redactQuery),
    headers: decision.captureHeaders ? values(input.headers, decision.redactHeaders) : null,
    response_headers: decision.captureHeaders ? values(input.response_headers, decision.redactHeaders) : null,
    request_body: bodyOf(input.request_body, decision.captureRequestBody),
    response_body: bodyOf(input.response_body, decision.captureResponseBody),
  };
}
