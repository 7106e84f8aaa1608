import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { normalizePath } from '../../../policies/normalize-path.js';

const same: [string, string][] = [
  ['//api//x', '/api/x'],
  ['/api/./x', '/api/x'],
  ['/api/a/../x', '/api/x'],
  ['/%61pi/x', '/api/x'],
  ['/api%2Fx', '/api/x'],
  ['/api%2fx', '/api/x'],
  ['/api/x?y', '/api/x'],
  ['/api/x?y=1&z=/..', '/api/x'],
  ['/api/x#f', '/api/x'],
  ['/api/x/', '/api/x'],
  ['/api/%2e%2e/api/x', '/api/x'],
  ['/api/%2E/x', '/api/x'],
  ['/api/x/.', '/api/x'],
  ['/./api/./././x', '/api/x'],
];

test('adversarial spellings of /api/x all normalise to /api/x', () => {
  for (const [input, expected] of same) assert.is(normalizePath(input), expected, input);
});

test('percent-decoding happens once: %252e stays a literal %2e segment', () => {
  assert.is(normalizePath('/api/%252e%252e/x'), '/api/%2e%2e/x');
  assert.is(normalizePath('/a/%2561'), '/a/%61');
});

test('.. never climbs above the root', () => {
  assert.is(normalizePath('/../../etc/passwd'), '/etc/passwd');
  assert.is(normalizePath('/a/../..'), '/');
});

test('the query is cut before decoding: an encoded ? stays in the path', () => {
  assert.is(normalizePath('/api/a%3Fb?c'), '/api/a?b');
});

test('invalid escapes and non-UTF-8 bytes are kept literally', () => {
  assert.is(normalizePath('/%zz/%4'), '/%zz/%4');
  assert.is(normalizePath('/a/%FF/b'), '/a/%FF/b');
  assert.is(normalizePath('/a/%FF%2Fb'), '/a/%FF/b'); // the ASCII escape in the same run still decodes
  assert.is(normalizePath('/caf%C3%A9'), '/café');
});

test('absolute-form targets lose scheme and authority; the root and odd targets still start with /', () => {
  assert.is(normalizePath('http://example.com:8080/a/b?c'), '/a/b');
  assert.is(normalizePath('https://example.com'), '/');
  assert.is(normalizePath('/'), '/');
  assert.is(normalizePath(''), '/');
  assert.is(normalizePath('*'), '/*');
  assert.is(normalizePath('?q=1'), '/');
});

test('plain paths come back unchanged, case included', () => {
  for (const p of ['/api/x', '/API/X', '/a-b_c~d/e.json', '/.well-known/x', '/a/.hidden']) {
    assert.is(normalizePath(p), p);
  }
});

test.run();
