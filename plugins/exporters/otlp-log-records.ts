import { SeverityNumber, type LogAttributes } from '@opentelemetry/api-logs';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ExportRecord } from './exporter.js';

type Scope = ReadableLogRecord['instrumentationScope'];

/**
 * One log record per exported record. The body is the record's JSON text as it is (a string value), so a collector
 * receives the stored record verbatim. The timestamp is the record's `time` (epoch ms), the severity follows its
 * status (5xx error, 4xx warn, else info), and the key fields a backend filters on are attributes, read from the
 * fields that travel with the text: nothing is parsed. A field the record lacks (a wasm module's output may hold
 * any shape) is left out.
 */
export function toLogRecord(record: ExportRecord, resource: Resource, scope: Scope, observedMs: number): ReadableLogRecord {
  const attributes: LogAttributes = {};
  if (record.id !== undefined) attributes['vigil.record.id'] = record.id;
  if (record.method !== undefined) attributes['http.method'] = record.method;
  if (record.path !== undefined) attributes['url.path'] = record.path;
  const route = record.route;
  if (route && route.length > 0) attributes['http.route'] = route[0];
  if (route && route.length > 1) attributes['vigil.routes'] = [...route];
  if (record.status !== undefined) attributes['http.status_code'] = record.status;
  if (record.error) attributes['error.type'] = record.error;
  if (record.labels) for (const name of Object.keys(record.labels)) attributes[`vigil.labels.${name}`] = record.labels[name];
  const [severityNumber, severityText] = severityOf(record.status);
  return {
    hrTime: hrTimeOf(record.time !== undefined && Number.isFinite(record.time) ? record.time : observedMs),
    hrTimeObserved: hrTimeOf(observedMs),
    body: record.json,
    severityNumber,
    severityText,
    resource,
    instrumentationScope: scope,
    attributes,
    droppedAttributesCount: 0,
  };
}

function severityOf(status: number | undefined): [SeverityNumber, string] {
  if (status === undefined || status === 0) return [SeverityNumber.INFO, 'INFO'];
  if (status >= 500) return [SeverityNumber.ERROR, 'ERROR'];
  if (status >= 400) return [SeverityNumber.WARN, 'WARN'];
  return [SeverityNumber.INFO, 'INFO'];
}

/** [seconds, nanoseconds] from epoch milliseconds. */
export function hrTimeOf(ms: number): [number, number] {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}
