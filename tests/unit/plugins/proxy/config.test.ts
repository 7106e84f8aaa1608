import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { proxyServiceSchema, resolveProxyOptions } from '../../../../plugins/proxy/config.js';
import { serviceSchema } from '../../../../policies/schema.js';

test('listen addresses: a bare port and :port bind every interface; a named host binds it', () => {
  const listen = (value: string | number) => resolveProxyOptions({ upstream: 'http://u:1', listen: value }).listen;
  assert.equal(listen(8080), { host: undefined, port: 8080 });
  assert.equal(listen('9000'), { host: undefined, port: 9000 });
  assert.equal(listen('127.0.0.1:81'), { host: '127.0.0.1', port: 81 });
  assert.equal(listen('[::1]:82'), { host: '::1', port: 82 });
  assert.equal(listen(':83'), { host: undefined, port: 83 });
});

test('the service schema extends the policy language\'s, which stays the source of upstream and listen', () => {
  const props = proxyServiceSchema.properties as Record<string, unknown>;
  for (const key of Object.keys(serviceSchema.properties as object)) assert.is(props[key], (serviceSchema.properties as Record<string, unknown>)[key]);
  for (const key of ['timeout', 'connect_timeout', 'max_connections', 'preserve_host', 'drain_timeout']) assert.ok(props[key], key);
  assert.equal(proxyServiceSchema.required, ['upstream']);
  assert.is(proxyServiceSchema.additionalProperties, false);
});

test('options: defaults, origin and base path split, SNI for https host names only', () => {
  const a = resolveProxyOptions({ upstream: 'http://127.0.0.1:3000' });
  assert.equal(a, {
    origin: 'http://127.0.0.1:3000', basePath: '', servername: undefined, listen: { host: undefined, port: 8080 },
    timeoutMs: 30_000, connectTimeoutMs: 10_000, maxConnections: 128, preserveHost: true, drainTimeoutMs: 10_000,
  });
  const b = resolveProxyOptions({
    upstream: 'https://api.example.com/base/', listen: '127.0.0.1:9', timeout: '2s', connect_timeout: 500,
    max_connections: 4, preserve_host: false, drain_timeout: '1s',
  });
  assert.is(b.origin, 'https://api.example.com');
  assert.is(b.basePath, '/base');
  assert.is(b.servername, 'api.example.com');
  assert.equal(b.listen, { host: '127.0.0.1', port: 9 });
  assert.is(b.timeoutMs, 2000);
  assert.is(b.connectTimeoutMs, 500);
  assert.is(b.maxConnections, 4);
  assert.is(b.preserveHost, false);
  assert.is(b.drainTimeoutMs, 1000);
  assert.is(resolveProxyOptions({ upstream: 'https://10.0.0.1' }).servername, undefined);
});

test.run();
