/**
 * The answer to an OTLP/HTTP export: ExportTraceServiceResponse, in the encoding the request came in. Per the
 * OTLP spec, `partial_success` is set only when some spans were rejected (or there is a warning to give); a
 * full success is an empty message (zero bytes in protobuf, `{}` in JSON).
 */
export interface OtlpPartialSuccess {
  /** Spans refused; 0 with a message is a warning. */
  rejectedSpans: number;
  errorMessage: string;
}

const encoder = new TextEncoder();

function varint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
}

/** ExportTraceServiceResponse { 1: ExportTracePartialSuccess { 1: rejected_spans int64, 2: error_message } }. */
export function encodeOtlpResponseProtobuf(partial?: OtlpPartialSuccess): Uint8Array {
  if (!partial || (partial.rejectedSpans <= 0 && partial.errorMessage === '')) return new Uint8Array(0);
  const inner: number[] = [];
  if (partial.rejectedSpans > 0) {
    inner.push(1 << 3 | 0);
    varint(inner, Math.floor(partial.rejectedSpans));
  }
  const message = encoder.encode(partial.errorMessage);
  const head: number[] = [];
  if (message.length > 0) {
    head.push(2 << 3 | 2);
    varint(head, message.length);
  }
  const body = inner.length + head.length + message.length;
  const outer: number[] = [1 << 3 | 2];
  varint(outer, body);
  const bytes = new Uint8Array(outer.length + body);
  bytes.set(outer, 0);
  bytes.set(inner, outer.length);
  bytes.set(head, outer.length + inner.length);
  bytes.set(message, outer.length + inner.length + head.length);
  return bytes;
}

/** The OTLP/JSON form: int64 as a string, per the spec's JSON mapping. */
export function encodeOtlpResponseJson(partial?: OtlpPartialSuccess): string {
  if (!partial || (partial.rejectedSpans <= 0 && partial.errorMessage === '')) return '{}';
  return JSON.stringify({
    partialSuccess: { rejectedSpans: String(Math.max(0, Math.floor(partial.rejectedSpans))), errorMessage: partial.errorMessage },
  });
}
