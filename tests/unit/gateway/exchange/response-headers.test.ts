import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { downstreamResponseHead, reasonPhrase } from '../../../../gateway/exchange/response-headers.js';

const raw = (...pairs: string[]) => pairs.map((s) => Buffer.from(s, 'latin1'));

test('names, casing, order and repeated Set-Cookie fields are kept', () => {
  const head = downstreamResponseHead(raw(
    'content-TYPE', 'application/json', 'Set-Cookie', 'a=1; Path=/', 'set-cookie', 'b=2; HttpOnly', 'X-Weird_Name', 'v',
  ));
  assert.equal(head.headers, ['content-TYPE', 'application/json', 'Set-Cookie', 'a=1; Path=/', 'set-cookie', 'b=2; HttpOnly', 'X-Weird_Name', 'v']);
});

test('hop-by-hop fields and the fields the upstream\'s Connection lists are dropped', () => {
  const head = downstreamResponseHead(raw(
    'Connection', 'keep-alive, X-Internal', 'Keep-Alive', 'timeout=5', 'Transfer-Encoding', 'chunked',
    'Trailer', 'X-Sum', 'Upgrade', 'h2c', 'Proxy-Connection', 'close', 'X-Internal', 'secret', 'Vary', 'Accept',
  ));
  assert.equal(head.headers, ['Vary', 'Accept']);
});

test('Content-Length is kept and read; absent is -1', () => {
  assert.is(downstreamResponseHead(raw('Content-Length', '12')).contentLength, 12);
  assert.equal(downstreamResponseHead(raw('Content-Length', '12')).headers, ['Content-Length', '12']);
  assert.is(downstreamResponseHead(raw('X', 'y')).contentLength, -1);
});

test('bytes above 0x7f survive as one latin1 character each (Node writes them back as the same bytes)', () => {
  const value = Buffer.from([0x66, 0xe9, 0xff, 0x80]);
  const head = downstreamResponseHead([Buffer.from('X-Bin'), value]);
  assert.equal(Buffer.from(head.headers[1], 'latin1'), value);
});

test('string input (already decoded) is accepted', () => {
  assert.equal(downstreamResponseHead(['A', '1', 'TE', 'x']).headers, ['A', '1']);
});


test('the reason phrase is kept as sent: empty stays empty, UTF-8 becomes its bytes as latin1 characters', () => {
  assert.is(reasonPhrase(''), '');
  assert.is(reasonPhrase(undefined), '');
  assert.is(reasonPhrase('Fine Thanks'), 'Fine Thanks');
  assert.is(reasonPhrase('Très'), Buffer.from('Très', 'utf8').toString('latin1'));
});

test.run();
