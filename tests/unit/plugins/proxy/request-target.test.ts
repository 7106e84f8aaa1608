import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { upstreamTarget } from '../../../../plugins/proxy/request-target.js';

test('origin-form targets pass unchanged, query and odd spellings included', () => {
  for (const t of ['/', '/a/b?x=1&y=%20', '/a//b/../c', '/%2e%2e/x', '/a?']) assert.is(upstreamTarget(t, ''), t);
});

test('a base path from the upstream URL is prepended', () => {
  assert.is(upstreamTarget('/v1/x?q=1', '/base'), '/base/v1/x?q=1');
  assert.is(upstreamTarget('/', '/base'), '/base/');
});

test('absolute-form keeps path and query only', () => {
  assert.is(upstreamTarget('http://Example.com:81/p?q=1', ''), '/p?q=1');
  assert.is(upstreamTarget('https://h', ''), '/');
  assert.is(upstreamTarget('http://h?q', '/b'), '/b/?q');
});

test('asterisk-form and authority-form cannot be forwarded', () => {
  assert.is(upstreamTarget('*', ''), null);
  assert.is(upstreamTarget('example.com:443', ''), null);
});

test.run();
