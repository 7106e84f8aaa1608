/**
 * The governance gateway's data model, shared by its plugins (proxy, capture, governance, exporters) and by
 * third-party plugins that consume governed records.
 */
import type { FieldObservation, FieldOverflow } from './api-fields.js';

/** What the proxy puts on the bus (topic 'gateway.exchange'). Bodies are bounded copies of the bytes on the wire. */
export interface RawExchange {
  id: string;
  /** Epoch ms, request start. */
  time: number;
  method: string;
  /** Raw request-target, query included. */
  target: string;
  /** The path exactly as received, without the query (rules match its fold: policies/README.md, "Paths"). */
  path: string;
  /** From the decision. */
  ruleIndexes: number[];
  /** Already extracted by the proxy from request headers (they are metric dimensions). */
  labels: Record<string, string>;
  /** Node's rawHeaders (name, value, name, value…), or null when headers are restricted. */
  requestHeaders: string[] | null;
  responseHeaders: string[] | null;
  /** 0 when the upstream gave no response. */
  status: number;
  durationMs: number;
  /** Null when restricted (nothing was allocated). */
  requestBody: Uint8Array | null;
  requestTruncated: boolean;
  responseBody: Uint8Array | null;
  responseTruncated: boolean;
  /**
   * The request body ended early on the wire (the client left, or was cut off for sending too slowly): its copy is
   * a prefix of a body that was never whole, so `requestTruncated` is true as well. Absent means false.
   */
  requestIncomplete?: boolean;
  /**
   * The upstream's response body ended early: a reset, a close short of its Content-Length, a cut chunked encoding,
   * or a timeout between chunks. `responseTruncated` is true as well. Absent means false.
   */
  responseIncomplete?: boolean;
  /**
   * The body was not copied although the decision captures it: the telemetry lane's byte budget
   * (`capture.queue_bytes`) was spent. The body field is then empty. Absent means false.
   */
  requestBodyDropped?: boolean;
  responseBodyDropped?: boolean;
  /**
   * Bytes of the telemetry lane's budget (`CaptureService.takeBodyBytes`) that this exchange's copies hold; the lane
   * gives them back once it is done with the exchange. Absent means none.
   */
  heldBytes?: number;
  /**
   * Why the exchange ended without the upstream's full answer: the code of the gateway's own error response
   * (`VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT`, …; status 502 / 504 / 400), or `client_aborted`. Absent otherwise.
   */
  error?: string;
}

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
    + `"truncated":${s(r.truncated)},"partial":${s(r.partial)},"dropped_reason":${s(r.dropped_reason)},"error":${s(r.error)}}`;
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

/** The gateway's policy as the governance workers receive it (the `policy` service's `workerJson`, parsed). */
export interface TelemetryPolicy {
  /** The rules (`service` is not needed), each `wasm` module path absolute. */
  rules?: readonly object[];
  /**
   * SHA-256 of each WASM module the rules name, by path, read when the policy was set: a thread holding a module
   * loaded under another digest loads it again, so a module rebuilt in place applies on a reload.
   */
  modules?: Readonly<Record<string, string>>;
}

/** What the telemetry lane (the `capture` plugin) offers the traffic lane (the `proxy` plugin). */
export interface CaptureService {
  /** Bytes of each body the proxy may copy (`capture.max_body_bytes`, default 1 MiB). */
  readonly maxBodyBytes: number;
  /**
   * Takes bytes from the lane's budget for body copies (`capture.queue_bytes`) before they are allocated; false when
   * they do not fit, and then the body is not copied. Bytes taken travel with the published exchange
   * (`RawExchange.heldBytes`), and the lane gives them back when it is done with it.
   */
  takeBodyBytes(bytes: number): boolean;
  /** Gives back bytes taken for copies that will not be published after all. */
  giveBodyBytes(bytes: number): void;
}

/**
 * The task of the policy service's worker module (`workerModule`, a piscina task module): capture's worker threads
 * call it with batches of exchanges and the policy they were decided under; it answers one storable record per
 * exchange.
 */
export interface GovernTask {
  /** The policy the exchanges were decided under. */
  policy: TelemetryPolicy;
  exchanges: RawExchange[];
  /**
   * Also observe the fields the exchanges use (`GovernResult.fields`). Absent or false: no observation, and
   * governance costs what it did before field observations existed. `true`: each route is observed fully while it
   * warms up (and after a batch found something new), then one exchange in K is walked and counts K times, so counts
   * are estimates. `'full'`: every exchange is walked, counts are exact (at about twice governance's CPU).
   */
  recordFields?: boolean | 'full';
}

/** The worker module's answer to one task. */
export interface GovernResult {
  /** One record per exchange, in input order. */
  records: StorableRecord[];
  /** WASM policy calls that failed while the batch was governed, by reason (its records failed closed). */
  sandboxFailures: Record<string, number>;
  /**
   * The fields the batch's exchanges used (api-fields.ts), merged per route, location, status and name; taken
   * before redaction, holding no value. Absent from workers that do not record them.
   */
  fields?: FieldObservation[];
  /** Observations the worker's caps left out in this batch. */
  fieldOverflow?: FieldOverflow;
}
