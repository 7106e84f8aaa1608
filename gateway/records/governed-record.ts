// The governed record: what the telemetry lane stores and exports, and what the `gateway.record` topic carries.
// Never holds an unredacted value that a decision says to redact.

/** What is stored and exported. Never holds an unredacted value that a decision says to redact. */
export interface GovernedRecord {
  id: string;
  time: number;
  method: string;
  /** As received, without the query. */
  path: string;
  /** The matched rules' globs. */
  route: string[];
  query: Record<string, string | string[]>;
  status: number;
  duration_ms: number;
  /** Canonical capitalisation (Content-Type, X-Api-Key); null when headers are restricted. */
  headers: Record<string, string | string[]> | null;
  response_headers: Record<string, string | string[]> | null;
  /** JSON value, string for text, null when not kept (restricted, empty, sampled out, or dropped: see dropped_reason). */
  request_body: unknown;
  response_body: unknown;
  labels: Record<string, string>;
  matched_rules: string[];
  tokens: number | null;
  /** True when this exchange's bodies were selected for keeping (by the `sample` roll, or by `keep_errors`). */
  sampled: boolean;
  /** True when a captured body is not whole: cut by the capture limit, or cut short on the wire (`partial`). */
  truncated: boolean;
  /**
   * True when a captured body was cut short on the wire (the upstream reset mid-body, the client left mid-upload):
   * what is kept of it is a prefix of a message that was never whole, and `error` says why.
   */
  partial: boolean;
  /** Why a captured body is missing although it was selected, e.g. `request_body: truncated at capture limit…`. */
  dropped_reason: string | null;
  /**
   * Null when the upstream's answer went through whole; else why not: the code of the error response the gateway
   * gave instead (`VIGIL_ERR_PROXY_UPSTREAM_UNREACHABLE`, `…_UPSTREAM_TIMEOUT`, `…_UPSTREAM_BAD_RESPONSE`,
   * `…_BAD_REQUEST`, `…_INTERNAL`), or `client_aborted` when the client left first. It tells a 502 the upstream
   * sent from one the gateway made.
   */
  error: string | null;
  /**
   * Only on a record a middleware sent (POST /api/gateway/records) in which the agent's own policy masked or
   * removed something the middleware had left in clear: where, in this record (`headers.Authorization`,
   * `query.token`, `request_body.$.password`, `request_body` for a whole body, `path`, `…` past the first 32).
   * Absent everywhere else, so a record governed once, by the gateway or a middleware in step, has no such key.
   */
  agent_masked?: string[];
}

/**
 * A governed record on its way to storage: a `GovernedRecord` whose bodies are still JSON text, so that storing it
 * never parses and serialises them again. `recordJson` gives the JSON that is stored and exported; parsed, it is
 * the `GovernedRecord`.
 */
export interface StorableRecord extends Omit<GovernedRecord, 'request_body' | 'response_body'> {
  /** The request body as JSON text: the document for JSON, a string literal for text, `null` when not kept. */
  request_body_json: string;
  response_body_json: string;
}

/**
 * A storable record as the JSON of its `GovernedRecord` (same keys, same order), on one line. `parts` are fields the
 * caller has serialised already (to store them in columns of their own), so they are not serialised twice.
 */
export function recordJson(r: StorableRecord, parts: { route?: string; labels?: string } = {}): string {
  const s = JSON.stringify;
  return `{"id":${s(r.id)},"time":${s(r.time)},"method":${s(r.method)},"path":${s(r.path)},"route":${parts.route ?? s(r.route)},`
    + `"query":${s(r.query)},"status":${s(r.status)},"duration_ms":${s(r.duration_ms)},"headers":${s(r.headers)},`
    + `"response_headers":${s(r.response_headers)},"request_body":${oneLine(r.request_body_json)},"response_body":${oneLine(r.response_body_json)},`
    + `"labels":${parts.labels ?? s(r.labels)},"matched_rules":${s(r.matched_rules)},"tokens":${s(r.tokens)},"sampled":${s(r.sampled)},`
    + `"truncated":${s(r.truncated)},"partial":${s(r.partial)},"dropped_reason":${s(r.dropped_reason)},"error":${s(r.error)}`
    + `${r.agent_masked?.length ? `,"agent_masked":${s(r.agent_masked)}` : ''}}`;
}

/**
 * A body's JSON text on one line, so the record is a JSON Lines line as it is stored. A body keeps its own text, and
 * a formatted one spans lines; in valid JSON a raw CR or LF can only be whitespace between tokens (inside a string it
 * must be escaped), so a space in its place changes no value. Other bytes are kept as they are.
 */
function oneLine(json: string): string {
  return json.includes('\n') || json.includes('\r') ? json.replace(/[\r\n]/g, ' ') : json;
}

/**
 * A governed record as the `gateway.record` topic carries it. `json` is the record's JSON text exactly as capture
 * stored it (one line; parsed, the `GovernedRecord`): hand it on as it is. The other fields are copies of the
 * record's own, so that routing, filtering or summarising a record needs no parse.
 */
export interface GovernedRecordJson {
  readonly json: string;
  readonly id: string;
  /** Epoch ms, request start. */
  readonly time: number;
  readonly method: string;
  readonly path: string;
  /** The matched rules' globs. */
  readonly route: readonly string[];
  /** 0 when the upstream gave no response. */
  readonly status: number;
  readonly labels: Readonly<Record<string, string>>;
  /** Why the upstream's answer did not go through whole, or null (see `GovernedRecord.error`). */
  readonly error: string | null;
}

/**
 * The `gateway.record` payload for a record object, its `json` as `JSON.stringify` writes it: for tests and tools
 * that publish records. Capture publishes the stored text itself.
 */
export function governedRecordJson(r: GovernedRecord): GovernedRecordJson {
  return {
    json: JSON.stringify(r), id: r.id, time: r.time, method: r.method, path: r.path, route: r.route, status: r.status,
    labels: r.labels, error: r.error,
  };
}

declare module '@vigil/plugin-sdk' {
  interface Topics {
    /** Governed records, published by capture: each one's stored JSON text, to export as it is, and its key fields. */
    'gateway.record': GovernedRecordJson;
  }
}
