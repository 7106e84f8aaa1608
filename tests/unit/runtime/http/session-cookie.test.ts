import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hashToken } from '../../../../runtime/http/dashboard-token.js';
import { readCookies, sessionSetCookie, SessionSigner } from '../../../../runtime/http/session-cookie.js';

const secret = randomBytes(32);
const hash = hashToken('the-token');

test('an issued session verifies until it expires, and holds neither the token nor its hash', () => {
  const signer = new SessionSigner(secret, hash, 1000);
  const { value, expiresAt } = signer.issue(5_000);
  assert.is(expiresAt, 6_000);
  assert.not.ok(value.includes('the-token'));
  assert.not.ok(value.includes(hash));
  const check = signer.verify(value, 5_999);
  assert.is(check.state, 'valid');
  assert.is(signer.verify(value, 6_000).state, 'expired');
});

test('any change to the id, the expiry or the MAC is invalid', () => {
  const signer = new SessionSigner(secret, hash, 60_000);
  const { value } = signer.issue();
  const [v, id, exp, mac] = value.split('.');
  const later = (parseInt(exp, 36) + 1_000_000).toString(36);
  // Flip a character in the middle: every bit of it is data (the last one of the MAC has two unused bits).
  const flip = (s: string): string => s.slice(0, 5) + (s[5] === 'A' ? 'B' : 'A') + s.slice(6);
  for (const forged of [
    [v, flip(id), exp, mac].join('.'), [v, id, later, mac].join('.'), [v, id, exp, flip(mac)].join('.'),
    `v2.${id}.${exp}.${mac}`, '', 'garbage', `${value}.extra`,
  ]) {
    assert.is(signer.verify(forged).state, 'invalid', forged);
  }
});

test('a MAC spelt with non-canonical trailing bits is invalid: a session cookie has exactly one form', () => {
  const signer = new SessionSigner(secret, hash, 60_000);
  const { value } = signer.issue();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(value[value.length - 1]);
  assert.is(last % 4, 0, 'a canonical 43-character MAC ends with its two spare bits clear');
  const twin = value.slice(0, -1) + alphabet[last + 1];
  assert.ok(Buffer.from(twin.split('.')[3], 'base64url').equals(Buffer.from(value.split('.')[3], 'base64url')), 'same bytes');
  assert.is(signer.verify(value).state, 'valid');
  assert.is(signer.verify(twin).state, 'invalid');
});

test('another session secret or another token hash derives another key', () => {
  const { value } = new SessionSigner(secret, hash).issue();
  assert.is(new SessionSigner(secret, hash).verify(value).state, 'valid');
  assert.is(new SessionSigner(randomBytes(32), hash).verify(value).state, 'invalid');
  assert.is(new SessionSigner(secret, hashToken('rotated')).verify(value).state, 'invalid');
});

test('readCookies finds every value of a name; sessionSetCookie sets the strict attributes', () => {
  assert.equal(readCookies('a=1; vigil_session=x; b=2; vigil_session="y"', 'vigil_session'), ['x', 'y']);
  assert.equal(readCookies(undefined, 'vigil_session'), []);
  assert.equal(readCookies('novalue; other=1', 'vigil_session'), []);
  assert.is(sessionSetCookie('abc', 60, false), 'vigil_session=abc; Max-Age=60; Path=/; HttpOnly; SameSite=Strict');
  assert.is(sessionSetCookie('abc', 60, true), 'vigil_session=abc; Max-Age=60; Path=/; HttpOnly; SameSite=Strict; Secure');
});

test.run();
