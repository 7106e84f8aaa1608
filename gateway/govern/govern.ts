import { REDACTED } from '../../policies/compile-json-path.js';
import type { RouteDecision } from '../../policies/merge.js';
import { recordJson } from '../records/governed-record.js';
import { redactText } from '../../policies/detectors/index.js';
import type { FieldRecorder } from '../fields/field-recorder.js';
import { decodeBody, DEFAULT_MAX_DECODED_BYTES, type DecodeOptions, type DecodedBody } from './decode-body.js';
import { headersToRecord, setOwn } from './header-record.js';
import { maskDetected } from './mask-detected.js';
import { queryToRecord } from './query-record.js';
import type { GovernedRecord, GovernOptions, RawExchange, StorableRecord } from './types.js';

const NOT_DECODED: DecodedBody = Object.freeze({ kind: 'empty' });
/** Why a body an exchange says was not copied is missing (its bytes are empty: nothing to decode). */
const OVER_BUDGET = 'not copied: the capture lane held capture.queue_bytes of bodies already';

/**
 * Turns a raw exchange into the record that may be stored: headers, query parameters and JSON fields redacted,
 * labels attached, bodies sampled, tokens metered. The decision is enforced here again (a part the decision does
 * not capture is null whatever the exchange holds), and every failure to parse a body that a `json_fields`
 * redaction covers drops that body, with the reason in `dropped_reason`. Nothing unredacted is returned.
 *
 * Sampling never affects metering: tokens are read from every exchange, kept or not.
 */
export function governExchange(exchange: RawExchange, decision: RouteDecision, options: GovernOptions): GovernedRecord {
  return toGovernedRecord(governForStorage(exchange, decision, options));
}

/** Through the stored JSON: the record returned is exactly the one capture stores and exporters receive. */
export function toGovernedRecord(record: StorableRecord): GovernedRecord {
  return JSON.parse(recordJson(record)) as GovernedRecord;
}

/** `governExchange` with the bodies left as JSON text, for the telemetry lane, which stores them as they are. */
export function governForStorage(exchange: RawExchange, decision: RouteDecision, options: GovernOptions): StorableRecord {
  try {
    const record = governOrThrow(exchange, decision, options);
    return decision.detect.size === 0 ? record : maskDetected(record, decision.detect);
  } catch (err) {
    return metadataOnly(exchange, decision, err);
  }
}

/**
 * The record of an exchange whose governance failed unexpectedly: metadata only, no header, query or body, so a bug
 * here can lose content but never leak it, and one bad exchange never sinks the rest of its batch.
 */
function metadataOnly(exchange: RawExchange, decision: RouteDecision, err: unknown): StorableRecord {
  return {
    id: String(exchange.id), time: Number(exchange.time), method: String(exchange.method),
    path: decision.detect.size === 0 ? String(exchange.path) : redactText(String(exchange.path), [...decision.detect]),
    route: decision.routes.slice(), query: {}, status: Number(exchange.status), duration_ms: Number(exchange.durationMs),
    headers: null, response_headers: null, request_body_json: 'null', response_body_json: 'null', labels: {},
    matched_rules: decision.matchedRules.slice(), tokens: null, sampled: false, truncated: false, partial: false,
    dropped_reason: `governance failed (${err instanceof Error ? err.message : String(err)}); only metadata was kept`,
    error: errorOf(exchange),
  };
}

function governOrThrow(exchange: RawExchange, decision: RouteDecision, options: GovernOptions): StorableRecord {
  const maxDecodedBytes = options.maxDecodedBytes ?? DEFAULT_MAX_DECODED_BYTES;
  const status = exchange.status;
  // An exchange the upstream never answered (status 0) is an error as much as a 5xx.
  const isError = status === 0 || status >= 500;
  const rolled = decision.sample >= 1 ? true : decision.sample <= 0 ? false : options.random() < decision.sample;
  const keepBodies = rolled || (decision.keepErrors && isError);

  const captureRequest = decision.captureRequestBody && exchange.requestBody !== null;
  const captureResponse = decision.captureResponseBody && exchange.responseBody !== null;
  const needTokens = decision.meterTokens !== null;
  const decodeOptions: DecodeOptions = {
    jsonRequired: decision.jsonFields.length > 0,
    maxDecodedBytes,
    json: { redact: decision.jsonFields, read: decision.meterTokens },
  };
  // Field observations are taken from every exchange, kept or not, so usage counts do not depend on sampling: an
  // unsampled body is decoded for them (in the one pass that would validate it) and then not kept.
  const fields = options.fields !== undefined && options.fields.begin(exchange, decision) ? options.fields : null;
  if (fields !== null) fields.exchangeFields(exchange, decision);
  const decodeWanted = keepBodies || needTokens || fields !== null;

  // A body cut short on the wire is a prefix, whatever its publisher set `…Truncated` to: never read as whole.
  const requestIncomplete = captureRequest && exchange.requestIncomplete === true;
  const responseIncomplete = captureResponse && exchange.responseIncomplete === true;
  const requestTruncated = exchange.requestTruncated || requestIncomplete;
  const responseTruncated = exchange.responseTruncated || responseIncomplete;
  const reasons: string[] = [];
  // A body the traffic lane did not copy is missing, whatever bytes the exchange carries.
  const requestDropped = captureRequest && exchange.requestBodyDropped === true;
  const responseDropped = captureResponse && exchange.responseBodyDropped === true;
  const request = captureRequest && !requestDropped && decodeWanted
    ? decodeBody(exchange.requestBody, exchange.requestHeaders, requestTruncated,
      observed(requestIncomplete ? { ...decodeOptions, incomplete: true } : decodeOptions, fields, 'request_body', 0))
    : NOT_DECODED;
  const response = captureResponse && !responseDropped && decodeWanted
    ? decodeBody(exchange.responseBody, exchange.responseHeaders, responseTruncated,
      observed(responseIncomplete ? { ...decodeOptions, incomplete: true } : decodeOptions, fields, 'response_body', status))
    : NOT_DECODED;
  if (keepBodies && request.kind === 'dropped') reasons.push(`request_body: ${request.reason}`);
  if (keepBodies && requestDropped) reasons.push(`request_body: ${OVER_BUDGET}`);
  if (keepBodies && response.kind === 'dropped') reasons.push(`response_body: ${response.reason}`);
  if (keepBodies && responseDropped) reasons.push(`response_body: ${OVER_BUDGET}`);

  // The response's count first; the request's when the response has none.
  let tokens: number | null = null;
  if (response.kind === 'json') tokens = response.number;
  if (tokens === null && request.kind === 'json') tokens = request.number;

  const captureHeaders = decision.captureHeaders;
  return {
    id: exchange.id,
    time: exchange.time,
    method: exchange.method,
    path: exchange.path,
    route: decision.routes.slice(),
    query: queryToRecord(exchange.target, decision.redactQuery),
    status,
    duration_ms: exchange.durationMs,
    headers: captureHeaders && exchange.requestHeaders ? headersToRecord(exchange.requestHeaders, decision.redactHeaders) : null,
    response_headers: captureHeaders && exchange.responseHeaders
      ? headersToRecord(exchange.responseHeaders, decision.redactHeaders)
      : null,
    request_body_json: keepBodies ? bodyJson(request) : 'null',
    response_body_json: keepBodies ? bodyJson(response) : 'null',
    labels: governLabels(exchange.labels ?? {}, decision),
    matched_rules: decision.matchedRules.slice(),
    tokens,
    sampled: keepBodies,
    truncated: (captureRequest && requestTruncated) || (captureResponse && responseTruncated),
    partial: requestIncomplete || responseIncomplete,
    dropped_reason: reasons.length === 0 ? null : reasons.join('; '),
    error: errorOf(exchange),
  };
}

/** `options` with the body's JSON scan observed from its `$` node, when fields are recorded. */
function observed(options: DecodeOptions, fields: FieldRecorder | null, location: 'request_body' | 'response_body', status: number): DecodeOptions {
  const root = fields?.bodyRoot(location, status) ?? null;
  if (fields === null || root === null) return options;
  return { ...options, json: { ...options.json!, observe: { observer: fields, root } } };
}

/** The exchange's error code; anything but a string (any plugin may publish exchanges) reads as none. */
function errorOf(exchange: RawExchange): string | null {
  return typeof exchange.error === 'string' ? exchange.error : null;
}

/** A kept body as JSON text: the governed document itself for JSON, a string literal for text. */
function bodyJson(body: DecodedBody): string {
  if (body.kind === 'json') return body.text;
  return body.kind === 'text' ? JSON.stringify(body.value) : 'null';
}

/**
 * Labels as the proxy extracted them, except that a label read from a redacted header holds the marker: the record
 * never holds a value the decision redacts, wherever it is copied to.
 */
function governLabels(labels: Record<string, string>, decision: RouteDecision): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(labels)) {
    setOwn(out, name, labels[name]);
  }
  if (decision.redactHeaders.size !== 0) {
    for (const { name, header } of decision.labels) {
      if (Object.prototype.hasOwnProperty.call(out, name) && decision.redactHeaders.has(header)) out[name] = REDACTED;
    }
  }
  return out;
}
