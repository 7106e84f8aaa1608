import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { exampleRequest } from '../../../../../ui/src/areas/gateway/try-example.js';
import type { PolicyRule } from '../../../../../ui/src/areas/gateway/policy-api.js';

test('exampleRequest: fills what the first masking rule masks, on a path and method it matches', () => {
  const rules: PolicyRule[] = [
    { index: 0, name: 'all', match: { path: '/**' }, labels: { tenant: 'header:X-Tenant-Id' } },
    { index: 1, name: 'pay', match: { path: '/api/pay/**', methods: ['post'] }, redact: { json_fields: ['$.card.number', '$.**.cvc', "$.items.*.iban"], headers: ['Authorization'], query_params: ['token'], detect: ['email'] } },
  ];
  const ex = exampleRequest(rules);
  assert.is(ex.method, 'POST');
  assert.is(ex.path, '/api/pay/example?token=hunter2-example');
  assert.equal(JSON.parse(ex.body), {
    amount: 1250, card: { number: '4111 1111 1111 1111' }, cvc: '123', items: { card: { iban: 'DE89370400440532013000' } }, note: 'Customer sent mail ada@example.com',
  });
  assert.match(ex.headers, /^Authorization: Bearer sk_live_51Hx9example$/m);
});

test('exampleRequest: with no masking rule, a payment (which a try then flags)', () => {
  const ex = exampleRequest([]);
  assert.is(ex.path, '/api/payments/charge');
  assert.is(JSON.parse(ex.body).card.number, '4111 1111 1111 1111');
});

test.run();
