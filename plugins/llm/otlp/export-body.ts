/**
 * The two ends of an OTLP/HTTP trace export that depend on its encoding, for the spine's route handler (after it
 * has checked the key and inflated a gzip body): the request body → the decoded request, and the partial success
 * → the response body, in the request's encoding as the OTLP spec requires.
 */
import { OtlpDecodeError } from './decode-error.js';
import { decodeOtlpJson } from './decode-json.js';
import { decodeOtlpProtobuf } from './decode-protobuf.js';
import { encodeOtlpResponseJson, encodeOtlpResponseProtobuf, type OtlpPartialSuccess } from './encode-response.js';
import { DEFAULT_DECODE_LIMITS, type OtlpDecodeLimits, type OtlpTraceRequest } from './otlp-model.js';

export type OtlpEncoding = 'protobuf' | 'json';

/** The encoding a Content-Type names, or undefined (the spine answers 415). Parameters (`; charset=utf-8`) are ignored. */
export function otlpEncodingOf(contentType: string | undefined): OtlpEncoding | undefined {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes an export body; throws OtlpDecodeError (only), with reason `unsupported_media_type` for other types. */
export function decodeOtlpBody(contentType: string | undefined, body: Uint8Array, limits: OtlpDecodeLimits = DEFAULT_DECODE_LIMITS): OtlpTraceRequest {
  const encoding = otlpEncodingOf(contentType);
  if (encoding === 'protobuf') return decodeOtlpProtobuf(body, limits);
  if (encoding === 'json') return decodeOtlpJson(parseJsonBody(body), limits);
  throw unsupportedMediaType(contentType);
}

/** An OTLP/JSON body parsed; OtlpDecodeError `invalid_json` when it is not UTF-8 JSON. Shared with logs-body.ts. */
export function parseJsonBody(body: Uint8Array): unknown {
  try {
    return JSON.parse(utf8.decode(body));
  } catch (err) {
    throw new OtlpDecodeError('invalid_json', `OTLP/JSON: the body is not UTF-8 JSON (${(err as Error).message})`);
  }
}

export const unsupportedMediaType = (contentType: string | undefined): OtlpDecodeError =>
  new OtlpDecodeError('unsupported_media_type', `OTLP/HTTP takes application/x-protobuf or application/json, not ${contentType ? `"${contentType}"` : 'a body without a Content-Type'}`);

/** The response: content type and body of an ExportTraceServiceResponse in the request's encoding. */
export function encodeOtlpResponse(encoding: OtlpEncoding, partial?: OtlpPartialSuccess): { contentType: string; body: Uint8Array | string } {
  return encoding === 'protobuf'
    ? { contentType: 'application/x-protobuf', body: encodeOtlpResponseProtobuf(partial) }
    : { contentType: 'application/json', body: encodeOtlpResponseJson(partial) };
}
