import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addConnectionOptions, dropFields, isHopByHop } from '../../../../gateway/exchange/hop-by-hop.js';

test('the RFC 9110 hop-by-hop fields are recognised, ordinary ones are not', () => {
  for (const name of ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']) {
    assert.ok(isHopByHop(name), name);
  }
  for (const name of ['host', 'content-length', 'content-type', 'set-cookie', 'x-forwarded-for', 'expect', 'trailers']) {
    assert.not.ok(isHopByHop(name), name);
  }
});

test('Connection options: listed names lower-cased, close and keep-alive ignored, empty tokens skipped', () => {
  const set = addConnectionOptions('close, X-Debug ,,Keep-Alive,x-Trace', undefined);
  assert.equal([...set!].sort(), ['x-debug', 'x-trace']);
});

test('Connection cannot make the proxy drop Host or Content-Length', () => {
  const set = addConnectionOptions('Host, Content-Length, X-A', undefined);
  assert.equal([...set!], ['x-a']);
});

test('the usual Connection values list nothing and allocate nothing', () => {
  for (const v of ['keep-alive', 'Keep-Alive', 'close', 'CLOSE', 'close, keep-alive', '']) assert.is(addConnectionOptions(v, undefined), undefined, v);
  const existing = new Set(['x']);
  assert.is(addConnectionOptions('close', existing), existing);
});

test('Connection options accumulate across repeated Connection fields', () => {
  const set = addConnectionOptions('x-b', addConnectionOptions('X-A', undefined));
  assert.equal([...set!].sort(), ['x-a', 'x-b']);
});

test('dropFields removes every pair whose name is listed, whatever its casing, and keeps the order', () => {
  const flat = ['A', '1', 'X-Debug', 'on', 'B', '2', 'x-debug', 'again', 'C', '3'];
  dropFields(flat, new Set(['x-debug']));
  assert.equal(flat, ['A', '1', 'B', '2', 'C', '3']);
});

test('dropFields with nothing to drop leaves the list unchanged', () => {
  const flat = ['A', '1', 'B', '2'];
  dropFields(flat, new Set(['z']));
  assert.equal(flat, ['A', '1', 'B', '2']);
});

test.run();
