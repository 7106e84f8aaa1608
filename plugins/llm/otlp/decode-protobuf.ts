/**
 * Decodes an OTLP/HTTP protobuf body (opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest) into the
 * model of otlp-model.ts. Hand-written over the ~12 message types rather than a deep import of a package's
 * generated code; field numbers are those of opentelemetry-proto's trace.proto, common.proto and resource.proto.
 *
 * Unknown fields, and known fields that arrive with an unexpected wire type, are skipped, as proto3 parsers do.
 * Malformed bytes raise OtlpDecodeError only; limits bound the nesting, the span count and the value count.
 */
import { OtlpDecodeError } from './decode-error.js';
import {
  DEFAULT_DECODE_LIMITS, emptyAttributes,
  type OtlpAttributes, type OtlpDecodeLimits, type OtlpEvent, type OtlpResourceSpans, type OtlpScope,
  type OtlpScopeSpans, type OtlpSpan, type OtlpStatus, type OtlpTraceRequest, type OtlpValue,
} from './otlp-model.js';
import { ProtobufReader, WIRE_I32, WIRE_I64, WIRE_LEN, WIRE_VARINT } from './protobuf-reader.js';

/** Exported for decode-logs-protobuf.ts, which shares the resource, scope and AnyValue decoding. */
export class Decoder {
  readonly r: ProtobufReader;
  spans = 0;
  values = 0;
  constructor(bytes: Uint8Array, readonly limits: OtlpDecodeLimits) {
    this.r = new ProtobufReader(bytes);
  }

  /** Reads one field's tag; a field number 0 is never valid. */
  tag(): number {
    const tag = this.r.varint();
    if (tag < 8) throw new OtlpDecodeError('invalid_wire_type', `protobuf: field number 0 at byte ${this.r.pos}`);
    return tag;
  }

  /**
   * Enters an embedded message: reads its length and narrows `r.end` to it. Returns the outer end, which the
   * message's decoder restores when its loop is done (no closure per message: this runs for every attribute).
   */
  enter(): number {
    const r = this.r;
    const stop = r.lengthEnd();
    const outer = r.end;
    r.end = stop;
    return outer;
  }

  request(): OtlpTraceRequest {
    const r = this.r;
    const resourceSpans: OtlpResourceSpans[] = [];
    while (r.pos < r.end) {
      const tag = this.tag();
      if (tag === (1 << 3 | WIRE_LEN)) resourceSpans.push(this.resourceSpans());
      else r.skip(tag & 7);
    }
    return { resourceSpans, spanCount: this.spans };
  }

  resourceSpans(): OtlpResourceSpans {
    const outer = this.enter();
    const r = this.r;
    let attributes = emptyAttributes();
    const scopeSpans: OtlpScopeSpans[] = [];
    while (r.pos < r.end) {
      const tag = this.tag();
      if (tag === (1 << 3 | WIRE_LEN)) attributes = this.resource();
      else if (tag === (2 << 3 | WIRE_LEN)) scopeSpans.push(this.scopeSpans());
      else r.skip(tag & 7);
    }
    this.r.end = outer;
    return { resource: { attributes }, scopeSpans };
  }

  /** Resource: 1 attributes; the rest (dropped count, entity refs) is skipped. */
  resource(): OtlpAttributes {
    const outer = this.enter();
    const r = this.r;
    const attributes = emptyAttributes();
    while (r.pos < r.end) {
      const tag = this.tag();
      if (tag === (1 << 3 | WIRE_LEN)) this.keyValue(attributes, 0);
      else r.skip(tag & 7);
    }
    this.r.end = outer;
    return attributes;
  }

  scopeSpans(): OtlpScopeSpans {
    const outer = this.enter();
    const r = this.r;
    let scope: OtlpScope = { name: '', version: '', attributes: emptyAttributes() };
    const spans: OtlpSpan[] = [];
    while (r.pos < r.end) {
      const tag = this.tag();
      if (tag === (1 << 3 | WIRE_LEN)) scope = this.scope();
      else if (tag === (2 << 3 | WIRE_LEN)) {
        if (++this.spans > this.limits.maxSpans) {
          throw new OtlpDecodeError('too_many_spans', `protobuf: more than ${this.limits.maxSpans} spans in one request`);
        }
        spans.push(this.span());
      } else r.skip(tag & 7);
    }
    this.r.end = outer;
    return { scope, spans };
  }

  scope(): OtlpScope {
    const outer = this.enter();
    const r = this.r;
    const scope: OtlpScope = { name: '', version: '', attributes: emptyAttributes() };
    while (r.pos < r.end) {
      const tag = this.tag();
      switch (tag) {
        case 1 << 3 | WIRE_LEN: scope.name = r.string(); break;
        case 2 << 3 | WIRE_LEN: scope.version = r.string(); break;
        case 3 << 3 | WIRE_LEN: this.keyValue(scope.attributes, 0); break;
        default: r.skip(tag & 7);
      }
    }
    this.r.end = outer;
    return scope;
  }

  span(): OtlpSpan {
    const outer = this.enter();
    const r = this.r;
    const span: OtlpSpan = {
      traceId: '', spanId: '', parentSpanId: '', name: '', kind: 0, startTimeUnixNano: 0, endTimeUnixNano: 0,
      attributes: emptyAttributes(), droppedAttributesCount: 0, events: [], status: { code: 0, message: '' },
    };
    while (r.pos < r.end) {
      const tag = this.tag();
      switch (tag) {
        case 1 << 3 | WIRE_LEN: span.traceId = r.hex(); break;
        case 2 << 3 | WIRE_LEN: span.spanId = r.hex(); break;
        case 4 << 3 | WIRE_LEN: span.parentSpanId = r.hex(); break;
        case 5 << 3 | WIRE_LEN: span.name = r.string(); break;
        case 6 << 3 | WIRE_VARINT: span.kind = r.varint(); break;
        case 7 << 3 | WIRE_I64: span.startTimeUnixNano = r.fixed64(); break;
        case 8 << 3 | WIRE_I64: span.endTimeUnixNano = r.fixed64(); break;
        case 9 << 3 | WIRE_LEN: this.keyValue(span.attributes, 0); break;
        case 10 << 3 | WIRE_VARINT: span.droppedAttributesCount = r.varint(); break;
        case 11 << 3 | WIRE_LEN: span.events.push(this.event()); break;
        case 15 << 3 | WIRE_LEN: span.status = this.status(); break;
        // 3 trace_state, 12-14 dropped events and links, 16 flags (fixed32): not used by the mapping.
        case 16 << 3 | WIRE_I32: r.fixed32(); break;
        default: r.skip(tag & 7);
      }
    }
    this.r.end = outer;
    return span;
  }

  event(): OtlpEvent {
    const outer = this.enter();
    const r = this.r;
    const event: OtlpEvent = { timeUnixNano: 0, name: '', attributes: emptyAttributes() };
    while (r.pos < r.end) {
      const tag = this.tag();
      switch (tag) {
        case 1 << 3 | WIRE_I64: event.timeUnixNano = r.fixed64(); break;
        case 2 << 3 | WIRE_LEN: event.name = r.string(); break;
        case 3 << 3 | WIRE_LEN: this.keyValue(event.attributes, 0); break;
        default: r.skip(tag & 7);
      }
    }
    this.r.end = outer;
    return event;
  }

  /** Status: 2 message, 3 code (field 1 is the retired deprecated_code). */
  status(): OtlpStatus {
    const outer = this.enter();
    const r = this.r;
    const status: OtlpStatus = { code: 0, message: '' };
    while (r.pos < r.end) {
      const tag = this.tag();
      if (tag === (2 << 3 | WIRE_LEN)) status.message = r.string();
      else if (tag === (3 << 3 | WIRE_VARINT)) status.code = r.varint();
      else r.skip(tag & 7);
    }
    this.r.end = outer;
    return status;
  }

  /** KeyValue: 1 key, 2 value; stored into `into` (the last of repeated keys wins). */
  keyValue(into: OtlpAttributes, depth: number): void {
    const outer = this.enter();
    const r = this.r;
    if (++this.values > this.limits.maxValues) {
      throw new OtlpDecodeError('too_many_values', `protobuf: more than ${this.limits.maxValues} attribute values in one request`);
    }
    let key = '';
    let value: OtlpValue = null;
    while (r.pos < r.end) {
      const tag = this.tag();
      if (tag === (1 << 3 | WIRE_LEN)) key = r.string();
      else if (tag === (2 << 3 | WIRE_LEN)) value = this.anyValue(depth);
      else r.skip(tag & 7);
    }
    into[key] = value;
    this.r.end = outer;
  }

  /** AnyValue, a oneof: the last member on the wire wins, as in every protobuf decoder. */
  anyValue(depth: number): OtlpValue {
    const outer = this.enter();
    const r = this.r;
    if (depth >= this.limits.maxDepth) {
      throw new OtlpDecodeError('too_deep', `protobuf: attribute values nested deeper than ${this.limits.maxDepth} at byte ${r.pos}`);
    }
    let value: OtlpValue = null;
    while (r.pos < r.end) {
      const tag = this.tag();
      switch (tag) {
        case 1 << 3 | WIRE_LEN: value = r.string(); break;
        case 2 << 3 | WIRE_VARINT: value = r.varint() !== 0; break;
        case 3 << 3 | WIRE_VARINT: value = r.int64(); break;
        case 4 << 3 | WIRE_I64: value = r.double(); break;
        case 5 << 3 | WIRE_LEN: value = this.arrayValue(depth + 1); break;
        case 6 << 3 | WIRE_LEN: value = this.kvList(depth + 1); break;
        case 7 << 3 | WIRE_LEN: value = r.bytes(); break;
        default: r.skip(tag & 7);
      }
    }
    this.r.end = outer;
    return value;
  }

  arrayValue(depth: number): OtlpValue[] {
    const outer = this.enter();
    const r = this.r;
    const values: OtlpValue[] = [];
    while (r.pos < r.end) {
      const tag = this.tag();
      if (tag === (1 << 3 | WIRE_LEN)) {
        if (++this.values > this.limits.maxValues) {
          throw new OtlpDecodeError('too_many_values', `protobuf: more than ${this.limits.maxValues} attribute values in one request`);
        }
        values.push(this.anyValue(depth));
      } else r.skip(tag & 7);
    }
    this.r.end = outer;
    return values;
  }

  kvList(depth: number): OtlpAttributes {
    const outer = this.enter();
    const r = this.r;
    const out = emptyAttributes();
    while (r.pos < r.end) {
      const tag = this.tag();
      if (tag === (1 << 3 | WIRE_LEN)) this.keyValue(out, depth);
      else r.skip(tag & 7);
    }
    this.r.end = outer;
    return out;
  }
}

/** Decodes an ExportTraceServiceRequest; throws OtlpDecodeError (only) when the bytes are not one. */
export function decodeOtlpProtobuf(bytes: Uint8Array, limits: OtlpDecodeLimits = DEFAULT_DECODE_LIMITS): OtlpTraceRequest {
  return new Decoder(bytes, limits).request();
}
