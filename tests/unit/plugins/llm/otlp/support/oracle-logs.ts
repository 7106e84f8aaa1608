// Test support: log records as the OpenTelemetry SDK hands them to an exporter (ReadableLogRecord), serialised by
// the real @opentelemetry/otlp-transformer logs serialisers, protobuf and JSON: the oracle the logs decoders are
// checked against.
import { JsonLogsSerializer, ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';

export interface LogSpec {
  traceId?: string;
  spanId?: string;
  eventName?: string;
  body?: unknown;
  attributes?: Record<string, unknown>;
  /** Milliseconds since the epoch. */
  atMs?: number;
  severityNumber?: number;
  severityText?: string;
}

const hrTime = (ms: number): [number, number] => {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
};
// The serialisers group records by resource and scope object: one of each, as in one SDK.
const resource = resourceFromAttributes({ 'service.name': 'checkout' });
const scope = { name: '@opentelemetry/instrumentation-openai', version: '0.21.0' };

/** A ReadableLogRecord-shaped object: exactly the fields the serialisers read. */
export function readableLog(spec: LogSpec): any {
  const at = hrTime(spec.atMs ?? 1_700_000_000_123);
  return {
    hrTime: at,
    hrTimeObserved: at,
    severityNumber: spec.severityNumber ?? 9,
    severityText: spec.severityText,
    body: spec.body,
    eventName: spec.eventName,
    attributes: spec.attributes ?? {},
    droppedAttributesCount: 0,
    spanContext: spec.traceId ? { traceId: spec.traceId, spanId: spec.spanId, traceFlags: 1 } : undefined,
    resource,
    instrumentationScope: scope,
  };
}

export const logsProtobufOf = (logs: any[]): Uint8Array => ProtobufLogsSerializer.serializeRequest(logs)!;
export const logsJsonTextOf = (logs: any[]): string => new TextDecoder().decode(JsonLogsSerializer.serializeRequest(logs)!);
