import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { importText } from '../../../../plugins/apiclient/import-any.js';
import { fixture } from '../../../support/paths.js';

const yamlText = readFileSync(fixture('apiclient', 'shop.openapi.yaml'), 'utf8');
const imported = importText(yamlText);
const byName = (name: string) => imported.collection.requests.find((r) => r.name === name)!;

test('an OpenAPI 3 YAML document gives one request per operation, foldered by tag', () => {
  assert.is(imported.format, 'openapi');
  assert.is(imported.collection.name, 'Shop API');
  assert.equal(imported.collection.requests.map((r) => [r.folder, r.method, r.name]), [['auth', 'POST', 'Log in'], ['users', 'GET', 'Me'], ['items', 'GET', 'getItem']]);
});

test('the server URL with its variables\' defaults becomes baseUrl; path parameters become variables', () => {
  assert.equal(imported.variables, [{ name: 'baseUrl', value: 'http://127.0.0.1:3000', secret: false }, { name: 'id', value: '', secret: false }]);
  assert.is(byName('getItem').url, '{{baseUrl}}/items/{{id}}?fields={{fields}}');
});

test('a JSON body is made from the $ref\'d schema\'s examples; bearer security asks for {{token}}', () => {
  const login = byName('Log in');
  assert.equal(JSON.parse(login.body), { user: 'ada', password: 'pw' });
  assert.equal(login.headers, [{ name: 'Content-Type', value: 'application/json' }]);
  assert.equal(byName('Me').auth, { type: 'bearer', token: '{{token}}' });
  assert.equal(login.auth, { type: 'none' });
});

test('the same document as JSON imports the same', () => {
  const json = importText(JSON.stringify(parse(yamlText)));
  assert.equal(json.collection.requests.map((r) => ({ ...r, id: '' })), imported.collection.requests.map((r) => ({ ...r, id: '' })));
});

test('what `vigil spec` prints (servers relative, no tags) imports', () => {
  const spec = 'openapi: 3.1.0\ninfo: { title: inferred, version: "0" }\nservers: [{ url: / }]\npaths:\n  /v1/orders/{id}:\n    get:\n      parameters: [{ name: id, in: path, required: true }]\n      responses: { "200": { description: ok } }\n';
  const r = importText(spec);
  assert.is(r.collection.requests[0].url, '{{baseUrl}}/v1/orders/{{id}}');
  assert.is(r.variables[0].value, 'http://localhost');
});

test('Swagger 2 and documents with no operations are refused with a reason', () => {
  assert.throws(() => importText('{"swagger":"2.0","paths":{}}'), /Swagger 2\.0 documents are not imported/);
  assert.throws(() => importText('openapi: 3.0.0\ninfo: { title: x }\npaths: {}\n'), /no operations/);
  assert.throws(() => importText('{"a": '), /neither JSON nor YAML/);
});

test.run();
