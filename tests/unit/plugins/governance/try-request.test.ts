import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compilePolicy } from '../../../../policies/compile.js';
import type { RuleConfig } from '../../../../policies/schema.js';
import { targetOf, tryCase, tryRequest } from '../../../../plugins/governance/try-request.js';

test('targetOf: the query appended and encoded, after the path\'s own', () => {
  assert.is(targetOf('/a', undefined), '/a');
  assert.is(targetOf('/a', {}), '/a');
  assert.is(targetOf('/a', { q: 'x y', tag: ['1', '2&3'] }), '/a?q=x%20y&tag=1&tag=2%263');
  assert.is(targetOf('/a?b=1', { c: '2' }), '/a?b=1&c=2');
  assert.is(targetOf('/a?', { c: '2' }), '/a?c=2');
});

test('tryCase: the try as a vigil test case; no body, no body form; no response, none', () => {
  assert.equal(tryCase({ method: 'post', path: '/x', headers: { A: 'b' }, body: '{"a":1}' }), {
    name: 'try', request: { method: 'POST', path: '/x', headers: { A: 'b' }, raw: '{"a":1}' }, expect: {},
  });
  assert.equal(tryCase({ method: 'GET', path: '/x', body: '', response: { body: 'ok' } }), {
    name: 'try', request: { method: 'GET', path: '/x', headers: {} }, response: { status: 200, headers: {}, raw: 'ok' }, expect: {},
  });
});

const rules: RuleConfig[] = [
  { name: 'all', match: { path: '/**' }, redact: { detect: ['email'] }, sample: 0.5 },
  { name: 'keys', match: { path: '/k/**' }, restrict: ['headers'], wasm: '/abs/k.wasm' },
  { name: 'more', match: { path: '/k/deep/**' }, restrict: ['headers', 'response_body'], sample: 1 },
];

test('tryRequest: which rule restricts what, which sets the sampling, and the modules not run', async () => {
  const written = rules.map((r) => (r.wasm ? { ...r, wasm: './k.wasm' } : r));
  const out = await tryRequest({ method: 'POST', path: '/k/deep/x', headers: { 'X-Mail': 'ada@example.com' }, body: '{"ada@example.com":"mail bob@example.com and eve@example.com"}' },
    compilePolicy({ rules }), written);
  assert.equal(out.matched_rules, ['all', 'keys', 'more']);
  assert.equal(out.restricted, { request_body: [], response_body: ['more'], headers: ['keys', 'more'] });
  assert.equal(out.sampling, { rate: 1, rule: 'more', keep_errors: false, kept: true });
  assert.equal(out.wasm_not_applied, [{ rule: 'keys', module: './k.wasm' }]);
  // Markers in a key and within a string all count: one in the key, two in the value.
  assert.equal(out.record.request_body, { '[REDACTED]': 'mail [REDACTED] and [REDACTED]' });
  assert.is(out.redacted, 3);
  assert.is(out.record.headers, null);
  assert.is(out.stored, false);
});

test.run();
