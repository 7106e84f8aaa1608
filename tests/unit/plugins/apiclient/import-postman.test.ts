import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { importText } from '../../../../plugins/apiclient/import-any.js';
import { fixture } from '../../../support/paths.js';

const imported = importText(readFileSync(fixture('apiclient', 'shop.postman_collection.json'), 'utf8'));
const byName = (name: string) => imported.collection.requests.find((r) => r.name === name)!;

test('a Postman v2.1 collection is recognised and keeps its name, folders and order', () => {
  assert.is(imported.format, 'postman');
  assert.is(imported.collection.name, 'Shop API');
  assert.equal(imported.collection.requests.map((r) => [r.folder, r.name]), [['Auth', 'Log in'], ['Items', 'Me'], ['Items', 'List items'], ['Items', 'Add an item']]);
});

test('a raw JSON body gets its content type; a disabled header stays, marked disabled', () => {
  const login = byName('Log in');
  assert.is(login.method, 'POST');
  assert.is(login.url, '{{baseUrl}}/login');
  assert.match(login.body, /"user": "\{\{user\}\}"/);
  assert.equal(login.headers, [{ name: 'Accept', value: 'application/json' }, { name: 'X-Debug', value: '1', enabled: false }, { name: 'Content-Type', value: 'application/json' }]);
});

test('bearer auth is inherited from the folder; a request\'s own basic auth wins', () => {
  assert.equal(byName('Me').auth, { type: 'bearer', token: '{{token}}' });
  assert.equal(byName('Add an item').auth, { type: 'basic', username: 'ada', password: '{{password}}' });
  assert.equal(byName('Log in').auth, { type: 'none' });
});

test('urlencoded bodies are encoded, string urls kept, query in the raw url', () => {
  const add = byName('Add an item');
  assert.is(add.url, '{{baseUrl}}/items');
  assert.is(add.body, 'name=tea%20cup&price=4.50');
  assert.equal(add.headers, [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }]);
  assert.is(byName('List items').url, '{{baseUrl}}/items?limit=2');
});

test('collection variables are offered as an environment', () => {
  assert.equal(imported.variables, [{ name: 'baseUrl', value: 'http://127.0.0.1:3000', secret: false }, { name: 'user', value: 'ada', secret: false }]);
});

test('formdata bodies are refused by name', () => {
  const doc = { info: { name: 'x', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [{ name: 'up', request: { method: 'POST', url: 'http://x/', body: { mode: 'formdata', formdata: [] } } }] };
  assert.throws(() => importText(JSON.stringify(doc)), /formdata bodies are not imported/);
});

test.run();
