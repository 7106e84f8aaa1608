import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { importText } from '../../../../plugins/apiclient/import-any.js';
import { fixture } from '../../../support/paths.js';

const imported = importText(readFileSync(fixture('apiclient', 'shop.insomnia.json'), 'utf8'));
const byName = (name: string) => imported.collection.requests.find((r) => r.name === name)!;

test('an Insomnia v4 export is recognised; the workspace names the collection', () => {
  assert.is(imported.format, 'insomnia');
  assert.is(imported.collection.name, 'Shop (Insomnia)');
  assert.equal(imported.collection.requests.map((r) => [r.folder, r.name]), [['Auth', 'Log in'], ['', 'List items']]);
});

test('{{ _.name }} becomes {{name}} in the URL, the body and the auth', () => {
  const login = byName('Log in');
  assert.is(login.url, '{{baseUrl}}/login');
  assert.is(login.body, '{"user":"{{user}}","password":"{{password}}"}');
  assert.equal(login.headers, [{ name: 'Content-Type', value: 'application/json' }]);
  assert.equal(byName('List items').auth, { type: 'bearer', token: '{{token}}' });
});

test('enabled parameters join the URL; disabled headers stay disabled', () => {
  const list = byName('List items');
  assert.is(list.url, '{{baseUrl}}/items?limit=2');
  assert.equal(list.headers, [{ name: 'X-Trace', value: 'on', enabled: false }]);
});

test('the environment\'s data becomes variables', () => {
  assert.equal(imported.variables.map((v) => [v.name, v.value]), [['baseUrl', 'http://127.0.0.1:3000'], ['user', 'ada']]);
});

test('an export of another format number is not taken for Insomnia v4', () => {
  assert.throws(() => importText(JSON.stringify({ _type: 'export', __export_format: 3, resources: [] })), /not a Postman v2.1 collection/);
});

test.run();
