import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clientIp, upstreamRequestHead, type ForwardingOptions } from '../../../../gateway/exchange/request-headers.js';

const opts: ForwardingOptions = { clientAddress: '10.1.2.3', proto: 'http', preserveHost: true };

const valuesOf = (flat: string[], name: string) => flat.filter((_, i) => i % 2 === 1 && flat[i - 1].toLowerCase() === name);

test('ordinary fields keep their casing, order, repeats and values; forwarded fields come last', () => {
  const raw = ['Host', 'api.example', 'X-CUSTOM-header', 'a', 'accept', '*/*', 'X-Custom-Header', 'b', 'Cookie', 'x=1; y=2'];
  const head = upstreamRequestHead(raw, opts);
  assert.equal(head.headers, [
    'Host', 'api.example', 'X-CUSTOM-header', 'a', 'accept', '*/*', 'X-Custom-Header', 'b', 'Cookie', 'x=1; y=2',
    'X-Forwarded-For', '10.1.2.3', 'X-Forwarded-Proto', 'http', 'X-Forwarded-Host', 'api.example',
  ]);
  assert.is(head.host, 'api.example');
  assert.is(head.hasBody, false);
  assert.is(head.contentLength, -1);
});

test('hop-by-hop fields and the fields Connection lists are not forwarded', () => {
  const raw = [
    'Host', 'h', 'Connection', 'keep-alive, X-Hop', 'Keep-Alive', 'timeout=5', 'Proxy-Connection', 'keep-alive',
    'TE', 'trailers', 'Trailer', 'X-Checksum', 'Upgrade', 'websocket', 'X-Hop', 'secret', 'x-hop', 'again',
    'X-Kept', 'yes',
  ];
  const head = upstreamRequestHead(raw, opts);
  const names = head.headers.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  for (const gone of ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade', 'x-hop']) {
    assert.not.ok(names.includes(gone), `${gone} was forwarded`);
  }
  assert.ok(names.includes('x-kept'));
});

test('Transfer-Encoding is dropped but marks the request as having a body of unknown length', () => {
  const head = upstreamRequestHead(['Host', 'h', 'Transfer-Encoding', 'chunked'], opts);
  assert.is(head.hasBody, true);
  assert.is(head.contentLength, -1);
  assert.equal(valuesOf(head.headers, 'transfer-encoding'), []);
});

test('Content-Length is forwarded and read; zero means no body', () => {
  const a = upstreamRequestHead(['Content-Length', '42'], opts);
  assert.is(a.hasBody, true);
  assert.is(a.contentLength, 42);
  assert.equal(valuesOf(a.headers, 'content-length'), ['42']);
  const b = upstreamRequestHead(['Content-Length', '0'], opts);
  assert.is(b.hasBody, false);
  assert.is(b.contentLength, 0);
});

test('Expect is not forwarded (the proxy already answered 100 Continue)', () => {
  const head = upstreamRequestHead(['Expect', '100-continue', 'Content-Length', '3'], opts);
  assert.equal(valuesOf(head.headers, 'expect'), []);
});

test('X-Forwarded-For: earlier values first (repeats joined), then the client address, in one field', () => {
  const head = upstreamRequestHead(['x-forwarded-for', '1.1.1.1', 'A', 'b', 'X-Forwarded-For', '2.2.2.2, 3.3.3.3'], opts);
  assert.equal(valuesOf(head.headers, 'x-forwarded-for'), ['1.1.1.1, 2.2.2.2, 3.3.3.3, 10.1.2.3']);
  // The client's spelling of the name is kept.
  assert.ok(head.headers.includes('x-forwarded-for'));
});

test('X-Forwarded-Proto and -Host sent by the client are kept, not duplicated', () => {
  const raw = ['Host', 'inner', 'X-Forwarded-Proto', 'https', 'X-Forwarded-Host', 'outer.example'];
  const head = upstreamRequestHead(raw, opts);
  assert.equal(valuesOf(head.headers, 'x-forwarded-proto'), ['https']);
  assert.equal(valuesOf(head.headers, 'x-forwarded-host'), ['outer.example']);
});

test('a Connection header naming X-Forwarded-For drops earlier hops, never this one', () => {
  const head = upstreamRequestHead(['Connection', 'X-Forwarded-For', 'X-Forwarded-For', '6.6.6.6'], opts);
  assert.equal(valuesOf(head.headers, 'x-forwarded-for'), ['10.1.2.3']);
});

test('preserveHost false drops Host (the upstream client sends the upstream host); X-Forwarded-Host keeps it', () => {
  const head = upstreamRequestHead(['Host', 'gateway.example:8080'], { ...opts, preserveHost: false });
  assert.equal(valuesOf(head.headers, 'host'), []);
  assert.equal(valuesOf(head.headers, 'x-forwarded-host'), ['gateway.example:8080']);
});

test('no Host (HTTP/1.0): no X-Forwarded-Host', () => {
  const head = upstreamRequestHead([], opts);
  assert.equal(valuesOf(head.headers, 'x-forwarded-host'), []);
  assert.equal(head.headers, ['X-Forwarded-For', '10.1.2.3', 'X-Forwarded-Proto', 'http']);
});

test('long and odd but legal values pass untouched', () => {
  const long = 'v'.repeat(8000);
  const odd = 'a\tb  "quoted" ;,=é';
  const head = upstreamRequestHead(['X-Long', long, 'X-Odd', odd, 'X-Empty', ''], opts);
  assert.equal(valuesOf(head.headers, 'x-long'), [long]);
  assert.equal(valuesOf(head.headers, 'x-odd'), [odd]);
  assert.equal(valuesOf(head.headers, 'x-empty'), ['']);
});

test('clientIp unwraps IPv4-mapped IPv6 addresses only', () => {
  assert.is(clientIp('::ffff:127.0.0.1'), '127.0.0.1');
  assert.is(clientIp('::1'), '::1');
  assert.is(clientIp('2001:db8::ffff:1'), '2001:db8::ffff:1');
  assert.is(clientIp(undefined), 'unknown');
});

test.run();
