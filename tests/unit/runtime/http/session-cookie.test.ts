import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newSessionCookieValue, readCookies, sessionHandle, sessionKey, sessionSetCookie } from '../../../../runtime/http/session-cookie.js';

test('a new cookie value is 256 random bits; the server keeps its SHA-256, and lists it by an unrelated handle', () => {
  const value = newSessionCookieValue();
  assert.match(value, /^v2\.[A-Za-z0-9_-]{43}$/);
  assert.is.not(newSessionCookieValue(), value);
  const key = sessionKey(value)!;
  assert.is(key, createHash('sha256').update(value).digest('hex'));
  const handle = sessionHandle(key);
  assert.match(handle, /^[0-9a-f]{16}$/);
  assert.not.ok(key.includes(handle), 'the handle is a part of the stored key');
  assert.not.ok(value.includes(handle));
  assert.is(sessionKey(handle), undefined, 'a handle is not a cookie');
});

test('anything but a value we issue has no key: other versions, lengths, characters', () => {
  const value = newSessionCookieValue();
  const body = value.slice(3);
  for (const bad of ['', 'garbage', `v1.${body}`, `v3.${body}`, `v2.${body.slice(1)}`, `v2.${body}A`, `v2.${body.slice(1)}+`, `${value}.extra`, ` ${value}`]) {
    assert.is(sessionKey(bad), undefined, bad);
  }
});

test('a value spelt with non-canonical trailing bits has no key: a session cookie has exactly one form', () => {
  let value = newSessionCookieValue();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  while (alphabet.indexOf(value[value.length - 1]) % 4 !== 0) value = newSessionCookieValue();
  const last = alphabet.indexOf(value[value.length - 1]);
  const twin = value.slice(0, -1) + alphabet[last + 1];
  assert.ok(Buffer.from(twin.slice(3), 'base64url').equals(Buffer.from(value.slice(3), 'base64url')), 'same bytes');
  assert.type(sessionKey(value), 'string');
  assert.is(sessionKey(twin), undefined);
});

test('readCookies finds every value of a name; sessionSetCookie sets the strict attributes', () => {
  assert.equal(readCookies('a=1; vigil_session=x; b=2; vigil_session="y"', 'vigil_session'), ['x', 'y']);
  assert.equal(readCookies(undefined, 'vigil_session'), []);
  assert.equal(readCookies('novalue; other=1', 'vigil_session'), []);
  assert.is(sessionSetCookie('abc', 60, false), 'vigil_session=abc; Max-Age=60; Path=/; HttpOnly; SameSite=Strict');
  assert.is(sessionSetCookie('abc', 60, true), 'vigil_session=abc; Max-Age=60; Path=/; HttpOnly; SameSite=Strict; Secure');
});

test.run();
