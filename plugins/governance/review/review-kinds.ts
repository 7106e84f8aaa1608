// The points where two policies can disagree about a request, each with the direction it moves governance in.

/** Weakening fails the review; strengthening and a changed label source are reported only. */
export type Direction = 'weakening' | 'strengthening' | 'changed';

export const CHANGE_KINDS = {
  stops_redacting_json_field: { direction: 'weakening', title: 'Stops redacting a JSON field' },
  stops_redacting_query_param: { direction: 'weakening', title: 'Stops redacting a query parameter' },
  stops_redacting_header: { direction: 'weakening', title: 'Stops redacting a header' },
  stops_detecting: { direction: 'weakening', title: 'Stops masking a detected kind (redact.detect)' },
  captures_restricted_body: { direction: 'weakening', title: 'Now captures a body that was restricted' },
  captures_restricted_headers: { direction: 'weakening', title: 'Now captures headers that were restricted' },
  drops_label: { direction: 'weakening', title: 'Drops a label' },
  keeps_more_bodies: { direction: 'weakening', title: 'Keeps more bodies (sample, keep_errors)' },
  drops_wasm_policy: { direction: 'weakening', title: 'Stops applying a WASM policy' },
  starts_redacting_json_field: { direction: 'strengthening', title: 'Starts redacting a JSON field' },
  starts_redacting_query_param: { direction: 'strengthening', title: 'Starts redacting a query parameter' },
  starts_redacting_header: { direction: 'strengthening', title: 'Starts redacting a header' },
  starts_detecting: { direction: 'strengthening', title: 'Starts masking a detected kind (redact.detect)' },
  restricts_body: { direction: 'strengthening', title: 'Now restricts a body' },
  restricts_headers: { direction: 'strengthening', title: 'Now restricts headers' },
  adds_label: { direction: 'strengthening', title: 'Adds a label' },
  keeps_fewer_bodies: { direction: 'strengthening', title: 'Keeps fewer bodies (sample, keep_errors)' },
  adds_wasm_policy: { direction: 'strengthening', title: 'Starts applying a WASM policy' },
  changes_label_source: { direction: 'changed', title: 'Reads a label from another header' },
} as const satisfies Record<string, { direction: Direction; title: string }>;

export type ChangeKind = keyof typeof CHANGE_KINDS;

/** Where in the request a change applies; `route` for what applies to the whole request (labels, sampling, …). */
export type ChangePart = 'request_body' | 'response_body' | 'query' | 'request_header' | 'response_header' | 'headers' | 'route';

/** One change the traffic exercised, before counting. */
export interface ChangePoint {
  kind: ChangeKind;
  part: ChangePart;
  /** The JSON path, parameter or header name, detector kind, label name, module path, or `sample 0.1 → 1`. */
  field: string;
}
