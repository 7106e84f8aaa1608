/**
 * The decoded ExportTraceServiceRequest, the same for protobuf and OTLP/JSON bodies: what the mapping reads.
 * Only the fields the mapping needs are kept (links are skipped; dropped counts are kept because they say data was
 * lost before it reached us).
 */

/**
 * An attribute value. `int_value` is a number when it is a safe integer and its decimal string otherwise; bytes are a
 * Uint8Array; an empty AnyValue is null; a kvlist is a record with a null prototype (keys come from the wire, so
 * `__proto__` must stay an ordinary key).
 */
export type OtlpValue = string | number | boolean | null | Uint8Array | OtlpValue[] | OtlpAttributes;

/** Null-prototype record; when a key repeats, the last value wins. */
export type OtlpAttributes = { [key: string]: OtlpValue };

export interface OtlpEvent {
  /** Nanoseconds since the Unix epoch, as a double: exact to ±128 ns at today's dates, enough for latencies. */
  timeUnixNano: number;
  name: string;
  attributes: OtlpAttributes;
}

export interface OtlpStatus {
  /** 0 unset, 1 ok, 2 error. */
  code: number;
  message: string;
}

export interface OtlpSpan {
  /** Lowercase hex; whatever length the sender gave (the mapping checks 32 and 16 characters). */
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: number;
  endTimeUnixNano: number;
  attributes: OtlpAttributes;
  droppedAttributesCount: number;
  events: OtlpEvent[];
  status: OtlpStatus;
}

export interface OtlpScope {
  name: string;
  version: string;
  attributes: OtlpAttributes;
}

export interface OtlpScopeSpans {
  scope: OtlpScope;
  spans: OtlpSpan[];
}

export interface OtlpResourceSpans {
  resource: { attributes: OtlpAttributes };
  scopeSpans: OtlpScopeSpans[];
}

export interface OtlpTraceRequest {
  resourceSpans: OtlpResourceSpans[];
  /** Spans in the whole request: the mapping's accepted + rejected + skipped add up to it. */
  spanCount: number;
}

/** Bounds that make hostile input an error rather than a hang or an out-of-memory. */
export interface OtlpDecodeLimits {
  /** AnyValue nesting (arrays and kvlists inside attribute values). */
  maxDepth: number;
  maxSpans: number;
  /** Attribute values in the whole request, nested ones included. */
  maxValues: number;
}

export const DEFAULT_DECODE_LIMITS: Readonly<OtlpDecodeLimits> = Object.freeze({
  maxDepth: 32,
  maxSpans: 20_000,
  maxValues: 1_000_000,
});

export const emptyAttributes = (): OtlpAttributes => Object.create(null) as OtlpAttributes;
