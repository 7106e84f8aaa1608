import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { baseUrl, parseListen } from '../../../../runtime/http/listen-address.js';

test('host:port, [v6]:port, :port and bare ports', () => {
  assert.equal(parseListen('127.0.0.1:9095'), { host: '127.0.0.1', port: 9095 });
  assert.equal(parseListen('localhost:80'), { host: 'localhost', port: 80 });
  assert.equal(parseListen('[::1]:9095'), { host: '::1', port: 9095 });
  assert.equal(parseListen(':9095'), { host: undefined, port: 9095 });
  assert.equal(parseListen('0.0.0.0:0'), { host: '0.0.0.0', port: 0 });
  assert.equal(parseListen(9095), { host: '127.0.0.1', port: 9095 });
  assert.equal(parseListen('9095'), { host: '127.0.0.1', port: 9095 });
});

test('bad addresses are VIGIL_ERR_HTTP_LISTEN with a hint', () => {
  for (const bad of ['', 'localhost', '1.2.3.4:99999', '::1:9095', '[nothost]:1', 'a b:1', -1, 65536, 1.5]) {
    let err: { code?: string; message: string } | undefined;
    try { parseListen(bad as string | number); } catch (e) { err = e as typeof err; }
    assert.is(err?.code, 'VIGIL_ERR_HTTP_LISTEN', String(bad));
    assert.match(err!.message, /control_plane\.listen/);
  }
});

test('baseUrl: wildcard binds are reached through loopback; IPv6 hosts are bracketed', () => {
  assert.is(baseUrl('http', undefined, 9095), 'http://127.0.0.1:9095');
  assert.is(baseUrl('http', '0.0.0.0', 1), 'http://127.0.0.1:1');
  assert.is(baseUrl('https', '::1', 443), 'https://[::1]:443');
  assert.is(baseUrl('http', 'vigil.lan', 9095), 'http://vigil.lan:9095');
});

test.run();
