// clients/node/src/options.ts: defaults, the environment, and the ingest URL.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ingestEndpoint, resolveOptions } from '../../../clients/node/src/options.js';

test('a base URL gets /v1/traces; a path prefix is kept; a full ingest URL stays', () => {
  assert.is(ingestEndpoint('http://vigil:9095').href, 'http://vigil:9095/v1/traces');
  assert.is(ingestEndpoint('https://ops.example.com/vigil/').href, 'https://ops.example.com/vigil/v1/traces');
  assert.is(ingestEndpoint('https://ops.example.com/vigil').href, 'https://ops.example.com/vigil/v1/traces');
  assert.is(ingestEndpoint('http://vigil:9095/v1/traces').href, 'http://vigil:9095/v1/traces');
  assert.throws(() => ingestEndpoint('file:///etc/passwd'));
});

test('url and key from the environment when not given; given ones win', () => {
  const env = { VIGIL_URL: 'http://env:1', VIGIL_PROJECT_KEY: 'env-key' };
  assert.is(resolveOptions({}, env).endpoint!.href, 'http://env:1/v1/traces');
  assert.is(resolveOptions({}, env).projectKey, 'env-key');
  assert.is(resolveOptions({ url: 'http://opt:2', projectKey: 'k' }, env).endpoint!.href, 'http://opt:2/v1/traces');
  assert.is(resolveOptions({}, {}).endpoint!.href, 'http://127.0.0.1:9095/v1/traces');
});

test('no key or a bad URL makes the client unusable, with the reason; nothing throws', () => {
  assert.match(resolveOptions({}, {}).unusable!, /no project key/);
  assert.match(resolveOptions({ url: '::nope', projectKey: 'k' }, {}).unusable!, /not a usable http\(s\) URL/);
  assert.is(resolveOptions({ projectKey: 'k' }, {}).unusable, undefined);
  assert.not.throws(() => resolveOptions(null as any, {}));
});

test('numbers that are not positive and finite fall back to the defaults; maxRetries may be 0', () => {
  const o = resolveOptions({ projectKey: 'k', batchSize: -1, flushIntervalMs: NaN, timeoutMs: Infinity, maxRetries: 0, maxBufferItems: 7.9 }, {});
  assert.is(o.batchSize, 100);
  assert.is(o.flushIntervalMs, 1000);
  assert.is(o.timeoutMs, 10_000);
  assert.is(o.maxRetries, 0);
  assert.is(o.maxBufferItems, 7);
  assert.is(o.gzipMinBytes, 1024);
  assert.is(resolveOptions({ gzip: false }, {}).gzipMinBytes, 0);
});

test.run();
