// Body kinds: text, binary, gzip / deflate / br, malformed JSON, charsets, capture.max_body_bytes truncation; under
// the `bodies` and `small` configs. Encoded bodies are fixed bytes, not compressed here, so no zlib version changes them.
import { jsonRequest, jsonResponse, request, response, type CorpusCase } from './case-model.js';

const b64 = (s: string): Uint8Array => Buffer.from(s, 'base64');
/** gzip of {"password":"zipped","keep":"me"} */
const GZIP_JSON = b64('H4sIAAAAAAAAA6tWKkgsLi7PL0pRslKqyiwoSE1R0lHKTk0tULJSyk1VqgUAN7B9jSEAAAA=');
/** gzip of "plain words, gzip-encoded" */
const GZIP_TEXT = b64('H4sIAAAAAAAAAyvISczMUyjPL0op1lFIr8os0E3NS85PSU0BAAMDHYoZAAAA');
/** zlib deflate of {"password":"deflated","keep":1} */
const DEFLATE_JSON = b64('eJyrVipILC4uzy9KUbJSSklNy0ksSU1R0lHKTk0tULIyrAUAvGEK5w==');
/** brotli of {"password":"brotli","keep":true} */
const BR_JSON = b64('CxCAeyJwYXNzd29yZCI6ImJyb3RsaSIsImtlZXAiOnRydWV9Aw==');
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);

const text = (t: string, type = 'text/plain; charset=utf-8') => response(200, [['Content-Type', type]], t);
const c = (config: string, family: string, name: string, req: CorpusCase['request'], res: CorpusCase['response'] = jsonResponse({ ok: true })): CorpusCase =>
  ({ name: `${family}: ${name}`, family, config, request: req, response: res });

/** Longer than the gateway's request_buffer (64 KiB): the proxy streams it, in several chunks. */
const LARGE_JSON = JSON.stringify({ password: 'p', filler: 'abcdefghij'.repeat(7_000), n: 1 });
const LONG_JSON = JSON.stringify({ password: 'p', filler: 'x'.repeat(100) });

export const bodyCases = (): CorpusCase[] => [
  c('bodies', 'text bodies', 'plain text both ways', request('POST', '/t/1', [['Content-Type', 'text/plain']], 'hello, world\nsecond line'), text('answer\twith tab')),
  c('bodies', 'text bodies', 'no content-type: JSON-looking text is read as JSON', request('POST', '/t/2', [], '{"a":1}'), response(200, [], 'not json at all')),
  c('bodies', 'text bodies', 'HTML and XML are text', request('POST', '/t/3', [['Content-Type', 'application/xml']], '<a>&amp;</a>'), text('<p>hi</p>', 'text/html')),
  c('bodies', 'text bodies', 'non-ASCII UTF-8 text', request('POST', '/t/4', [['Content-Type', 'text/plain; charset=UTF-8']], 'naïve café – 日本'), text('ответ')),
  c('bodies', 'text bodies', 'latin1 charset is decoded', request('POST', '/t/5', [['Content-Type', 'text/plain; charset=iso-8859-1']], Uint8Array.from([0x63, 0x61, 0x66, 0xe9]))),
  c('bodies', 'text bodies', 'invalid UTF-8 is dropped', request('POST', '/t/6', [['Content-Type', 'text/plain']], Uint8Array.from([0x61, 0xff, 0xfe, 0x62]))),
  c('bodies', 'text bodies', 'a NUL in undeclared text is binary', request('POST', '/t/7', [['Content-Type', 'text/plain']], 'a\u0000b')),
  c('bodies', 'text bodies', 'a form body is text', request('POST', '/t/8', [['Content-Type', 'application/x-www-form-urlencoded']], 'password=x&user=ada')),
  c('bodies', 'text bodies', 'a UTF-8 byte order mark before JSON', request('POST', '/t/9', [['Content-Type', 'application/json']], '\ufeff{"a":1}')),
  c('bodies', 'binary bodies', 'an image is not stored', request('POST', '/b/1', [['Content-Type', 'image/png']], PNG), response(200, [['Content-Type', 'application/octet-stream']], PNG)),
  c('bodies', 'binary bodies', 'a protobuf body is not stored', request('POST', '/b/2', [['Content-Type', 'application/x-protobuf']], Uint8Array.from([0x0a, 0x03, 0x61, 0x62, 0x63]))),
  c('bodies', 'gzip bodies', 'gzip-encoded JSON request with a redaction', request('POST', '/redacted/gz/1', [['Content-Type', 'application/json'], ['Content-Encoding', 'gzip']], GZIP_JSON)),
  c('bodies', 'gzip bodies', 'gzip-encoded JSON response, no redaction', request('GET', '/gz/2'), response(200, [['Content-Type', 'application/json'], ['Content-Encoding', 'gzip']], GZIP_JSON)),
  c('bodies', 'gzip bodies', 'gzip-encoded text', request('POST', '/gz/3', [['Content-Type', 'text/plain'], ['Content-Encoding', 'gzip']], GZIP_TEXT)),
  c('bodies', 'gzip bodies', 'deflate and br', request('POST', '/redacted/gz/4', [['Content-Type', 'application/json'], ['Content-Encoding', 'deflate']], DEFLATE_JSON), response(200, [['Content-Type', 'application/json'], ['Content-Encoding', 'br']], BR_JSON)),
  c('bodies', 'gzip bodies', 'a body that says gzip but is not', request('POST', '/redacted/gz/5', [['Content-Type', 'application/json'], ['Content-Encoding', 'gzip']], '{"password":"plain"}')),
  c('bodies', 'gzip bodies', 'an unsupported encoding', request('POST', '/gz/6', [['Content-Type', 'application/json'], ['Content-Encoding', 'zstd']], '{"a":1}')),
  c('bodies', 'text bodies', 'a 70 KB JSON body, redacted (streamed in chunks)', request('POST', '/redacted/large', [['Content-Type', 'application/json']], LARGE_JSON)),
  c('bodies', 'framing', 'a chunked request body, redacted', request('POST', '/redacted/chunked/1', [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']], '{"password":"chunked","n":1}')),
  c('bodies', 'framing', 'a chunked response (no Content-Length; Transfer-Encoding is not recorded)', request('GET', '/chunked/2'),
    response(200, [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']], '{"streamed":true}', { noLength: true })),
  c('bodies', 'malformed JSON', 'declared JSON that is malformed is kept as text without json_fields', request('POST', '/m/1', [['Content-Type', 'application/json']], '{"a":1,'), jsonResponse('[1,2')),
  c('bodies', 'malformed JSON', 'malformed JSON is dropped where json_fields apply', request('POST', '/redacted/m/2', [['Content-Type', 'application/json']], '{"password":"x",}')),
  c('bodies', 'malformed JSON', 'text is dropped where json_fields apply', request('POST', '/redacted/m/3', [['Content-Type', 'text/plain']], 'password=x')),
  c('bodies', 'malformed JSON', 'a +json media type is JSON', request('POST', '/redacted/m/4', [['Content-Type', 'application/problem+json']], '{"password":"x","title":"t"}')),
  c('bodies', 'malformed JSON', 'trailing garbage after JSON', request('POST', '/redacted/m/5', [['Content-Type', 'application/json']], '{"password":"x"} extra')),
  c('bodies', 'malformed JSON', 'an empty JSON body', request('POST', '/redacted/m/6', [['Content-Type', 'application/json']], ''), response(200, [['Content-Type', 'application/json']], '')),
  c('small', 'truncation', 'a text body over max_body_bytes is kept truncated', request('POST', '/t/long', [['Content-Type', 'text/plain']], 'y'.repeat(100)), text('z'.repeat(65))),
  c('small', 'truncation', 'a body of exactly max_body_bytes is whole', request('POST', '/t/exact', [['Content-Type', 'text/plain']], 'e'.repeat(64)), text('f'.repeat(64))),
  c('small', 'truncation', 'truncated JSON is not parsed: kept as text', request('POST', '/t/json', [['Content-Type', 'application/json']], LONG_JSON)),
  c('small', 'truncation', 'truncated JSON is dropped where json_fields apply', request('POST', '/redacted/t/1', [['Content-Type', 'application/json']], LONG_JSON), jsonResponse({ password: 'short' })),
  c('small', 'truncation', 'a multi-byte character cut at the limit', request('POST', '/t/utf8', [['Content-Type', 'text/plain']], `${'a'.repeat(63)}é and more`)),
  c('small', 'truncation', 'a truncated gzip body cannot be decoded', request('GET', '/t/gz'), response(200, [['Content-Type', 'application/json'], ['Content-Encoding', 'gzip']], Buffer.concat([GZIP_JSON, GZIP_JSON, GZIP_JSON]))),
  c('small', 'truncation', 'a small JSON body with a redaction under the limit', jsonRequest('POST', '/redacted/t/2', { password: 'x' })),
];
