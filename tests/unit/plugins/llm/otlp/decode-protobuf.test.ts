import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeOtlpProtobuf } from '../../../../../plugins/llm/otlp/decode-protobuf.js';
import { decodeOtlpJson } from '../../../../../plugins/llm/otlp/decode-json.js';
import { OtlpDecodeError } from '../../../../../plugins/llm/otlp/decode-error.js';
import { DEFAULT_DECODE_LIMITS } from '../../../../../plugins/llm/otlp/otlp-model.js';
import { jsonTextOf, protobufOf, readableSpan } from './support/oracle-spans.js';
import { bytes, fixed64, kvString, len, requestWithSpan, str, tag, varint, vint } from './support/protobuf-writer.js';

const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_k, x) => (x instanceof Uint8Array ? { bytes: [...x] } : x)));

const richSpans = () => [
  readableSpan({
    traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', parentSpanId: '00f067aa0ba902b7',
    name: 'chat gpt-4o-mini', kind: 2, startMs: 1_700_000_000_123.456, durationMs: 842.5,
    attributes: {
      'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.usage.input_tokens': 12,
      'negative': -42, 'big': 2 ** 60, 'ratio': 0.25, 'flag': true, 'unicode': 'héllo — 世界 🎉',
      'list': ['a', 'b'], 'numbers': [1, 2.5, -3], 'nested': { a: { b: [1, { c: 'deep' }] } },
      'raw': new Uint8Array([0, 1, 254, 255]), ['__proto__']: 'an ordinary key',
    },
    events: [{ name: 'gen_ai.content.prompt', atMs: 1_700_000_000_200, attributes: { 'gen_ai.prompt': '[{"role":"user"}]' } }],
    status: { code: 2, message: 'rate limited' },
    resource: { 'service.name': 'checkout', 'deployment.environment': 'prod' },
    scope: { name: '@traceloop/instrumentation-openai', version: '0.27.0' },
  }),
  readableSpan({ name: 'second', attributes: {}, resource: { 'service.name': 'checkout', 'deployment.environment': 'prod' } }),
];

test('protobuf from the real serialiser: every field the mapping reads, with its value', () => {
  const req = decodeOtlpProtobuf(protobufOf(richSpans()));
  assert.is(req.spanCount, 2);
  assert.is(req.resourceSpans.length, 1);
  const rs = req.resourceSpans[0];
  assert.equal({ ...rs.resource.attributes }, { 'service.name': 'checkout', 'deployment.environment': 'prod' });
  assert.is(rs.scopeSpans[0].scope.name, '@traceloop/instrumentation-openai');
  assert.is(rs.scopeSpans[0].scope.version, '0.27.0');
  const span = rs.scopeSpans[0].spans[0];
  assert.is(span.traceId, '0af7651916cd43dd8448eb211c80319c');
  assert.is(span.spanId, 'b7ad6b7169203331');
  assert.is(span.parentSpanId, '00f067aa0ba902b7');
  assert.is(span.kind, 3, 'the API\'s CLIENT (2) is OTLP\'s SPAN_KIND_CLIENT (3)');
  assert.is(span.startTimeUnixNano, 1_700_000_000_123_456_000);
  assert.ok(Math.abs((span.endTimeUnixNano - span.startTimeUnixNano) / 1e6 - 842.5) < 0.001);
  assert.equal(span.status, { code: 2, message: 'rate limited' });
  const a = span.attributes;
  assert.is(a['gen_ai.usage.input_tokens'], 12);
  assert.is(a.negative, -42);
  assert.is(a.big, String(2n ** 60n), 'beyond 2^53 an int64 stays exact, as a decimal string');
  assert.is(a.ratio, 0.25);
  assert.is(a.flag, true);
  assert.is(a.unicode, 'héllo — 世界 🎉');
  assert.equal(a.list, ['a', 'b']);
  assert.equal(a.numbers, [1, 2.5, -3]);
  assert.equal(plain(a.nested), { a: { b: [1, { c: 'deep' }] } });
  assert.equal([...(a.raw as Uint8Array)], [0, 1, 254, 255]);
  assert.is(Object.getPrototypeOf(a), null);
  assert.is(a['__proto__'], 'an ordinary key', '__proto__ from the wire is a key, not a prototype');
  assert.is(span.events.length, 1);
  assert.is(span.events[0].name, 'gen_ai.content.prompt');
  assert.is(span.events[0].timeUnixNano, 1_700_000_000_200_000_000);
  assert.is(span.events[0].attributes['gen_ai.prompt'], '[{"role":"user"}]');
  assert.is(rs.scopeSpans[0].spans[1].parentSpanId, '');
});

test('protobuf and OTLP/JSON of the same spans decode to the same model', () => {
  const spans = richSpans();
  const fromProto = decodeOtlpProtobuf(protobufOf(spans));
  const fromJson = decodeOtlpJson(JSON.parse(jsonTextOf(spans)));
  // The JSON exporter writes an int64 as a JSON number, so JSON.parse already rounds 2^60 + …; protobuf keeps it exact.
  const big = (r: typeof fromProto) => r.resourceSpans[0].scopeSpans[0].spans[0].attributes;
  assert.is(big(fromProto).big, '1152921504606846976');
  assert.is(big(fromJson).big, 2 ** 60);
  delete big(fromProto).big;
  delete big(fromJson).big;
  assert.equal(plain(fromProto), plain(fromJson));
});

test('an empty body is an empty request; unknown fields at every level are skipped', () => {
  assert.equal(decodeOtlpProtobuf(new Uint8Array(0)), { resourceSpans: [], spanCount: 0 });
  const unknown = [...vint(99, 7), ...fixed64(98, 5n), ...str(97, 'x'), ...tag(96, 5), 1, 2, 3, 4];
  const body = bytes(unknown, len(1, [...unknown, ...len(2, [...unknown, ...len(2, [
    ...unknown, ...len(1, Array(16).fill(1)), ...len(2, Array(8).fill(2)), ...str(5, 'span'),
    ...kvString(9, 'k', 'v'), ...len(15, [...unknown, ...vint(3, 2)]),
    // a known field with the wrong wire type is skipped too (proto3 treats it as unknown)
    ...vint(5, 12), ...str(7, 'not a time'),
  ])])]));
  const span = decodeOtlpProtobuf(body).resourceSpans[0].scopeSpans[0].spans[0];
  assert.is(span.name, 'span');
  assert.is(span.attributes.k, 'v');
  assert.is(span.status.code, 2);
  assert.is(span.startTimeUnixNano, 0);
});

const reasonOf = (fn: () => unknown): string => {
  try { fn(); } catch (err) {
    assert.instance(err, OtlpDecodeError, `not an OtlpDecodeError: ${String(err)}`);
    return (err as OtlpDecodeError).reason;
  }
  return 'decoded';
};

test('every truncation of a real body is decoded or refused with OtlpDecodeError, never another throw', () => {
  const body = protobufOf(richSpans());
  const reasons = new Set<string>();
  for (let n = 0; n < body.length; n++) reasons.add(reasonOf(() => decodeOtlpProtobuf(body.subarray(0, n))));
  assert.ok(reasons.has('truncated'));
  assert.ok([...reasons].every((r) => r === 'truncated' || r === 'decoded' || r === 'invalid_utf8' || r === 'invalid_wire_type'), [...reasons].join());
});

test('random corruption of a real body: only OtlpDecodeError, and quickly', () => {
  const body = protobufOf(richSpans());
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const t0 = Date.now();
  let refused = 0;
  for (let i = 0; i < 3000; i++) {
    const copy = Uint8Array.from(body);
    for (let k = 0; k < 1 + Math.floor(rand() * 4); k++) copy[Math.floor(rand() * copy.length)] = Math.floor(rand() * 256);
    if (reasonOf(() => decodeOtlpProtobuf(copy)) !== 'decoded') refused++;
  }
  assert.ok(refused > 0);
  assert.ok(Date.now() - t0 < 20_000, 'no input makes the decoder crawl');
});

test('a length larger than what is left is truncated, even a 4 GiB one', () => {
  assert.is(reasonOf(() => decodeOtlpProtobuf(bytes(tag(1, 2), varint(0xffffffff), [1, 2, 3]))), 'truncated');
  assert.is(reasonOf(() => decodeOtlpProtobuf(bytes(tag(1, 2), varint(2n ** 63n)))), 'truncated');
  // a nested length may not run past its enclosing message, even when the buffer holds more bytes after it
  assert.is(reasonOf(() => decodeOtlpProtobuf(bytes(tag(1, 2), [3], tag(2, 2), [10], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))), 'truncated');
});

test('hostile varints, wire types and field numbers are refused', () => {
  assert.is(reasonOf(() => decodeOtlpProtobuf(bytes(Array(11).fill(0xff), [1]))), 'varint_too_long');
  assert.is(reasonOf(() => decodeOtlpProtobuf(bytes(tag(5, 3)))), 'invalid_wire_type', 'groups');
  assert.is(reasonOf(() => decodeOtlpProtobuf(bytes(tag(5, 7)))), 'invalid_wire_type');
  assert.is(reasonOf(() => decodeOtlpProtobuf(bytes([0x02, 0x00]))), 'invalid_wire_type', 'field number 0');
  assert.is(reasonOf(() => decodeOtlpProtobuf(bytes([0x80]))), 'truncated');
});

test('invalid UTF-8 in a string field is refused, short or long', () => {
  assert.is(reasonOf(() => decodeOtlpProtobuf(requestWithSpan(len(5, [0x61, 0xc3, 0x28])))), 'invalid_utf8');
  assert.is(reasonOf(() => decodeOtlpProtobuf(requestWithSpan(len(5, [...Array(100).fill(0x61), 0xed, 0xa0, 0x80])))), 'invalid_utf8', 'a surrogate');
  const ok = decodeOtlpProtobuf(requestWithSpan(str(5, 'ünïcödé '.repeat(20))));
  assert.is(ok.resourceSpans[0].scopeSpans[0].spans[0].name, 'ünïcödé '.repeat(20));
});

/** An attribute whose value is `depth` arrays nested in one another around a string. */
const nestedArrays = (depth: number): Uint8Array => {
  let value = str(1, 'core');
  for (let i = 0; i < depth; i++) value = len(5, len(1, value));
  return requestWithSpan(len(9, [...str(1, 'k'), ...len(2, value)]));
};

test('deep nesting is refused past maxDepth and accepted below it, without a stack overflow', () => {
  assert.is(reasonOf(() => decodeOtlpProtobuf(nestedArrays(DEFAULT_DECODE_LIMITS.maxDepth - 1))), 'decoded');
  assert.is(reasonOf(() => decodeOtlpProtobuf(nestedArrays(DEFAULT_DECODE_LIMITS.maxDepth))), 'too_deep');
  assert.is(reasonOf(() => decodeOtlpProtobuf(nestedArrays(5000))), 'too_deep');
});

test('span and value counts are bounded', () => {
  const spans = Array.from({ length: 5 }, () => readableSpan({ attributes: { a: 1, b: [1, 2, 3] } }));
  const body = protobufOf(spans);
  assert.is(reasonOf(() => decodeOtlpProtobuf(body, { ...DEFAULT_DECODE_LIMITS, maxSpans: 4 })), 'too_many_spans');
  assert.is(reasonOf(() => decodeOtlpProtobuf(body, { ...DEFAULT_DECODE_LIMITS, maxSpans: 5 })), 'decoded');
  // per span: 2 attributes + 3 array values, plus the resource's service.name
  assert.is(reasonOf(() => decodeOtlpProtobuf(body, { ...DEFAULT_DECODE_LIMITS, maxValues: 25 })), 'too_many_values');
  assert.is(reasonOf(() => decodeOtlpProtobuf(body, { ...DEFAULT_DECODE_LIMITS, maxValues: 26 })), 'decoded');
});

test('negative and 64-bit int values decode exactly', () => {
  const kvInt = (v: bigint) => requestWithSpan(len(9, [...str(1, 'n'), ...len(2, vint(3, v))]));
  const value = (v: bigint) => decodeOtlpProtobuf(kvInt(v)).resourceSpans[0].scopeSpans[0].spans[0].attributes.n;
  assert.is(value(-1n), -1);
  assert.is(value(-(2n ** 53n) + 1n), -(2 ** 53) + 1);
  assert.is(value(-(2n ** 63n)), '-9223372036854775808');
  assert.is(value(2n ** 63n - 1n), '9223372036854775807');
  assert.is(value(2n ** 31n), 2 ** 31);
  assert.is(value(2n ** 35n + 5n), 2 ** 35 + 5);
});

test.run();
