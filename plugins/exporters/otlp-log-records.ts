import { SeverityNumber, type AnyValue, type LogAttributes } from '@opentelemetry/api-logs';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { ExportRecord } from './exporter.js';

type Scope = ReadableLogRecord['instrumentationScope'];

/** Record fields with an OpenTelemetry semantic-convention name. */
const namedAttributes: Record<string, string> = {
  id: 'vigil.record.id',
  method: 'http.method',
  path: 'url.path',
  status: 'http.status_code',
  error: 'error.type',
};
/** Map-valued fields flattened to one attribute per key under a prefix. */
const prefixedMaps: Record<string, { prefix: string; lowerKeys: boolean }> = {
  headers: { prefix: 'http.request.header.', lowerKeys: true },
  response_headers: { prefix: 'http.response.header.', lowerKeys: true },
  labels: { prefix: 'vigil.labels.', lowerKeys: false },
  query: { prefix: 'vigil.query.', lowerKeys: false },
};
/** Bodies travel as text: a JSON value as its JSON text, a text body as it is. */
const bodyFields = new Set(['request_body', 'response_body']);
/** Fields that are not attributes: the time becomes the log record's timestamp. */
const skipped = new Set(['time']);

/**
 * One log record per exported record: the body is a short summary (`POST /api/payments 200`), the timestamp is the
 * record's `time` (epoch ms), the severity follows the status (5xx error, 4xx warn, else info), and the fields are
 * flat attributes. Nulls are omitted. Unknown fields become `vigil.<field>`, nested maps `vigil.<field>.<key>`.
 */
export function toLogRecord(record: ExportRecord, resource: Resource, scope: Scope, observedMs: number): ReadableLogRecord {
  const attributes: LogAttributes = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === null || value === undefined || skipped.has(key)) continue;
    if (key === 'route' && Array.isArray(value)) {
      if (value.length > 0) attributes['http.route'] = String(value[0]);
      if (value.length > 1) attributes['vigil.routes'] = value.map(String);
    } else if (namedAttributes[key]) {
      attributes[namedAttributes[key]] = flatValue(value);
    } else if (prefixedMaps[key] && isPlainObject(value)) {
      const { prefix, lowerKeys } = prefixedMaps[key];
      for (const [k, v] of Object.entries(value)) {
        if (v !== null && v !== undefined) attributes[prefix + (lowerKeys ? k.toLowerCase() : k)] = flatValue(v);
      }
    } else if (bodyFields.has(key)) {
      attributes[`vigil.${key}`] = typeof value === 'string' ? value : JSON.stringify(value);
    } else {
      flattenInto(attributes, `vigil.${key}`, value, 2);
    }
  }
  const status = typeof record.status === 'number' ? record.status : undefined;
  const [severityNumber, severityText] = severityOf(status);
  return {
    hrTime: hrTimeOf(typeof record.time === 'number' ? record.time : observedMs),
    hrTimeObserved: hrTimeOf(observedMs),
    body: summaryOf(record),
    severityNumber,
    severityText,
    resource,
    instrumentationScope: scope,
    attributes,
    droppedAttributesCount: 0,
  };
}

function summaryOf(record: ExportRecord): string {
  const parts = [record.method, record.path, record.status].filter((p) => p !== undefined && p !== null).map(String);
  return parts.length > 0 ? parts.join(' ') : 'vigil record';
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

function flattenInto(out: LogAttributes, name: string, value: unknown, depth: number): void {
  if (isPlainObject(value) && depth > 0) {
    for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) flattenInto(out, `${name}.${k}`, v, depth - 1);
    return;
  }
  out[name] = flatValue(value);
}

/** A primitive or an array of one primitive type as it is (OTLP attributes allow both); anything else as JSON text. */
function flatValue(value: unknown): AnyValue {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value) && value.length > 0) {
    const kind = typeof value[0];
    if ((kind === 'string' || kind === 'number' || kind === 'boolean') && value.every((v) => typeof v === kind)) return value as AnyValue;
  }
  return JSON.stringify(value) ?? String(value);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
