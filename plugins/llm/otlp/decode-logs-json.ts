/**
 * Decodes an OTLP/JSON logs body (already parsed) into logs-model.ts, with the trace JSON decoder's rules: hex ids
 * (base64 accepted), int64 as string or number, lowerCamelCase keys (snake_case accepted), enums as numbers (or
 * names). A value of the wrong type refuses the whole body with its path.
 */
import { OtlpDecodeError } from './decode-error.js';
import { field, id, integer, JsonDecoder, list, object, string, fail } from './decode-json.js';
import type { OtlpLogRecord, OtlpLogsRequest, OtlpResourceLogs, OtlpScopeLogs } from './logs-model.js';
import { DEFAULT_DECODE_LIMITS, type OtlpDecodeLimits, type OtlpScope } from './otlp-model.js';

/** SeverityNumber names (SEVERITY_NUMBER_INFO …), for protobuf's JSON mapping: 1..24 in fours. */
const SEVERITY = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'];
function severity(v: unknown, path: string): number {
  if (typeof v === 'string' && v.startsWith('SEVERITY_NUMBER_')) {
    const name = v.slice('SEVERITY_NUMBER_'.length);
    if (name === 'UNSPECIFIED') return 0;
    const m = /^([A-Z]+)([234]?)$/.exec(name);
    const base = m ? SEVERITY.indexOf(m[1]) : -1;
    if (base >= 0) return base * 4 + 1 + (m![2] ? Number(m![2]) - 1 : 0);
  }
  return integer(v, path);
}

class LogsJsonDecoder extends JsonDecoder {
  records = 0;

  logsRequest(body: unknown): OtlpLogsRequest {
    const root = object(body, 'the body') ?? fail('the body', 'is empty');
    const resourceLogs = list(field(root, 'resourceLogs', 'resource_logs'), 'resourceLogs')
      .map((rl, i) => this.resourceLogs(rl, `resourceLogs[${i}]`));
    return { resourceLogs, recordCount: this.records };
  }

  resourceLogs(v: unknown, path: string): OtlpResourceLogs {
    const rl = object(v, path) ?? {};
    const resource = object(rl.resource, `${path}.resource`) ?? {};
    return {
      resource: { attributes: this.attributes(resource.attributes, `${path}.resource.attributes`, 0) },
      scopeLogs: list(field(rl, 'scopeLogs', 'scope_logs'), `${path}.scopeLogs`).map((sl, i) => this.scopeLogs(sl, `${path}.scopeLogs[${i}]`)),
    };
  }

  scopeLogs(v: unknown, path: string): OtlpScopeLogs {
    const sl = object(v, path) ?? {};
    const s = object(sl.scope, `${path}.scope`) ?? {};
    const scope: OtlpScope = {
      name: string(s.name, `${path}.scope.name`),
      version: string(s.version, `${path}.scope.version`),
      attributes: this.attributes(s.attributes, `${path}.scope.attributes`, 0),
    };
    const logRecords = list(field(sl, 'logRecords', 'log_records'), `${path}.logRecords`).map((rec, i) => {
      if (++this.records > this.limits.maxSpans) {
        throw new OtlpDecodeError('too_many_records', `OTLP/JSON: more than ${this.limits.maxSpans} log records in one request`);
      }
      return this.logRecord(rec, `${path}.logRecords[${i}]`);
    });
    return { scope, logRecords };
  }

  logRecord(v: unknown, path: string): OtlpLogRecord {
    const rec = object(v, path) ?? {};
    const traceId = field(rec, 'traceId', 'trace_id');
    const spanId = field(rec, 'spanId', 'span_id');
    return {
      timeUnixNano: integer(field(rec, 'timeUnixNano', 'time_unix_nano'), `${path}.timeUnixNano`),
      observedTimeUnixNano: integer(field(rec, 'observedTimeUnixNano', 'observed_time_unix_nano'), `${path}.observedTimeUnixNano`),
      severityNumber: severity(field(rec, 'severityNumber', 'severity_number'), `${path}.severityNumber`),
      severityText: string(field(rec, 'severityText', 'severity_text'), `${path}.severityText`),
      eventName: string(field(rec, 'eventName', 'event_name'), `${path}.eventName`),
      body: rec.body === undefined ? null : this.anyValue(rec.body, `${path}.body`, 0),
      attributes: this.attributes(rec.attributes, `${path}.attributes`, 0),
      // Absent ids stay '' (not in a span); present ones are decoded as the trace decoder does.
      traceId: traceId === undefined || traceId === '' ? '' : id(traceId, 16, `${path}.traceId`),
      spanId: spanId === undefined || spanId === '' ? '' : id(spanId, 8, `${path}.spanId`),
    };
  }
}

/** Decodes a parsed OTLP/JSON ExportLogsServiceRequest; throws OtlpDecodeError (only) when it is not one. */
export function decodeOtlpLogsJson(body: unknown, limits: OtlpDecodeLimits = DEFAULT_DECODE_LIMITS): OtlpLogsRequest {
  return new LogsJsonDecoder(limits).logsRequest(body);
}
