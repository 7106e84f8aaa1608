import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { encodeOtlpResponseJson, encodeOtlpResponseProtobuf } from '../../../../../plugins/llm/otlp/encode-response.js';

const utf8 = new TextEncoder();

test('full success is an empty message: zero protobuf bytes, {} in JSON, as the exporters expect', () => {
  assert.is(encodeOtlpResponseProtobuf().length, 0);
  assert.is(encodeOtlpResponseProtobuf({ rejectedSpans: 0, errorMessage: '' }).length, 0);
  assert.is(encodeOtlpResponseJson(), '{}');
  assert.equal(ProtobufTraceSerializer.deserializeResponse(encodeOtlpResponseProtobuf()), {});
});

test('partial success decodes with the real OTLP response parsers, protobuf and JSON', () => {
  const partial = { rejectedSpans: 300, errorMessage: 'span 2: invalid trace_id — 文字' };
  const fromProto = ProtobufTraceSerializer.deserializeResponse(encodeOtlpResponseProtobuf(partial));
  assert.equal(fromProto.partialSuccess, partial);
  const fromJson = JsonTraceSerializer.deserializeResponse(utf8.encode(encodeOtlpResponseJson(partial)));
  assert.equal(fromJson.partialSuccess, { rejectedSpans: '300', errorMessage: partial.errorMessage }, 'int64 is a string in OTLP/JSON');
});

test('a warning (nothing rejected, a message) and a large count with a long message', () => {
  const warn = ProtobufTraceSerializer.deserializeResponse(encodeOtlpResponseProtobuf({ rejectedSpans: 0, errorMessage: 'skipped 3 spans' }));
  assert.equal(warn.partialSuccess, { errorMessage: 'skipped 3 spans' });
  const long = 'x'.repeat(70_000);
  const big = ProtobufTraceSerializer.deserializeResponse(encodeOtlpResponseProtobuf({ rejectedSpans: 2 ** 40, errorMessage: long }));
  assert.equal(big.partialSuccess, { rejectedSpans: 2 ** 40, errorMessage: long });
});

test.run();
