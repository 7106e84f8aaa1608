import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseListenAddress, tryParseListenAddress } from '../../../../runtime/config/listen-address.js';

test('host:port, bracketed IPv6, and bare ports', () => {
  assert.equal(parseListenAddress('127.0.0.1:9095'), { host: '127.0.0.1', port: 9095 });
  assert.equal(parseListenAddress('localhost:0'), { host: 'localhost', port: 0 });
  assert.equal(parseListenAddress('[::1]:8080'), { host: '::1', port: 8080 });
  assert.equal(parseListenAddress(9095), { port: 9095 });
  assert.equal(parseListenAddress('9095'), { port: 9095 });
  assert.equal(parseListenAddress(':9095'), { host: '', port: 9095 }, 'every interface');
});

test('malformed addresses and out-of-range ports are rejected', () => {
  for (const bad of ['', 'localhost', '127.0.0.1:', '127.0.0.1:70000', 'a b:1', '::1:80', 65536, -1, 1.5, true, null]) {
    assert.is(tryParseListenAddress(bad), undefined, `expected ${JSON.stringify(bad)} to be rejected`);
  }
  assert.throws(() => parseListenAddress('nope'), /host:port/);
});

test.run();
