// A rule's `redact.detect`: what the detectors find is masked wherever it stands in the record.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compilePolicy } from '../../../../policies/compile.js';
import type { RuleConfig } from '../../../../policies/schema.js';
import { governExchange, governForStorage } from '../../../../gateway/govern/govern.js';
import type { RawExchange } from '../../../../gateway/govern/types.js';

const CARD = '4111 1111 1111 1111';
const EMAIL = 'ada@example.com';
const rules: RuleConfig[] = [
  { name: 'all', match: { path: '/**' }, labels: { customer: 'header:X-Customer' } },
  { name: 'support', match: { path: '/api/support/**' }, redact: { detect: ['card_number', 'email'] } },
];
const policy = compilePolicy({ rules });

function exchange(target: string, over: Partial<RawExchange> = {}): RawExchange {
  const decision = policy.decide('POST', target);
  return {
    id: 'x1', time: 1_700_000_000_000, method: 'POST', target, path: target.split('?')[0], ruleIndexes: [...decision.ruleIndexes],
    labels: { customer: EMAIL }, requestHeaders: ['Content-Type', 'application/json', 'X-Customer', EMAIL],
    responseHeaders: ['Content-Type', 'text/plain'], status: 200, durationMs: 3, requestBody: null, requestTruncated: false,
    responseBody: null, responseTruncated: false, ...over,
  };
}
const always = { random: () => 0 };

test('detected values are masked in the path, query, headers, labels and both bodies, whatever they are called', () => {
  const ticket = { subject: 'refund', text: `my card ${CARD} was charged twice, write to ${EMAIL}`, [EMAIL]: 'key', n: 1.5 };
  const target = `/api/support/${EMAIL}?reply_to=${encodeURIComponent(EMAIL)}&page=2`;
  const e = exchange(target, {
    requestBody: Buffer.from(JSON.stringify(ticket)), responseBody: Buffer.from(`Sent to ${EMAIL}`),
  });
  const r = governExchange(e, policy.decide('POST', target), always);
  const text = JSON.stringify(r);
  assert.not.ok(text.includes(EMAIL), text);
  assert.not.ok(text.includes('4111'), text);
  assert.is(r.path, '/api/support/[REDACTED]');
  assert.equal(r.query, { reply_to: '[REDACTED]', page: '2' });
  assert.is((r.headers as Record<string, string>)['X-Customer'], '[REDACTED]');
  assert.is(r.labels.customer, '[REDACTED]');
  const body = r.request_body as Record<string, unknown>;
  assert.is(body.subject, 'refund');
  assert.is(body.text, 'my card [REDACTED] was charged twice, write to [REDACTED]');
  assert.is(body.n, 1.5);
  assert.is(r.response_body, 'Sent to [REDACTED]');
});

test('an escape cannot hide a value from the detectors', () => {
  const target = '/api/support/1';
  const e = exchange(target, { requestBody: Buffer.from('{"note":"ada\\u0040example.com"}') });
  const r = governExchange(e, policy.decide('POST', target), always);
  assert.equal(r.request_body, { note: '[REDACTED]' });
});

test('a body with nothing detected keeps its own text; a route without detect is not touched', () => {
  const text = '{ "amount": 1.50, "note": "fine" }';
  const stored = governForStorage(exchange('/api/support/2', { requestBody: Buffer.from(text) }), policy.decide('POST', '/api/support/2'), always);
  assert.is(stored.request_body_json, text);
  const other = governExchange(exchange('/api/orders/3', { requestBody: Buffer.from(JSON.stringify({ note: EMAIL })) }), policy.decide('POST', '/api/orders/3'), always);
  assert.equal(other.request_body, { note: EMAIL });
  assert.is(other.labels.customer, EMAIL);
});

test('the kinds accumulate over matching rules and the schema knows every kind', () => {
  const d = compilePolicy({ rules: [
    { name: 'a', match: { path: '/**' }, redact: { detect: ['jwt'] } },
    { name: 'b', match: { path: '/x/**' }, redact: { detect: ['iban', 'jwt'] } },
  ] }).decide('GET', '/x/1');
  assert.equal([...d.detect].sort(), ['iban', 'jwt']);
  assert.throws(() => compilePolicy({ rules: [{ name: 'bad', match: { path: '/**' }, redact: { detect: ['phone' as never] } }] }), /detect/);
});

test.run();
