import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigValueError } from '@vigil/plugin-sdk';
import { checkServiceBounds, proxyServiceSchema, resolveProxyOptions } from '../../../../plugins/proxy/config.js';
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
  for (const key of ['timeout', 'connect_timeout', 'max_connections', 'preserve_host', 'drain_timeout', 'queue_timeout',
    'request_buffer', 'request_buffer_memory', 'request_buffer_timeout', 'client_body_timeout', 'send_timeout', 'client_min_rate']) assert.ok(props[key], key);
  assert.equal(proxyServiceSchema.required, ['upstream']);
  assert.is(proxyServiceSchema.additionalProperties, false);
});

test('options: defaults, origin and base path split, SNI for https host names only', () => {
  const a = resolveProxyOptions({ upstream: 'http://127.0.0.1:3000' });
  assert.equal(a, {
    origin: 'http://127.0.0.1:3000', basePath: '', servername: undefined, listen: { host: undefined, port: 8080 },
    timeoutMs: 30_000, connectTimeoutMs: 10_000, maxConnections: 128, preserveHost: true, drainTimeoutMs: 10_000,
    queueTimeoutMs: 5000, requestBuffer: 64 * 1024, requestBufferMemory: 64 * 1024 * 1024, requestBufferTimeoutMs: 30_000,
    clientBodyTimeoutMs: 10_000, sendTimeoutMs: 10_000, clientMinRate: 1024,
  });
  const b = resolveProxyOptions({
    upstream: 'https://api.example.com/base/', listen: '127.0.0.1:9', timeout: '2s', connect_timeout: 500,
    max_connections: 4, preserve_host: false, drain_timeout: '1s', queue_timeout: '250ms', request_buffer: '16kb',
    request_buffer_memory: '1mb', request_buffer_timeout: 0, client_body_timeout: '2s', send_timeout: '3s', client_min_rate: 0,
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
  assert.is(b.queueTimeoutMs, 250);
  assert.is(b.requestBuffer, 16 * 1024);
  assert.is(b.requestBufferMemory, 1024 * 1024);
  assert.is(b.requestBufferTimeoutMs, 0);
  assert.is(b.clientBodyTimeoutMs, 2000);
  assert.is(b.sendTimeoutMs, 3000);
  assert.is(b.clientMinRate, 0);
  assert.is(resolveProxyOptions({ upstream: 'https://10.0.0.1' }).servername, undefined);
});

test('a request buffer larger than the memory all buffers share is refused, naming the key', () => {
  checkServiceBounds({ upstream: 'http://u:1', request_buffer: '64kb', request_buffer_memory: '64kb' });
  try {
    checkServiceBounds({ upstream: 'http://u:1', request_buffer: '2mb', request_buffer_memory: '1mb' });
    assert.unreachable('accepted');
  } catch (err) {
    assert.instance(err, ConfigValueError);
    assert.equal((err as ConfigValueError).keyPath, ['request_buffer']);
    assert.match((err as Error).message, /request_buffer_memory/);
  }
});

test.run();
