import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { describeUpstreamError, errorBody, ProxyErrors } from '../../../../plugins/proxy/errors.js';

const err = (code: string) => Object.assign(new Error(`boom ${code}`), { code });

test('refused, reset and unresolvable upstreams are 502 unreachable', () => {
  for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'UND_ERR_SOCKET']) {
    const f = describeUpstreamError(err(code));
    assert.is(f.status, 502, code);
    assert.is(f.code, ProxyErrors.UPSTREAM_UNREACHABLE);
    assert.match(f.message, code);
  }
});

test('header, body and connect timeouts are 504', () => {
  for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']) {
    const f = describeUpstreamError(err(code));
    assert.is(f.status, 504, code);
    assert.is(f.code, ProxyErrors.UPSTREAM_TIMEOUT);
  }
});

test('an invalid upstream response is 502 bad response; a request undici refuses is 400', () => {
  assert.is(describeUpstreamError(err('HPE_INVALID_CONSTANT')).code, ProxyErrors.UPSTREAM_BAD_RESPONSE);
  assert.is(describeUpstreamError(err('UND_ERR_HEADERS_OVERFLOW')).status, 502);
  const bad = describeUpstreamError(err('UND_ERR_INVALID_ARG'));
  assert.is(bad.status, 400);
  assert.is(bad.code, ProxyErrors.BAD_REQUEST);
});

test('anything else is a 502 internal failure, and non-errors do not throw', () => {
  assert.is(describeUpstreamError(new Error('x')).code, ProxyErrors.INTERNAL);
  assert.is(describeUpstreamError(null).status, 502);
  assert.is(describeUpstreamError('text').status, 502);
});

test('the message never names the upstream address', () => {
  const e = Object.assign(new Error('connect ECONNREFUSED 10.9.8.7:3000'), { code: 'ECONNREFUSED' });
  assert.not.match(describeUpstreamError(e).message, '10.9.8.7');
});

test('error bodies are { error: { code, message } } JSON', () => {
  const body = JSON.parse(errorBody({ status: 504, code: ProxyErrors.UPSTREAM_TIMEOUT, message: 'm' }));
  assert.equal(body, { error: { code: 'VIGIL_ERR_PROXY_UPSTREAM_TIMEOUT', message: 'm' } });
});

test.run();
