import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { childPath, maskedFields } from '../../../../../ui/src/areas/gateway/masked-fields.js';
import type { GatewayRecord } from '../../../../../ui/src/areas/gateway/gateway-api.js';

test('maskedFields: every [REDACTED], whole or a span, by part and JSON path, request before response', () => {
  const r = {
    query: { token: '[REDACTED]', page: '1' }, headers: { Authorization: '[REDACTED]', Accept: '*/*' },
    request_body: { card: { number: '[REDACTED]' }, items: [{ cvc: '[REDACTED]' }], 'odd key': '[REDACTED]', note: 'card [REDACTED] ok' },
    response_headers: { 'Set-Cookie': ['a=1', '[REDACTED]'] }, response_body: '[REDACTED]',
  } as unknown as GatewayRecord;
  assert.equal(maskedFields(r), [
    { part: 'query', field: 'token' },
    { part: 'header', field: 'Authorization' },
    { part: 'request_body', field: '$.card.number' },
    { part: 'request_body', field: '$.items.0.cvc' },
    { part: 'request_body', field: "$['odd key']" },
    { part: 'request_body', field: '$.note', span: true },
    { part: 'response_header', field: 'Set-Cookie' },
    { part: 'response_body', field: '$' },
  ]);
  assert.is(childPath('$', "it's"), '$["it\'s"]');
});

test.run();
