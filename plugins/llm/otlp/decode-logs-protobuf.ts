/**
 * Decodes an OTLP/HTTP protobuf logs body (opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest) into
 * logs-model.ts. The trace decoder's resource, scope, KeyValue and AnyValue readers are reused as they are (same
 * bounds: nesting, value count); log records are bounded by `limits.maxSpans`. Field numbers are those of
 * opentelemetry-proto's logs.proto. Unknown fields, and known ones with an unexpected wire type, are skipped.
 */
import { OtlpDecodeError } from './decode-error.js';
import { Decoder } from './decode-protobuf.js';
import { emptyLogRecord, type OtlpLogRecord, type OtlpLogsRequest, type OtlpResourceLogs, type OtlpScopeLogs } from './logs-model.js';
import { DEFAULT_DECODE_LIMITS, emptyAttributes, type OtlpAttributes, type OtlpDecodeLimits, type OtlpScope } from './otlp-model.js';
import { WIRE_I32, WIRE_I64, WIRE_LEN, WIRE_VARINT } from './protobuf-reader.js';

class LogsDecoder extends Decoder {
  records = 0;

  logsRequest(): OtlpLogsRequest {
    const r = this.r;
    const resourceLogs: OtlpResourceLogs[] = [];
    while (r.pos < r.end) {
      const tag = this.tag();
      if (tag === (1 << 3 | WIRE_LEN)) resourceLogs.push(this.resourceLogs());
      else r.skip(tag & 7);
    }
    return { resourceLogs, recordCount: this.records };
  }

  /** ResourceLogs: 1 resource, 2 scope_logs (3 schema_url skipped). */
  resourceLogs(): OtlpResourceLogs {
    const outer = this.enter();
    const r = this.r;
    let attributes: OtlpAttributes = emptyAttributes();
    const scopeLogs: OtlpScopeLogs[] = [];
    while (r.pos < r.end) {
      const tag = this.tag();
      if (tag === (1 << 3 | WIRE_LEN)) attributes = this.resource();
      else if (tag === (2 << 3 | WIRE_LEN)) scopeLogs.push(this.scopeLogs());
      else r.skip(tag & 7);
    }
    r.end = outer;
    return { resource: { attributes }, scopeLogs };
  }

  /** ScopeLogs: 1 scope, 2 log_records (3 schema_url skipped). */
  scopeLogs(): OtlpScopeLogs {
    const outer = this.enter();
    const r = this.r;
    let scope: OtlpScope = { name: '', version: '', attributes: emptyAttributes() };
    const logRecords: OtlpLogRecord[] = [];
    while (r.pos < r.end) {
      const tag = this.tag();
      if (tag === (1 << 3 | WIRE_LEN)) scope = this.scope();
      else if (tag === (2 << 3 | WIRE_LEN)) {
        if (++this.records > this.limits.maxSpans) {
          throw new OtlpDecodeError('too_many_records', `protobuf: more than ${this.limits.maxSpans} log records in one request`);
        }
        logRecords.push(this.logRecord());
      } else r.skip(tag & 7);
    }
    r.end = outer;
    return { scope, logRecords };
  }

  /**
   * LogRecord: 1 time_unix_nano, 11 observed_time_unix_nano (fixed64), 2 severity_number, 3 severity_text, 5 body,
   * 6 attributes, 7 dropped_attributes_count, 8 flags (fixed32), 9 trace_id, 10 span_id, 12 event_name.
   */
  logRecord(): OtlpLogRecord {
    const outer = this.enter();
    const r = this.r;
    const rec = emptyLogRecord(emptyAttributes());
    while (r.pos < r.end) {
      const tag = this.tag();
      switch (tag) {
        case 1 << 3 | WIRE_I64: rec.timeUnixNano = r.fixed64(); break;
        case 11 << 3 | WIRE_I64: rec.observedTimeUnixNano = r.fixed64(); break;
        case 2 << 3 | WIRE_VARINT: rec.severityNumber = r.varint(); break;
        case 3 << 3 | WIRE_LEN: rec.severityText = r.string(); break;
        case 5 << 3 | WIRE_LEN: rec.body = this.anyValue(0); break;
        case 6 << 3 | WIRE_LEN: this.keyValue(rec.attributes, 0); break;
        case 8 << 3 | WIRE_I32: r.fixed32(); break;
        case 9 << 3 | WIRE_LEN: rec.traceId = r.hex(); break;
        case 10 << 3 | WIRE_LEN: rec.spanId = r.hex(); break;
        case 12 << 3 | WIRE_LEN: rec.eventName = r.string(); break;
        default: r.skip(tag & 7);
      }
    }
    r.end = outer;
    return rec;
  }
}

/** Decodes an ExportLogsServiceRequest; throws OtlpDecodeError (only) when the bytes are not one. */
export function decodeOtlpLogsProtobuf(bytes: Uint8Array, limits: OtlpDecodeLimits = DEFAULT_DECODE_LIMITS): OtlpLogsRequest {
  return new LogsDecoder(bytes, limits).logsRequest();
}
