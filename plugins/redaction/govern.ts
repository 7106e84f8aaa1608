import { readJsonPathNumber, redactJsonPaths, REDACTED } from '../../policies/compile-json-path.js';
import type { RouteDecision } from '../../policies/merge.js';
import { decodeBody, DEFAULT_MAX_DECODED_BYTES, type DecodedBody } from './decode-body.js';
import { headersToRecord, setOwn } from './header-record.js';
import { queryToRecord } from './query-record.js';
import type { GovernedRecord, GovernOptions, RawExchange } from './types.js';

const NOT_DECODED: DecodedBody = Object.freeze({ kind: 'empty' });

/**
 * Turns a raw exchange into the record that may be stored: headers, query parameters and JSON fields redacted,
 * labels attached, bodies sampled, tokens metered. The decision is enforced here again (a part the decision does
 * not capture is null whatever the exchange holds), and every failure to parse a body that a `json_fields`
 * redaction covers drops that body, with the reason in `dropped_reason`. Nothing unredacted is returned.
 *
 * Sampling never affects metering: tokens are read from every exchange, kept or not.
 */
export function governExchange(exchange: RawExchange, decision: RouteDecision, options: GovernOptions): GovernedRecord {
  try {
    return governOrThrow(exchange, decision, options);
  } catch (err) {
    return metadataOnly(exchange, decision, err);
  }
}

/**
 * The record of an exchange whose governance failed unexpectedly: metadata only, no header, query or body, so a bug
 * here can lose content but never leak it, and one bad exchange never sinks the rest of its batch.
 */
function metadataOnly(exchange: RawExchange, decision: RouteDecision, err: unknown): GovernedRecord {
  return {
    id: String(exchange.id), time: Number(exchange.time), method: String(exchange.method), path: String(exchange.path),
    route: decision.routes.slice(), query: {}, status: Number(exchange.status), duration_ms: Number(exchange.durationMs),
    headers: null, response_headers: null, request_body: null, response_body: null, labels: {},
    matched_rules: decision.matchedRules.slice(), tokens: null, sampled: false, truncated: false,
    dropped_reason: `governance failed (${err instanceof Error ? err.message : String(err)}); only metadata was kept`,
  };
}

function governOrThrow(exchange: RawExchange, decision: RouteDecision, options: GovernOptions): GovernedRecord {
  const maxDecodedBytes = options.maxDecodedBytes ?? DEFAULT_MAX_DECODED_BYTES;
  const status = exchange.status;
  // An exchange the upstream never answered (status 0) is an error as much as a 5xx.
  const isError = status === 0 || status >= 500;
  const rolled = decision.sample >= 1 ? true : decision.sample <= 0 ? false : options.random() < decision.sample;
  const keepBodies = rolled || (decision.keepErrors && isError);

  const captureRequest = decision.captureRequestBody && exchange.requestBody !== null;
  const captureResponse = decision.captureResponseBody && exchange.responseBody !== null;
  const needTokens = decision.meterTokens !== null;
  const decodeOptions = { jsonRequired: decision.jsonFields.length > 0, maxDecodedBytes };

  const reasons: string[] = [];
  const request = captureRequest && (keepBodies || needTokens)
    ? governBody(exchange.requestBody, exchange.requestHeaders, exchange.requestTruncated, decision, decodeOptions)
    : NOT_DECODED;
  const response = captureResponse && (keepBodies || needTokens)
    ? governBody(exchange.responseBody, exchange.responseHeaders, exchange.responseTruncated, decision, decodeOptions)
    : NOT_DECODED;
  if (keepBodies && request.kind === 'dropped') reasons.push(`request_body: ${request.reason}`);
  if (keepBodies && response.kind === 'dropped') reasons.push(`response_body: ${response.reason}`);

  let tokens: number | null = null;
  if (decision.meterTokens !== null) {
    if (response.kind === 'json') tokens = readJsonPathNumber(response.value, decision.meterTokens);
    if (tokens === null && request.kind === 'json') tokens = readJsonPathNumber(request.value, decision.meterTokens);
  }

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
    request_body: keepBodies ? storedValue(request) : null,
    response_body: keepBodies ? storedValue(response) : null,
    labels: governLabels(exchange.labels ?? {}, decision),
    matched_rules: decision.matchedRules.slice(),
    tokens,
    sampled: keepBodies,
    truncated: (captureRequest && exchange.requestTruncated) || (captureResponse && exchange.responseTruncated),
    dropped_reason: reasons.length === 0 ? null : reasons.join('; '),
  };
}

function governBody(
  bytes: Uint8Array | null,
  headers: readonly string[] | null,
  truncated: boolean,
  decision: RouteDecision,
  decodeOptions: { jsonRequired: boolean; maxDecodedBytes: number },
): DecodedBody {
  const body = decodeBody(bytes, headers, truncated, decodeOptions);
  if (body.kind !== 'json' || decision.jsonFields.length === 0) return body;
  try {
    return { kind: 'json', value: redactJsonPaths(body.value, decision.jsonFields) };
  } catch (err) {
    // A body nested deeper than the stack allows cannot be walked, so it cannot be shown to be clean.
    return { kind: 'dropped', reason: `cannot apply json_fields redaction (${(err as Error).message})` };
  }
}

function storedValue(body: DecodedBody): unknown {
  return body.kind === 'json' || body.kind === 'text' ? body.value : null;
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
