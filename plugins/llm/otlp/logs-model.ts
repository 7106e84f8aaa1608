/**
 * The decoded ExportLogsServiceRequest, the same for protobuf and OTLP/JSON bodies: what the GenAI event mapping
 * (genai-log-events.ts) reads. Resource, scope and AnyValue are those of the trace model (otlp-model.ts).
 */
import type { OtlpAttributes, OtlpScope, OtlpValue } from './otlp-model.js';

export interface OtlpLogRecord {
  /** Nanoseconds since the Unix epoch, as a double; 0 when the sender left it unset. */
  timeUnixNano: number;
  observedTimeUnixNano: number;
  severityNumber: number;
  severityText: string;
  /** LogRecord.event_name (field 12); '' when absent (older SDKs put it in the `event.name` attribute). */
  eventName: string;
  body: OtlpValue;
  attributes: OtlpAttributes;
  /** Lowercase hex, '' when the record is not in a span's context. */
  traceId: string;
  spanId: string;
}

export interface OtlpScopeLogs {
  scope: OtlpScope;
  logRecords: OtlpLogRecord[];
}

export interface OtlpResourceLogs {
  resource: { attributes: OtlpAttributes };
  scopeLogs: OtlpScopeLogs[];
}

export interface OtlpLogsRequest {
  resourceLogs: OtlpResourceLogs[];
  /** Records in the whole request: the mapping's used + rejected + skipped add up to it. */
  recordCount: number;
}

export const emptyLogRecord = (attributes: OtlpAttributes): OtlpLogRecord => ({
  timeUnixNano: 0, observedTimeUnixNano: 0, severityNumber: 0, severityText: '', eventName: '', body: null, attributes, traceId: '', spanId: '',
});
