import type { IncomingHttpHeaders } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isNavigation, isSafeMethod, SiteClassifier, type RequestSite } from '../../../../runtime/http/request-site.js';

const OWN = 'http://127.0.0.1:9095';
const sites = new SiteClassifier('http', () => OWN);
const classify = (headers: IncomingHttpHeaders): RequestSite => sites.classify({ host: '127.0.0.1:9095', ...headers });

test('Sec-Fetch-Site decides when present; values are compared without case; anything unknown is cross-site', () => {
  const cases: [string, RequestSite][] = [
    ['same-origin', 'same-origin'], ['Same-Origin', 'same-origin'], ['none', 'user'], ['same-site', 'cross-site'],
    ['cross-site', 'cross-site'], ['CROSS-SITE', 'cross-site'], ['same-origin, same-origin', 'cross-site'],
    ['same-origin, cross-site', 'cross-site'], ['', 'cross-site'], ['whatever', 'cross-site'],
  ];
  for (const [value, site] of cases) assert.is(classify({ 'sec-fetch-site': value }), site, value);
});

test('an Origin that is not ours is cross-site whatever Sec-Fetch-Site says; ours without it is same-origin', () => {
  for (const origin of ['http://evil.example', 'http://127.0.0.1:9096', 'https://127.0.0.1:9095', 'http://localhost:9095',
    'http://127.0.0.1:9095/', 'http://127.0.0.1:9095, http://evil.example', 'http://user@127.0.0.1:9095', 'file://', 'NULL', '']) {
    assert.is(classify({ origin }), 'cross-site', origin);
    assert.is(classify({ origin, 'sec-fetch-site': 'same-origin' }), 'cross-site', `${origin} with same-origin`);
  }
  assert.is(classify({ origin: OWN }), 'same-origin');
  assert.is(classify({ origin: 'HTTP://127.0.0.1:9095' }), 'same-origin');
  assert.is(classify({ origin: 'null' }), 'cross-site', 'a sandboxed frame or a data: URL');
  assert.is(classify({ origin: 'null', 'sec-fetch-site': 'same-origin' }), 'same-origin', 'our own form under no-referrer');
  assert.is(classify({ origin: 'null', 'sec-fetch-site': 'none' }), 'cross-site');
});

test('the origin through the Host the browser used is ours too (Host passed the allow-list first)', () => {
  assert.is(sites.classify({ host: 'localhost:9095', origin: 'http://localhost:9095' }), 'same-origin');
  assert.is(sites.classify({ host: 'localhost:8000', origin: 'http://localhost:8000' }), 'same-origin', 'through a port forward');
  assert.is(sites.classify({ host: '[::1]:9095', origin: 'http://[::1]:9095' }), 'same-origin');
  assert.is(sites.classify({ host: 'localhost:9095', origin: 'http://localhost:9096' }), 'cross-site');
  const tls = new SiteClassifier('https', () => 'https://127.0.0.1:9095');
  assert.is(tls.classify({ host: 'vigil.lan:9095', origin: 'https://vigil.lan:9095' }), 'same-origin');
  assert.is(tls.classify({ host: 'vigil.lan:9095', origin: 'http://vigil.lan:9095' }), 'cross-site');
});

test('a Referer on another origin is cross-site; ours is no proof of anything', () => {
  assert.is(classify({ referer: 'http://evil.example/page' }), 'cross-site');
  assert.is(classify({ referer: 'about:blank' }), 'cross-site');
  assert.is(classify({ referer: 'not a url' }), 'cross-site');
  assert.is(classify({ referer: `${OWN}/login` }), 'unmarked');
  assert.is(classify({ referer: `${OWN}/login`, 'sec-fetch-site': 'same-origin' }), 'same-origin');
  assert.is(classify({ referer: 'http://evil.example/', 'sec-fetch-site': 'same-origin' }), 'cross-site');
});

test('neither header is unmarked (a script, or an old browser)', () => {
  assert.is(classify({}), 'unmarked');
  assert.is(classify({ 'sec-fetch-mode': 'cors' }), 'unmarked');
});

test('navigations are GET or HEAD with Sec-Fetch-Mode: navigate; safe methods are GET, HEAD, OPTIONS', () => {
  assert.ok(isNavigation('GET', { 'sec-fetch-mode': 'navigate' }));
  assert.ok(isNavigation('HEAD', { 'sec-fetch-mode': 'Navigate' }));
  assert.not.ok(isNavigation('POST', { 'sec-fetch-mode': 'navigate' }));
  assert.not.ok(isNavigation('GET', { 'sec-fetch-mode': 'no-cors' }));
  assert.not.ok(isNavigation('GET', {}));
  for (const m of ['GET', 'HEAD', 'OPTIONS']) assert.ok(isSafeMethod(m));
  for (const m of ['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND']) assert.not.ok(isSafeMethod(m));
});

test.run();
