import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fillRequest, headersWithAuth, loggableUrl, placeholders } from '../../../../plugins/apiclient/variables.js';
import { emptyRequest } from '../../../../plugins/apiclient/types.js';

const scope = { values: new Map([['base', 'http://h'], ['token', 's3cret'], ['n', '2']]), secret: new Set(['token']) };

test('placeholders are found with or without inner spaces', () => {
  assert.equal(placeholders('{{a}}/{{ b.c }}/{{-bad}}/{x}'), ['a', 'b.c']);
});

test('filling: known values in, unknown ones kept and listed, disabled headers dropped', () => {
  const r = emptyRequest({ url: '{{base}}/items?n={{n}}&x={{missing}}', headers: [{ name: 'A', value: '{{token}}' }, { name: 'Off', value: '1', enabled: false }], auth: { type: 'bearer', token: '{{token}}' } });
  const { request, missing } = fillRequest(r, scope);
  assert.is(request.url, 'http://h/items?n=2&x={{missing}}');
  assert.equal(missing, ['missing']);
  assert.equal(request.headers, [{ name: 'A', value: 's3cret' }]);
  assert.is(request.auth.token, 's3cret');
  const masked = fillRequest(r, scope, true).request;
  assert.equal(masked.headers, [{ name: 'A', value: '***' }]);
});

test('the loggable URL masks user:password and credential-like query values only', () => {
  assert.is(loggableUrl('https://u:p@h/x?api_key=abc&limit=2&access_token=t'), 'https://u:***@h/x?api_key=***&limit=2&access_token=***');
  assert.is(loggableUrl('not a url //u:p@h'), 'not a url //***@h');
});

test('auth becomes an Authorization header unless one is written', () => {
  assert.equal(headersWithAuth(emptyRequest({ auth: { type: 'basic', username: 'ada', password: 'pw' } })), [{ name: 'Authorization', value: 'Basic YWRhOnB3' }]);
  assert.equal(headersWithAuth(emptyRequest({ headers: [{ name: 'authorization', value: 'X' }], auth: { type: 'bearer', token: 't' } })), [{ name: 'authorization', value: 'X' }]);
  assert.equal(headersWithAuth(emptyRequest({ auth: { type: 'bearer', token: '' } })), []);
});

test.run();
