// Benchmark: decoding an OTLP/HTTP protobuf trace export, per span, with Vigil's hand-written decoder
// (plugins/llm/otlp/decode-protobuf.ts). Budget (bench/README.md): reported, as a ratio to JSON.parse of the same export
// in OTLP/JSON, the cost every JSON body pays before any decoding.
//
// Input: exports of 100 GenAI chat spans, as @traceloop/instrumentation-openai 0.27 writes them (about 20
// attributes, the messages as JSON text of about 0.8 KB), serialised by the real @opentelemetry/otlp-transformer
// serialisers, protobuf and JSON. Also printed, not budgeted: the whole JSON path (JSON.parse + decodeOtlpJson),
// and decode + mapping to trace items (map-request.ts).
//
// Usage: node dist/bench/otlp-decode.js [exports per round, default 1000]
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { decodeOtlpProtobuf } from '../plugins/llm/otlp/decode-protobuf.js';
import { decodeOtlpJson } from '../plugins/llm/otlp/decode-json.js';
import { mapOtlpRequest } from '../plugins/llm/otlp/map-request.js';
import { median } from './support/median.js';

const EXPORTS = Number(process.argv[2] ?? 1000);
const SPANS = 100;
const ROUNDS = 5;

const resource = resourceFromAttributes({ 'service.name': 'checkout', 'service.version': '1.4.2', 'deployment.environment.name': 'prod' });
const scope = { name: '@traceloop/instrumentation-openai', version: '0.27.0' };
const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0');

function span(i: number): any {
  const traceId = hex(0x5eed0000 + i, 16);
  const spanId = hex(0xa0000 + i, 8);
  const start = 1_700_000_000 + i;
  const question = `Customer ${i} asks: where is my order #${10_000 + i}? It was due on Monday and the tracking page shows no update since.`;
  return {
    name: 'chat gpt-4o-mini', kind: 2, spanContext: () => ({ traceId, spanId, traceFlags: 1 }), parentSpanContext: undefined,
    startTime: [start, 123_456_789], endTime: [start + 1, 23_456_789], duration: [0, 900_000_000], status: { code: 0 },
    attributes: {
      'gen_ai.provider.name': 'openai', 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.request.max_tokens': 400, 'gen_ai.request.temperature': 0.2, 'gen_ai.request.top_p': 1,
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18', 'gen_ai.response.id': `chatcmpl-${hex(i, 12)}`,
      'gen_ai.response.finish_reasons': ['stop'], 'gen_ai.usage.input_tokens': 180 + (i % 50), 'gen_ai.usage.output_tokens': 40 + (i % 30),
      'gen_ai.usage.total_tokens': 220 + (i % 80), 'server.address': 'api.openai.com', 'server.port': 443,
      'gen_ai.input.messages': JSON.stringify([
        { role: 'system', parts: [{ type: 'text', content: 'You are a support agent for an online shop. Answer in two sentences, politely, and never promise refunds.' }] },
        { role: 'user', parts: [{ type: 'text', content: question }] },
      ]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', finish_reason: 'stop', parts: [{ type: 'text', content: `Sorry about the delay on order #${10_000 + i}. It left our warehouse on Tuesday and should arrive within two days.` }] }]),
      'llm.is_streaming': false, 'traceloop.entity.path': 'support.answer',
    },
    links: [], events: [], ended: true, resource, instrumentationScope: scope,
    droppedAttributesCount: 0, droppedEventsCount: 0, droppedLinksCount: 0,
  };
}

const spans = Array.from({ length: SPANS }, (_, i) => span(i));
const protobuf = ProtobufTraceSerializer.serializeRequest(spans)!;
const jsonText = new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)!);
if (decodeOtlpProtobuf(protobuf).spanCount !== SPANS || mapOtlpRequest(decodeOtlpProtobuf(protobuf)).items.length !== SPANS) throw new Error('the bench input does not decode');

let sink = 0;
/**
 * CPU ns per span over `n` exports: CPU time, not wall time, so that other work on a shared machine does not land
 * on one side of the ratio (a round is long enough, about a second, for cpuUsage's microsecond resolution).
 */
function time(n: number, fn: () => number): number {
  const t0 = process.cpuUsage();
  for (let k = 0; k < n; k++) sink += fn();
  const used = process.cpuUsage(t0);
  return ((used.user + used.system) * 1000) / (n * SPANS);
}
const paths = {
  protobuf: () => decodeOtlpProtobuf(protobuf).spanCount,
  jsonParse: () => (JSON.parse(jsonText) as { resourceSpans: unknown[] }).resourceSpans.length,
  jsonDecode: () => decodeOtlpJson(JSON.parse(jsonText)).spanCount,
  protobufMapped: () => mapOtlpRequest(decodeOtlpProtobuf(protobuf)).items.length,
};
const results: Record<keyof typeof paths, number[]> = { protobuf: [], jsonParse: [], jsonDecode: [], protobufMapped: [] };
for (const fn of Object.values(paths)) time(Math.max(20, EXPORTS / 4), fn);
for (let r = 0; r < ROUNDS; r++) {
  (globalThis as { gc?: () => void }).gc?.();
  for (const [name, fn] of Object.entries(paths) as [keyof typeof paths, () => number][]) results[name].push(time(EXPORTS, fn));
}
if (sink === 0) throw new Error('nothing decoded');

const m = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, median(v)])) as Record<keyof typeof paths, number>;
const us = (ns: number) => (ns / 1000).toFixed(2);
console.log(`input: ${SPANS} spans per export; protobuf ${protobuf.length} bytes, OTLP/JSON ${jsonText.length} bytes`);
console.log(`otlp protobuf decode: ${us(m.protobuf)} µs CPU per span (ratio ${(m.protobuf / m.jsonParse).toFixed(2)} vs JSON.parse of the same export in OTLP/JSON, ${us(m.jsonParse)} µs per span)`);
console.log(`otlp json decode (JSON.parse + decodeOtlpJson): ${us(m.jsonDecode)} µs CPU per span (ratio ${(m.jsonDecode / m.jsonParse).toFixed(2)} vs JSON.parse alone)`);
console.log(`otlp protobuf decode + mapping to trace items: ${us(m.protobufMapped)} µs CPU per span (ratio ${(m.protobufMapped / m.jsonParse).toFixed(2)} vs JSON.parse)`);
