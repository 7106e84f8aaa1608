/**
 * Why an OTLP body could not be decoded. The whole request is refused (the spine answers 400 with its own error
 * code); per-span problems are not errors but rejections in the mapping's result (see map-request.ts).
 */
export type OtlpDecodeReason =
  | 'truncated'          // a length or a value runs past the end of its enclosing message
  | 'varint_too_long'    // more than 10 bytes: not a protobuf varint
  | 'invalid_wire_type'  // wire types 3, 4 (groups), 6 and 7 do not occur in OTLP
  | 'invalid_utf8'       // proto3 strings are UTF-8
  | 'too_deep'           // AnyValue nesting beyond limits.maxDepth
  | 'too_many_spans'     // beyond limits.maxSpans
  | 'too_many_records'   // log records beyond limits.maxSpans (one bound for both signals)
  | 'too_many_values'    // beyond limits.maxValues attribute values in the request
  | 'invalid_json'       // an OTLP/JSON body that is not JSON, or of the wrong shape
  | 'unsupported_media_type'; // neither application/x-protobuf nor application/json (the spine answers 415)

/** A plain Error with a stable reason; the plugin's errors.ts maps it to its catalogue. */
export class OtlpDecodeError extends Error {
  override readonly name = 'OtlpDecodeError';
  constructor(readonly reason: OtlpDecodeReason, message: string) {
    super(message);
  }
}
