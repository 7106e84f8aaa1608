import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OtlpDecodeError } from '../../../../../plugins/llm/otlp/decode-error.js';
import { decodeOtlpLogsJson } from '../../../../../plugins/llm/otlp/decode-logs-json.js';
import { decodeOtlpLogsProtobuf } from '../../../../../plugins/llm/otlp/decode-logs-protobuf.js';
import { decodeOtlpLogsBody, encodeOtlpLogsResponse } from '../../../../../plugins/llm/otlp/logs-body.js';
import { DEFAULT_DECODE_LIMITS } from '../../../../../plugins/llm/otlp/otlp-model.js';
import { logsJsonTextOf, logsProtobufOf, readableLog } from './support/oracle-logs.js';
import { bytes, fixed64, len, str, tag, varint, vint } from './support/protobuf-writer.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (_k, x) => (x instanceof Uint8Array ? { bytes: [...x] } : x)));

const records = () => [
  readableLog({
    traceId: TRACE, spanId: SPAN, eventName: 'gen_ai.user.message', atMs: 1_700_000_000_123,
    body: { content: 'héllo 世界', nested: { list: [1, 2.5, 'x', true] } }, attributes: { 'gen_ai.system': 'openai', n: 42 },
    severityText: 'INFO',
  }),
  // Older SDKs: the event name as an attribute, no event_name field.
  readableLog({ traceId: TRACE, spanId: SPAN, attributes: { 'event.name': 'gen_ai.choice' }, body: { index: 0, finish_reason: 'stop', message: { content: 'Paris.' } } }),
  readableLog({ body: 'a plain log line, outside any span' }),
];

const reasonOf = (fn: () => unknown): string => {
  try { fn(); } catch (err) {
    assert.instance(err, OtlpDecodeError, `not an OtlpDecodeError: ${String(err)}`);
    return (err as OtlpDecodeError).reason;
  }
  return 'decoded';
};

test('protobuf from the real logs serialiser: every field the mapping reads', () => {
  const req = decodeOtlpLogsProtobuf(logsProtobufOf(records()));
  assert.is(req.recordCount, 3);
  const rl = req.resourceLogs[0];
  assert.is(rl.resource.attributes['service.name'], 'checkout');
  assert.is(rl.scopeLogs[0].scope.name, '@opentelemetry/instrumentation-openai');
  const [user, choice, plainLog] = rl.scopeLogs[0].logRecords;
  assert.equal([user.traceId, user.spanId, user.eventName, user.severityNumber, user.severityText], [TRACE, SPAN, 'gen_ai.user.message', 9, 'INFO']);
  assert.is(user.timeUnixNano, 1_700_000_000_123_000_000);
  assert.is(user.observedTimeUnixNano, 1_700_000_000_123_000_000);
  assert.equal(plain(user.body), { content: 'héllo 世界', nested: { list: [1, 2.5, 'x', true] } });
  assert.is(user.attributes.n, 42);
  assert.is(choice.eventName, '');
  assert.is(choice.attributes['event.name'], 'gen_ai.choice');
  assert.equal([plainLog.traceId, plainLog.spanId, plainLog.body], ['', '', 'a plain log line, outside any span']);
});

test('protobuf and OTLP/JSON of the same records decode to the same model', () => {
  assert.equal(plain(decodeOtlpLogsProtobuf(logsProtobufOf(records()))), plain(decodeOtlpLogsJson(JSON.parse(logsJsonTextOf(records())))));
});

test('JSON: protobuf\'s own mapping too (snake_case, base64 ids, severity names); wrong shapes refused with a path', () => {
  const req = decodeOtlpLogsJson({
    resource_logs: [{ scope_logs: [{ log_records: [{
      trace_id: Buffer.from(TRACE, 'hex').toString('base64'), span_id: Buffer.from(SPAN, 'hex').toString('base64'),
      event_name: 'gen_ai.system.message', severity_number: 'SEVERITY_NUMBER_WARN2', time_unix_nano: '1700000000000000000',
      body: { kvlist_value: { values: [{ key: 'content', value: { string_value: 'Be brief.' } }] } },
    }] }] }],
  });
  const rec = req.resourceLogs[0].scopeLogs[0].logRecords[0];
  assert.equal([rec.traceId, rec.spanId, rec.eventName, rec.severityNumber], [TRACE, SPAN, 'gen_ai.system.message', 14]);
  assert.equal(plain(rec.body), { content: 'Be brief.' });
  assert.equal(decodeOtlpLogsJson({}), { resourceLogs: [], recordCount: 0 });
  assert.throws(() => decodeOtlpLogsJson({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ eventName: 7 }] }] }] }), /resourceLogs\[0\]\.scopeLogs\[0\]\.logRecords\[0\]\.eventName is not a string/);
  assert.is(reasonOf(() => decodeOtlpLogsJson({ resourceLogs: 'x' })), 'invalid_json');
  assert.is(reasonOf(() => decodeOtlpLogsBody('application/json', new TextEncoder().encode('{nope'))), 'invalid_json');
  assert.is(reasonOf(() => decodeOtlpLogsBody('text/plain', new Uint8Array(0))), 'unsupported_media_type');
});

test('protobuf: unknown fields skipped; truncation, corruption and hostile bytes only ever raise OtlpDecodeError', () => {
  const unknown = [...vint(99, 7), ...fixed64(98, 5n), ...str(97, 'x')];
  const body = bytes(len(1, [...unknown, ...len(2, [...unknown, ...len(2, [...unknown, ...str(12, 'gen_ai.choice'), ...fixed64(1, 5n)])])]));
  const rec = decodeOtlpLogsProtobuf(body).resourceLogs[0].scopeLogs[0].logRecords[0];
  assert.equal([rec.eventName, rec.timeUnixNano], ['gen_ai.choice', 5]);
  const real = logsProtobufOf(records());
  const reasons = new Set<string>();
  for (let n = 0; n < real.length; n++) reasons.add(reasonOf(() => decodeOtlpLogsProtobuf(real.subarray(0, n))));
  assert.ok(reasons.has('truncated'));
  let seed = 11;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < 2000; i++) {
    const copy = Uint8Array.from(real);
    for (let k = 0; k < 3; k++) copy[Math.floor(rand() * copy.length)] = Math.floor(rand() * 256);
    reasonOf(() => decodeOtlpLogsProtobuf(copy));
  }
  assert.is(reasonOf(() => decodeOtlpLogsProtobuf(bytes(tag(1, 2), varint(0xffffffff), [1]))), 'truncated');
  assert.is(reasonOf(() => decodeOtlpLogsProtobuf(bytes(Array(11).fill(0xff), [1]))), 'varint_too_long');
  assert.is(reasonOf(() => decodeOtlpLogsProtobuf(bytes(tag(5, 3)))), 'invalid_wire_type');
  assert.is(reasonOf(() => decodeOtlpLogsProtobuf(bytes(len(1, len(2, len(2, len(12, [0x61, 0xc3, 0x28]))))))), 'invalid_utf8');
});

test('bounds: records, values and nesting, in both encodings', () => {
  const logs = Array.from({ length: 5 }, () => readableLog({ traceId: TRACE, spanId: SPAN, eventName: 'gen_ai.user.message', body: { content: 'x' } }));
  const proto = logsProtobufOf(logs);
  const json = JSON.parse(logsJsonTextOf(logs));
  assert.is(reasonOf(() => decodeOtlpLogsProtobuf(proto, { ...DEFAULT_DECODE_LIMITS, maxSpans: 4 })), 'too_many_records');
  assert.is(reasonOf(() => decodeOtlpLogsJson(json, { ...DEFAULT_DECODE_LIMITS, maxSpans: 4 })), 'too_many_records');
  assert.is(reasonOf(() => decodeOtlpLogsProtobuf(proto, { ...DEFAULT_DECODE_LIMITS, maxSpans: 5 })), 'decoded');
  assert.is(reasonOf(() => decodeOtlpLogsProtobuf(proto, { ...DEFAULT_DECODE_LIMITS, maxValues: 3 })), 'too_many_values');
  assert.is(reasonOf(() => decodeOtlpLogsJson(json, { ...DEFAULT_DECODE_LIMITS, maxValues: 3 })), 'too_many_values');
  let deep: unknown = 'core';
  for (let i = 0; i < 40; i++) deep = [deep];
  const deepLog = [readableLog({ traceId: TRACE, spanId: SPAN, eventName: 'gen_ai.user.message', body: { content: deep } })];
  assert.is(reasonOf(() => decodeOtlpLogsProtobuf(logsProtobufOf(deepLog))), 'too_deep');
  assert.is(reasonOf(() => decodeOtlpLogsJson(JSON.parse(logsJsonTextOf(deepLog)))), 'too_deep');
});

test('the response is ExportLogsServiceResponse: empty on success, partial_success with rejectedLogRecords', () => {
  assert.equal(encodeOtlpLogsResponse('json'), { contentType: 'application/json', body: '{}' });
  assert.is(encodeOtlpLogsResponse('protobuf').body.length, 0);
  const json = JSON.parse(encodeOtlpLogsResponse('json', { rejectedSpans: 2, errorMessage: 'why' }).body as string);
  assert.equal(json, { partialSuccess: { rejectedLogRecords: '2', errorMessage: 'why' } });
  const proto = encodeOtlpLogsResponse('protobuf', { rejectedSpans: 2, errorMessage: 'why' }).body as Uint8Array;
  assert.equal([...proto], [0x0a, 7, 0x08, 2, 0x12, 3, 0x77, 0x68, 0x79]);
});

test.run();
