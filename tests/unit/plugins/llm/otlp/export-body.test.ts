import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeOtlpBody, encodeOtlpResponse, otlpEncodingOf } from '../../../../../plugins/llm/otlp/export-body.js';
import { OtlpDecodeError } from '../../../../../plugins/llm/otlp/decode-error.js';
import { jsonTextOf, protobufOf, readableSpan } from './support/oracle-spans.js';

const reason = (fn: () => unknown): string => {
  try { fn(); } catch (err) {
    assert.instance(err, OtlpDecodeError);
    return (err as OtlpDecodeError).reason;
  }
  return 'decoded';
};

test('the content type picks the decoder; its parameters and case do not matter', () => {
  assert.is(otlpEncodingOf('application/x-protobuf'), 'protobuf');
  assert.is(otlpEncodingOf('application/protobuf'), 'protobuf');
  assert.is(otlpEncodingOf('Application/JSON; charset=utf-8'), 'json');
  for (const other of [undefined, '', 'text/plain', 'application/grpc', 'application/jsonl']) assert.is(otlpEncodingOf(other), undefined);
  const spans = [readableSpan({ name: 'one' })];
  const fromProto = decodeOtlpBody('application/x-protobuf', protobufOf(spans));
  const fromJson = decodeOtlpBody('application/json; charset=utf-8', new TextEncoder().encode(jsonTextOf(spans)));
  assert.is(fromProto.resourceSpans[0].scopeSpans[0].spans[0].name, 'one');
  assert.is(fromJson.resourceSpans[0].scopeSpans[0].spans[0].name, 'one');
});

test('a wrong content type, a JSON body that is not JSON or not UTF-8, a protobuf body that is not protobuf: refused with a reason', () => {
  assert.is(reason(() => decodeOtlpBody('text/plain', new Uint8Array([1]))), 'unsupported_media_type');
  assert.is(reason(() => decodeOtlpBody(undefined, new Uint8Array([1]))), 'unsupported_media_type');
  assert.is(reason(() => decodeOtlpBody('application/json', new TextEncoder().encode('{"resourceSpans": ['))), 'invalid_json');
  assert.is(reason(() => decodeOtlpBody('application/json', new Uint8Array([0x7b, 0xff, 0x7d]))), 'invalid_json');
  const json = new TextEncoder().encode(jsonTextOf([readableSpan({})]));
  assert.is.not(reason(() => decodeOtlpBody('application/x-protobuf', json)), 'decoded', 'OTLP/JSON sent as protobuf');
  assert.is.not(reason(() => decodeOtlpBody('application/x-protobuf', new TextEncoder().encode('hello, this is not protobuf'))), 'decoded');
});

test('the response is in the request\'s encoding', () => {
  assert.equal(encodeOtlpResponse('json'), { contentType: 'application/json', body: '{}' });
  const proto = encodeOtlpResponse('protobuf', { rejectedSpans: 1, errorMessage: 'x' });
  assert.is(proto.contentType, 'application/x-protobuf');
  assert.ok((proto.body as Uint8Array).length > 0);
});

test.run();
