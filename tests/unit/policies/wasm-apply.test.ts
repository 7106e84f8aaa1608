import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyWasmPolicy, exchangeView, plainJsonBody, type PolicyExchange } from '../../../policies/wasm-apply.js';
import { createWasmPolicy } from '../../../policies/wasm-policy.js';
import { compilePolicy } from '../../../policies/compile.js';
import type { RuleConfig } from '../../../policies/schema.js';
import { fixture } from '../../support/paths.js';

const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const decide = (rules: RuleConfig[]) => compilePolicy({ rules }).decide('POST', '/api/pay');

function exchange(over: Partial<PolicyExchange> = {}): PolicyExchange {
  return {
    method: 'POST', target: '/api/pay?x=1', path: '/api/pay', labels: { team: 'pay' },
    requestHeaders: ['Content-Type', 'application/json', 'X-Owner', 'ann'],
    responseHeaders: ['Content-Type', 'application/json; charset=utf-8'],
    status: 200,
    requestBody: enc({ card: '4111111111111111' }), requestTruncated: false,
    responseBody: enc({ ok: 'yes' }), responseTruncated: false,
    ...over,
  };
}

test('the view offers body fields only from bodies the YAML decision captures, and no restricted headers', () => {
  const open = exchangeView(exchange(), decide([]));
  assert.equal(open.body_fields, { request: { '$.card': '4111111111111111' }, response: { '$.ok': 'yes' } });
  assert.is(open.headers['x-owner'], 'ann');
  const restricted = exchangeView(exchange(), decide([{ name: 'r', match: { path: '/**' }, restrict: ['request_body', 'headers'] }]));
  assert.equal(restricted.body_fields, { response: { '$.ok': 'yes' } });
  assert.equal({ ...restricted.headers }, {});
});

test('the view\'s path is the folded path the rules matched, not the spelling received', () => {
  const view = exchangeView(exchange({ target: '/API\\Pay;jsessionid=1?x=1', path: '/API\\Pay;jsessionid=1' }), decide([]));
  assert.is(view.path, '/api/pay');
  assert.equal({ ...view.query }, { x: '1' });
});

test('the default decoder reads plain JSON only', () => {
  const json = ['Content-Type', 'application/problem+json'];
  assert.equal(plainJsonBody(enc({ a: 1 }), json, false), { a: 1 });
  assert.is(plainJsonBody(enc({ a: 1 }), json, true), undefined, 'truncated');
  assert.is(plainJsonBody(enc({ a: 1 }), [...json, 'Content-Encoding', 'gzip'], false), undefined, 'compressed');
  assert.is(plainJsonBody(enc({ a: 1 }), ['Content-Type', 'text/plain'], false), undefined, 'not JSON by type');
  assert.equal(plainJsonBody(enc([1]), null, false), [1], 'headers restricted: try anyway');
  assert.is(plainJsonBody(new Uint8Array([0x7b, 0xff]), json, false), undefined, 'invalid UTF-8');
  assert.is(plainJsonBody(new TextEncoder().encode('{nope'), json, false), undefined);
  assert.is(plainJsonBody(new Uint8Array(0), json, false), undefined);
});

test('applyWasmPolicy narrows each exchange with its own decision and labels', async () => {
  const policy = await createWasmPolicy({ module: fixture('wasm', 'echo.wasm'), callTimeoutMs: 5000 });
  try {
    const yaml = decide([]);
    const [a, b] = await applyWasmPolicy(policy, [
      { exchange: exchange(), decision: yaml },
      { exchange: exchange({ requestHeaders: [], labels: {} }), decision: yaml },
    ]);
    const fields = 'request:$.card=4111111111111111/16 response:$.ok=yes/3';
    assert.equal(a.labels, { team: 'pay', route: 'POST /api/pay → ✓', owner: 'ann', fields });
    // No request headers, so no content-type: the request body is not known to be JSON and offers no fields.
    assert.equal(b.labels, { route: 'POST /api/pay → ✓', fields: 'response:$.ok=yes/3' });
    assert.is(a.failure, undefined);
    assert.is(a.decision, yaml, 'labels only: the decision itself is unchanged');
  } finally {
    await policy.close();
  }
});

test('a failed guest call fails its exchanges closed, with the reason', async () => {
  const policy = await createWasmPolicy({ module: fixture('wasm', 'loop.wasm'), callTimeoutMs: 100 });
  try {
    const yaml = decide([{ name: 'r', match: { path: '/**' }, redact: { headers: ['x-owner'] } }]);
    const [out] = await applyWasmPolicy(policy, [{ exchange: exchange(), decision: yaml }]);
    assert.is(out.decision.captureRequestBody, false);
    assert.is(out.decision.captureResponseBody, false);
    assert.ok(out.decision.redactHeaders.has('x-owner'));
    assert.equal(out.labels, { team: 'pay' });
    assert.is(out.failureReason, 'timeout');
    assert.is(out.failure, 'wasm policy failed (timeout): bodies not kept');
  } finally {
    await policy.close();
  }
});

test.run();
