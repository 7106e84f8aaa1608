import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { matchPath, normalizePath, readChoice, readText, splitHref, withParams } from '../../../../ui/src/shell/url-state.js';

test('normalizePath drops trailing slashes but keeps the root', () => {
  assert.is(normalizePath('/'), '/');
  assert.is(normalizePath('/gateway/'), '/gateway');
  assert.is(normalizePath('/gateway//'), '/gateway');
  assert.is(normalizePath('/gateway'), '/gateway');
});

test('matchPath: exact segments, decoded parameters, trailing slash ignored', () => {
  assert.equal(matchPath('/gateway', '/gateway/'), {});
  assert.equal(matchPath('/gateway/requests/:id', '/gateway/requests/0190a%2Fb'), { id: '0190a/b' });
  assert.is(matchPath('/gateway/requests/:id', '/gateway/requests'), null);
  assert.is(matchPath('/gateway/requests/:id', '/gateway/requests/a/b'), null);
  assert.is(matchPath('/gateway', '/gatewayx'), null);
  assert.is(matchPath('/gateway/requests/:id', '/gateway/requests/%E0%A4%A'), null, 'a malformed escape is no match, not a crash');
});

test('readChoice takes only an allowed, single value; anything else is the fallback', () => {
  const ranges = ['1h', '24h', '7d'] as const;
  assert.is(readChoice('?range=1h', 'range', ranges, '24h'), '1h');
  assert.is(readChoice('', 'range', ranges, '24h'), '24h');
  assert.is(readChoice('?range=2h', 'range', ranges, '24h'), '24h');
  assert.is(readChoice('?range=1H', 'range', ranges, '24h'), '24h');
  assert.is(readChoice('?range=1h&range=7d', 'range', ranges, '24h'), '24h');
  assert.is(readChoice('?range=__proto__', 'range', ranges, '24h'), '24h');
  assert.is(readText('?q=a%20b', 'q'), 'a b');
  assert.is(readText('', 'q', 'x'), 'x');
});

test('withParams writes only what differs from the defaults and keeps the other parameters', () => {
  assert.is(withParams('', { range: '1h' }, { range: '24h' }), '?range=1h');
  assert.is(withParams('?range=1h', { range: '24h' }, { range: '24h' }), '');
  assert.is(withParams('?status=5xx&range=1h', { range: '7d' }), '?status=5xx&range=7d');
  assert.is(withParams('?status=5xx', { status: null, route: '/api/**' }), '?route=%2Fapi%2F**');
  assert.is(withParams('?a=1', { a: '' }), '');
});

test('splitHref separates path and query and drops the hash', () => {
  assert.equal(splitHref('/gateway?range=1h#top'), { path: '/gateway', search: '?range=1h' });
  assert.equal(splitHref('/about'), { path: '/about', search: '' });
  assert.equal(splitHref('?x=1'), { path: '/', search: '?x=1' });
  assert.equal(splitHref('/a?'), { path: '/a', search: '' });
});

test.run();
