// Test support: spans as the OpenTelemetry SDK hands them to an exporter (ReadableSpan), serialised by the real
// @opentelemetry/otlp-transformer serialisers, protobuf and JSON: the oracle the decoders are checked against.
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';

type Attr = Record<string, unknown>;

export interface SpanSpec {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  /** The API's SpanKind (0 internal … 4 consumer); OTLP numbers it one higher. */
  kind?: number;
  /** Milliseconds since the epoch, fractional allowed. */
  startMs?: number;
  durationMs?: number;
  attributes?: Attr;
  events?: { name: string; atMs: number; attributes?: Attr }[];
  status?: { code: number; message?: string };
  resource?: Attr;
  scope?: { name: string; version?: string };
}

const hrTime = (ms: number): [number, number] => {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
};

let counter = 1;
// The protobuf serialiser groups spans by scope object (the JSON one by name and version): share them, as an SDK does.
const scopes = new Map<string, unknown>();
const scopeOf = (scope: { name: string; version?: string }): unknown => {
  const key = `${scope.name}@${scope.version ?? ''}`;
  if (!scopes.has(key)) scopes.set(key, scope);
  return scopes.get(key);
};
// The serialisers group spans by resource object: spans with equal resource attributes share one, as in an SDK.
const resources = new Map<string, unknown>();
const resourceOf = (attributes: Attr): unknown => {
  const key = JSON.stringify(attributes);
  if (!resources.has(key)) resources.set(key, resourceFromAttributes(attributes as any));
  return resources.get(key);
};
const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0');

/** A ReadableSpan-shaped object: exactly the fields the serialisers read. */
export function readableSpan(spec: SpanSpec): any {
  const n = counter++;
  const startMs = spec.startMs ?? 1_700_000_000_123.456;
  const durationMs = spec.durationMs ?? 842.5;
  const traceId = spec.traceId ?? hex(0xabc000 + n, 16);
  const spanId = spec.spanId ?? hex(0xdef000 + n, 8);
  return {
    name: spec.name ?? 'chat gpt-4o-mini',
    kind: spec.kind ?? 2,
    spanContext: () => ({ traceId, spanId, traceFlags: 1 }),
    parentSpanContext: spec.parentSpanId ? { traceId, spanId: spec.parentSpanId, traceFlags: 1, isRemote: false } : undefined,
    startTime: hrTime(startMs),
    endTime: hrTime(startMs + durationMs),
    duration: hrTime(durationMs),
    status: spec.status ?? { code: 0 },
    attributes: spec.attributes ?? {},
    links: [],
    events: (spec.events ?? []).map((e) => ({ name: e.name, time: hrTime(e.atMs), attributes: e.attributes ?? {}, droppedAttributesCount: 0 })),
    ended: true,
    resource: resourceOf(spec.resource ?? { 'service.name': 'checkout' }),
    instrumentationScope: scopeOf(spec.scope ?? { name: '@traceloop/instrumentation-openai', version: '0.27.0' }),
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

export const protobufOf = (spans: any[]): Uint8Array => ProtobufTraceSerializer.serializeRequest(spans)!;
/** The OTLP/JSON body text, as the http/json exporter sends it. */
export const jsonTextOf = (spans: any[]): string => new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)!);
