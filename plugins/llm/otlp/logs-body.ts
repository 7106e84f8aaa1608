/**
 * The two encoding-dependent ends of an OTLP/HTTP logs export, as export-body.ts is for traces: the body → the
 * decoded request, and the partial success → ExportLogsServiceResponse in the request's encoding.
 */
import { decodeOtlpLogsJson } from './decode-logs-json.js';
import { decodeOtlpLogsProtobuf } from './decode-logs-protobuf.js';
import { encodeOtlpResponseProtobuf, type OtlpPartialSuccess } from './encode-response.js';
import { otlpEncodingOf, parseJsonBody, unsupportedMediaType, type OtlpEncoding } from './export-body.js';
import type { OtlpLogsRequest } from './logs-model.js';
import { DEFAULT_DECODE_LIMITS, type OtlpDecodeLimits } from './otlp-model.js';

/** Decodes a logs export body; throws OtlpDecodeError (only), `unsupported_media_type` for other content types. */
export function decodeOtlpLogsBody(contentType: string | undefined, body: Uint8Array, limits: OtlpDecodeLimits = DEFAULT_DECODE_LIMITS): OtlpLogsRequest {
  const encoding = otlpEncodingOf(contentType);
  if (encoding === 'protobuf') return decodeOtlpLogsProtobuf(body, limits);
  if (encoding === 'json') return decodeOtlpLogsJson(parseJsonBody(body), limits);
  throw unsupportedMediaType(contentType);
}

/**
 * ExportLogsServiceResponse. On the wire it is the trace response's twin (1: partial_success { 1: rejected_log_records
 * int64, 2: error_message }), so the protobuf encoder is shared; in JSON the count is `rejectedLogRecords`.
 * `partial.rejectedSpans` counts log records here.
 */
export function encodeOtlpLogsResponse(encoding: OtlpEncoding, partial?: OtlpPartialSuccess): { contentType: string; body: Uint8Array | string } {
  if (encoding === 'protobuf') return { contentType: 'application/x-protobuf', body: encodeOtlpResponseProtobuf(partial) };
  if (!partial || (partial.rejectedSpans <= 0 && partial.errorMessage === '')) return { contentType: 'application/json', body: '{}' };
  return {
    contentType: 'application/json',
    body: JSON.stringify({ partialSuccess: { rejectedLogRecords: String(Math.max(0, Math.floor(partial.rejectedSpans))), errorMessage: partial.errorMessage } }),
  };
}
