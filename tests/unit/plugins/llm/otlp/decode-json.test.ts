import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeOtlpJson } from '../../../../../plugins/llm/otlp/decode-json.js';
import { OtlpDecodeError } from '../../../../../plugins/llm/otlp/decode-error.js';
import { DEFAULT_DECODE_LIMITS } from '../../../../../plugins/llm/otlp/otlp-model.js';

const body = (span: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] }, scopeSpans: [{ scope: { name: 's' }, spans: [span] }] }],
  ...extra,
});
const firstSpan = (b: unknown) => decodeOtlpJson(b).resourceSpans[0].scopeSpans[0].spans[0];

const refusal = (b: unknown, limits: Partial<typeof DEFAULT_DECODE_LIMITS> = {}): OtlpDecodeError => {
  try { decodeOtlpJson(b, { ...DEFAULT_DECODE_LIMITS, ...limits }); } catch (err) {
    assert.instance(err, OtlpDecodeError);
    return err as OtlpDecodeError;
  }
  throw new assert.Assertion({ message: 'decoded, expected a refusal' } as any);
};

test('hex ids, string and number int64s, enum numbers: the OTLP exporter\'s JSON', () => {
  const span = firstSpan(body({
    traceId: '0AF7651916CD43DD8448EB211C80319C', spanId: 'b7ad6b7169203331', parentSpanId: '',
    name: 'chat', kind: 3, startTimeUnixNano: '1700000000123456789', endTimeUnixNano: 1700000000999000000,
    attributes: [
      { key: 'tokens', value: { intValue: 12 } }, { key: 'tokens_str', value: { intValue: '34' } },
      { key: 'big', value: { intValue: '9223372036854775807' } }, { key: 'neg', value: { intValue: '-5' } },
      { key: 'd', value: { doubleValue: 0.5 } }, { key: 'nan', value: { doubleValue: 'NaN' } }, { key: 'inf', value: { doubleValue: '-Infinity' } },
      { key: 'b', value: { boolValue: false } }, { key: 'empty', value: {} }, { key: 'missing' },
      { key: 'bytes', value: { bytesValue: 'AAH+/w==' } },
      { key: 'arr', value: { arrayValue: { values: [{ stringValue: 'x' }, { intValue: 1 }] } } },
      { key: 'kv', value: { kvlistValue: { values: [{ key: 'a', value: { stringValue: 'b' } }] } } },
    ],
    events: [{ timeUnixNano: '1700000000500000000', name: 'e', attributes: [] }],
    status: { code: 2, message: 'boom' },
  }));
  assert.is(span.traceId, '0af7651916cd43dd8448eb211c80319c', 'ids are lowercased');
  assert.is(span.kind, 3);
  assert.is(span.startTimeUnixNano, Number('1700000000123456789'));
  assert.is(span.endTimeUnixNano, 1700000000999000000);
  const a = span.attributes;
  assert.is(a.tokens, 12);
  assert.is(a.tokens_str, 34);
  assert.is(a.big, '9223372036854775807');
  assert.is(a.neg, -5);
  assert.is(a.d, 0.5);
  assert.ok(Number.isNaN(a.nan));
  assert.is(a.inf, -Infinity);
  assert.is(a.b, false);
  assert.is(a.empty, null);
  assert.is(a.missing, null);
  assert.equal([...(a.bytes as Uint8Array)], [0, 1, 254, 255]);
  assert.equal(a.arr, ['x', 1]);
  assert.equal({ ...(a.kv as object) }, { a: 'b' });
  assert.equal(span.status, { code: 2, message: 'boom' });
  assert.is(span.events[0].timeUnixNano, 1_700_000_000_500_000_000);
});

test('protobuf\'s own JSON mapping is accepted too: snake_case keys, base64 ids, enum names', () => {
  const b = {
    resource_spans: [{ scope_spans: [{ spans: [{
      trace_id: Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex').toString('base64'),
      span_id: Buffer.from('b7ad6b7169203331', 'hex').toString('base64'),
      kind: 'SPAN_KIND_CLIENT', start_time_unix_nano: '5', status: { code: 'STATUS_CODE_ERROR' },
      attributes: [{ key: 'x', value: { string_value: 'y' } }],
    }] }] }],
  };
  const span = firstSpan(b);
  assert.is(span.traceId, '0af7651916cd43dd8448eb211c80319c');
  assert.is(span.spanId, 'b7ad6b7169203331');
  assert.is(span.kind, 3);
  assert.is(span.status.code, 2);
  assert.is(span.startTimeUnixNano, 5);
  assert.is(span.attributes.x, 'y');
});

test('an id that is neither hex nor base64 of the right size is kept as sent, for the mapping to reject the span', () => {
  assert.is(firstSpan(body({ traceId: 'not-an-id', spanId: 'zz' })).traceId, 'not-an-id');
});

test('a body of the wrong shape is refused with the path of the first bad value', () => {
  for (const bad of [null, 42, 'text', [], true]) assert.is(refusal(bad).reason, 'invalid_json');
  assert.match(refusal({ resourceSpans: {} }).message, 'resourceSpans is not an array');
  assert.match(refusal(body({ name: 5 })).message, 'resourceSpans[0].scopeSpans[0].spans[0].name is not a string');
  assert.match(refusal(body({ startTimeUnixNano: '12abc' })).message, 'startTimeUnixNano is not an integer');
  assert.match(refusal(body({ attributes: [{ key: 'k', value: { intValue: 1.5 } }] })).message, 'intValue is not an integer');
  assert.match(refusal(body({ attributes: [{ key: 'k', value: { boolValue: 'yes' } }] })).message, 'boolValue is not a boolean');
  assert.match(refusal(body({ attributes: [{ key: 'k', value: { doubleValue: 'abc' } }] })).message, 'doubleValue is not a number');
  assert.match(refusal(body({ attributes: [{ key: 'k', value: 'raw string' }] })).message, 'attributes[0].value is not an object');
  assert.match(refusal(body({ kind: 'SPAN_KIND_NONSENSE' })).message, 'kind is not an integer');
});

test('a body with no resourceSpans is an empty request; unknown keys are ignored', () => {
  assert.equal(decodeOtlpJson({}), { resourceSpans: [], spanCount: 0 });
  assert.is(firstSpan(body({ name: 'n', someFutureField: { x: 1 } })).name, 'n');
});

test('deep kvlist nesting is refused past maxDepth; span and value counts are bounded', () => {
  let value: unknown = { stringValue: 'core' };
  for (let i = 0; i < 200; i++) value = { kvlistValue: { values: [{ key: 'k', value }] } };
  assert.is(refusal(body({ attributes: [{ key: 'deep', value }] })).reason, 'too_deep');
  const spans = Array.from({ length: 3 }, () => ({ attributes: [{ key: 'a', value: { intValue: 1 } }] }));
  const many = { resourceSpans: [{ scopeSpans: [{ spans }] }] };
  assert.is(refusal(many, { maxSpans: 2 }).reason, 'too_many_spans');
  assert.is(refusal(many, { maxValues: 2 }).reason, 'too_many_values');
  assert.is(decodeOtlpJson(many, { ...DEFAULT_DECODE_LIMITS, maxSpans: 3, maxValues: 3 }).spanCount, 3);
});

test.run();
