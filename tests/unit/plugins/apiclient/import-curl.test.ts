import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { importCurl, shellWords } from '../../../../plugins/apiclient/import-curl.js';
import { importText } from '../../../../plugins/apiclient/import-any.js';
import { fixture } from '../../../support/paths.js';

const [login, items, post] = importCurl(readFileSync(fixture('apiclient', 'copy-as-curl.txt'), 'utf8'));

test('a browser\'s Copy as cURL: continuations, \'\\\'\' quotes, --data-raw make a POST', () => {
  assert.is(login.method, 'POST');
  assert.is(login.url, 'http://127.0.0.1:3000/login');
  assert.is(login.body, '{"user":"ada","password":"it\'s pw"}');
  assert.equal(login.headers.map((h) => h.name), ['Accept', 'Accept-Language', 'Connection', 'Content-Type', 'Origin', 'Sec-Fetch-Mode', 'User-Agent']);
  assert.is(login.headers.find((h) => h.name === 'Content-Type')!.value, 'application/json');
});

test('-b becomes a Cookie header; one command per line', () => {
  assert.is(items.method, 'GET');
  assert.is(items.url, 'http://127.0.0.1:3000/items?limit=2');
  assert.equal(items.headers.slice(-2), [{ name: 'Authorization', value: 'Bearer tok-123' }, { name: 'Cookie', value: 'session=abc; theme=dark' }]);
});

test('$\'…\' quoting decodes \\n, \\t and \\\' ; -X \'POST\' is the method', () => {
  assert.is(post.method, 'POST');
  assert.is(post.body, 'line one\nline "two"\ttabbed \'quoted\'');
  assert.equal(post.headers, [{ name: 'content-type', value: 'text/plain' }]);
});

test('-d without a content type gets curl\'s form type; -u is basic auth; --url and -G', () => {
  const [r] = importCurl("curl -u 'ada:p:w' -d a=1 --data b=2 --url http://h/x");
  assert.is(r.method, 'POST');
  assert.is(r.body, 'a=1&b=2');
  assert.equal(r.headers, [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }]);
  assert.equal(r.auth, { type: 'basic', username: 'ada', password: 'p:w' });
  const [g] = importCurl('curl -G -d q=tea "http://h/search?x=1"');
  assert.is(g.method, 'GET');
  assert.is(g.url, 'http://h/search?x=1&q=tea');
  assert.is(g.body, '');
});

test('double quotes keep backslash escapes of " and $; -XPUT and --header=', () => {
  const [r] = importCurl('curl -XPUT "http://h/a" --header="X-A: \\"q\\" \\$HOME" --data-binary "{}"');
  assert.is(r.method, 'PUT');
  assert.equal(r.headers[0], { name: 'X-A', value: '"q" $HOME' });
});

test('files, forms and unclosed quotes are refused with a reason', () => {
  assert.throws(() => importCurl('curl -d @body.json http://h/'), /reads a file/);
  assert.throws(() => importCurl('curl -F a=b http://h/'), /multipart/);
  assert.throws(() => importCurl("curl 'http://h/"), /not closed/);
  assert.throws(() => importCurl('wget http://h/'), /must start with curl/);
  assert.throws(() => importCurl('curl -s'), /names no URL/);
});

test('shell words: comments and empty lines end commands', () => {
  assert.equal(shellWords('# a comment\ncurl a\n\ncurl b # trailing'), [['curl', 'a'], ['curl', 'b']]);
});

test('importText picks curl by its first word', () => {
  assert.is(importText('  curl http://h/').format, 'curl');
});

test.run();
