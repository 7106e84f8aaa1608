/**
 * Decodes an OTLP/JSON body (already parsed by JSON.parse) into the model of otlp-model.ts, per the OTLP spec's
 * JSON encoding: trace and span ids as hex strings (base64, protobuf's default JSON mapping, is accepted too), int64
 * and fixed64 as strings or numbers, enums as integers (their names accepted too), lowerCamelCase keys (the
 * proto's snake_case names accepted too, as protobuf JSON parsers do). Unknown keys are ignored.
 *
 * A value of the wrong type is an OtlpDecodeError naming its path: the whole body is refused, as a protobuf
 * body that does not parse is.
 */
import { Buffer } from 'node:buffer';
import { OtlpDecodeError } from './decode-error.js';
import {
  DEFAULT_DECODE_LIMITS, emptyAttributes,
  type OtlpAttributes, type OtlpDecodeLimits, type OtlpEvent, type OtlpResourceSpans, type OtlpScope,
  type OtlpScopeSpans, type OtlpSpan, type OtlpStatus, type OtlpTraceRequest, type OtlpValue,
} from './otlp-model.js';

type Json = Record<string, unknown>;

const SPAN_KINDS: Record<string, number> = {
  SPAN_KIND_UNSPECIFIED: 0, SPAN_KIND_INTERNAL: 1, SPAN_KIND_SERVER: 2, SPAN_KIND_CLIENT: 3, SPAN_KIND_PRODUCER: 4, SPAN_KIND_CONSUMER: 5,
};
const STATUS_CODES: Record<string, number> = { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 };
const HEX = /^[0-9a-fA-F]*$/;

export const fail = (path: string, what: string): never => {
  throw new OtlpDecodeError('invalid_json', `OTLP/JSON: ${path} ${what}`);
};

/** `obj.camelCase`, or `obj.snake_case` when the sender used the proto's field names. */
export const field = (obj: Json, camel: string, snake: string): unknown => (obj[camel] !== undefined ? obj[camel] : obj[snake]);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function object(v: unknown, path: string): Json | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) fail(path, 'is not an object');
  return v as Json;
}

export function list(v: unknown, path: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail(path, 'is not an array');
  return v as unknown[];
}

export function string(v: unknown, path: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') fail(path, 'is not a string');
  return v as string;
}

/** An int64/uint64/fixed64 field: a JSON number or a decimal string. */
export function integer(v: unknown, path: string): number {
  if (v === undefined || v === null || v === '') return 0;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isFinite(n)) fail(path, 'is not an integer');
  return n;
}

function enumValue(v: unknown, names: Record<string, number>, path: string): number {
  if (typeof v === 'string' && Object.hasOwn(names, v)) return names[v];
  return integer(v, path);
}

/** Trace and span ids: hex per the OTLP spec; base64 (protobuf's JSON mapping) when its length says so. */
export function id(v: unknown, bytes: number, path: string): string {
  const s = string(v, path);
  if (s.length === bytes * 2 && HEX.test(s)) return s.toLowerCase();
  if (s.length === Math.ceil(bytes / 3) * 4) {
    const raw = Buffer.from(s, 'base64');
    if (raw.length === bytes) return raw.toString('hex');
  }
  return s; // kept as sent: the mapping rejects the span with the reason
}

/** Exported for decode-logs-json.ts, which shares the resource, scope and AnyValue decoding. */
export class JsonDecoder {
  spans = 0;
  values = 0;
  constructor(readonly limits: OtlpDecodeLimits) {}

  request(body: unknown): OtlpTraceRequest {
    const root = object(body, 'the body') ?? fail('the body', 'is empty');
    const resourceSpans = list(field(root, 'resourceSpans', 'resource_spans'), 'resourceSpans')
      .map((rs, i) => this.resourceSpans(rs, `resourceSpans[${i}]`));
    return { resourceSpans, spanCount: this.spans };
  }

  resourceSpans(v: unknown, path: string): OtlpResourceSpans {
    const rs = object(v, path) ?? {};
    const resource = object(rs.resource, `${path}.resource`) ?? {};
    return {
      resource: { attributes: this.attributes(resource.attributes, `${path}.resource.attributes`, 0) },
      scopeSpans: list(field(rs, 'scopeSpans', 'scope_spans'), `${path}.scopeSpans`)
        .map((ss, i) => this.scopeSpans(ss, `${path}.scopeSpans[${i}]`)),
    };
  }

  scopeSpans(v: unknown, path: string): OtlpScopeSpans {
    const ss = object(v, path) ?? {};
    const s = object(ss.scope, `${path}.scope`) ?? {};
    const scope: OtlpScope = {
      name: string(s.name, `${path}.scope.name`),
      version: string(s.version, `${path}.scope.version`),
      attributes: this.attributes(s.attributes, `${path}.scope.attributes`, 0),
    };
    const spans = list(ss.spans, `${path}.spans`).map((span, i) => {
      if (++this.spans > this.limits.maxSpans) {
        throw new OtlpDecodeError('too_many_spans', `OTLP/JSON: more than ${this.limits.maxSpans} spans in one request`);
      }
      return this.span(span, `${path}.spans[${i}]`);
    });
    return { scope, spans };
  }

  span(v: unknown, path: string): OtlpSpan {
    const s = object(v, path) ?? {};
    const status = object(s.status, `${path}.status`) ?? {};
    const decodedStatus: OtlpStatus = {
      code: enumValue(status.code, STATUS_CODES, `${path}.status.code`),
      message: string(status.message, `${path}.status.message`),
    };
    return {
      traceId: id(field(s, 'traceId', 'trace_id'), 16, `${path}.traceId`),
      spanId: id(field(s, 'spanId', 'span_id'), 8, `${path}.spanId`),
      parentSpanId: id(field(s, 'parentSpanId', 'parent_span_id'), 8, `${path}.parentSpanId`),
      name: string(s.name, `${path}.name`),
      kind: enumValue(s.kind, SPAN_KINDS, `${path}.kind`),
      startTimeUnixNano: integer(field(s, 'startTimeUnixNano', 'start_time_unix_nano'), `${path}.startTimeUnixNano`),
      endTimeUnixNano: integer(field(s, 'endTimeUnixNano', 'end_time_unix_nano'), `${path}.endTimeUnixNano`),
      attributes: this.attributes(s.attributes, `${path}.attributes`, 0),
      droppedAttributesCount: integer(field(s, 'droppedAttributesCount', 'dropped_attributes_count'), `${path}.droppedAttributesCount`),
      events: list(s.events, `${path}.events`).map((e, i) => this.event(e, `${path}.events[${i}]`)),
      status: decodedStatus,
    };
  }

  event(v: unknown, path: string): OtlpEvent {
    const e = object(v, path) ?? {};
    return {
      timeUnixNano: integer(field(e, 'timeUnixNano', 'time_unix_nano'), `${path}.timeUnixNano`),
      name: string(e.name, `${path}.name`),
      attributes: this.attributes(e.attributes, `${path}.attributes`, 0),
    };
  }

  /** A repeated KeyValue into a null-prototype record (the last of repeated keys wins). */
  attributes(v: unknown, path: string, depth: number): OtlpAttributes {
    const out = emptyAttributes();
    const kvs = list(v, path);
    for (let i = 0; i < kvs.length; i++) {
      if (++this.values > this.limits.maxValues) {
        throw new OtlpDecodeError('too_many_values', `OTLP/JSON: more than ${this.limits.maxValues} attribute values in one request`);
      }
      const kv = object(kvs[i], `${path}[${i}]`) ?? {};
      out[string(kv.key, `${path}[${i}].key`)] = this.anyValue(kv.value, `${path}[${i}].value`, depth);
    }
    return out;
  }

  anyValue(v: unknown, path: string, depth: number): OtlpValue {
    if (depth >= this.limits.maxDepth) {
      throw new OtlpDecodeError('too_deep', `OTLP/JSON: attribute values nested deeper than ${this.limits.maxDepth} at ${path}`);
    }
    const a = object(v, path);
    if (a === undefined) return null;
    if (a.stringValue !== undefined || a.string_value !== undefined) return string(field(a, 'stringValue', 'string_value'), path);
    const b = field(a, 'boolValue', 'bool_value');
    if (b !== undefined) {
      if (typeof b !== 'boolean') fail(path, 'boolValue is not a boolean');
      return b as boolean;
    }
    const int = field(a, 'intValue', 'int_value');
    if (int !== undefined) return this.int64(int, path);
    const dbl = field(a, 'doubleValue', 'double_value');
    if (dbl !== undefined) {
      if (typeof dbl === 'number') return dbl;
      // Protobuf JSON writes the non-finite doubles, and sometimes any double, as strings.
      if (typeof dbl === 'string') {
        if (dbl === 'NaN') return NaN;
        const n = Number(dbl); // 'Infinity' and '-Infinity' included
        if (dbl.trim() !== '' && !Number.isNaN(n)) return n;
      }
      fail(path, 'doubleValue is not a number');
    }
    const arr = field(a, 'arrayValue', 'array_value');
    if (arr !== undefined) {
      const values = list((object(arr, `${path}.arrayValue`) ?? {}).values, `${path}.arrayValue.values`);
      return values.map((item, i) => {
        if (++this.values > this.limits.maxValues) {
          throw new OtlpDecodeError('too_many_values', `OTLP/JSON: more than ${this.limits.maxValues} attribute values in one request`);
        }
        return this.anyValue(item, `${path}.arrayValue.values[${i}]`, depth + 1);
      });
    }
    const kvl = field(a, 'kvlistValue', 'kvlist_value');
    if (kvl !== undefined) return this.attributes((object(kvl, `${path}.kvlistValue`) ?? {}).values, `${path}.kvlistValue.values`, depth + 1);
    const bytes = field(a, 'bytesValue', 'bytes_value');
    if (bytes !== undefined) return new Uint8Array(Buffer.from(string(bytes, `${path}.bytesValue`), 'base64'));
    return null;
  }

  int64(v: unknown, path: string): number | string {
    if (typeof v === 'number') {
      if (!Number.isInteger(v)) fail(path, 'intValue is not an integer');
      return v;
    }
    if (typeof v !== 'string' || !/^-?\d{1,20}$/.test(v)) return fail(path, 'intValue is not an integer');
    const n = Number(v);
    // Beyond 2^53 a double would change the value: keep the exact decimal string, as the protobuf decoder does.
    return Number.isSafeInteger(n) ? n : BigInt.asIntN(64, BigInt(v)).toString();
  }
}

/** Decodes a parsed OTLP/JSON ExportTraceServiceRequest; throws OtlpDecodeError (only) when it is not one. */
export function decodeOtlpJson(body: unknown, limits: OtlpDecodeLimits = DEFAULT_DECODE_LIMITS): OtlpTraceRequest {
  return new JsonDecoder(limits).request(body);
}
