import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AuthPrincipal } from '@vigil/plugin-sdk';
import { MAX_FAILURES, PasswordCache } from '../../../../plugins/privilege/password-cache.js';

const session = (h: string): AuthPrincipal => ({ scheme: 'dashboard', subject: `session:${h}` });

function cache(ttlMs = 60_000) {
  let now = 1_000_000;
  const ends = new Map<string, () => void>();
  const c = new PasswordCache(ttlMs, (p, onEnd) => {
    ends.set(String(p?.subject), onEnd);
    return () => ends.delete(String(p?.subject));
  }, () => now);
  return { c, ends, advance: (ms: number) => { now += ms; } };
}

test('one password per session, handed out as a copy; another session has none', () => {
  const { c } = cache();
  const held = Buffer.from('s3cret');
  c.set(session('a'), held);
  const copy = c.take(session('a'))!;
  assert.is(copy.toString(), 's3cret');
  copy.fill(0);
  assert.is(c.take(session('a'))!.toString(), 's3cret', 'zeroing the copy leaves the held one');
  assert.is(c.take(session('b')), undefined);
  assert.is(c.take(undefined), undefined);
});

test('dropped, and its bytes zeroed, when the session ends, on forget, and after the idle time', () => {
  const { c, ends, advance } = cache(1000);
  const a = Buffer.from('aaaa');
  c.set(session('a'), a);
  ends.get('session:a')!();
  assert.is(c.take(session('a')), undefined);
  assert.equal([...a], [0, 0, 0, 0], 'the bytes are wiped');
  assert.not.ok(ends.has('session:a'), 'the session watch is released');

  c.set(session('b'), Buffer.from('bbbb'));
  c.forget(session('b'));
  assert.is(c.size, 0);

  c.set(session('c'), Buffer.from('cccc'));
  advance(900);
  assert.ok(c.take(session('c')), 'a use renews the time');
  advance(900);
  assert.ok(c.take(session('c')));
  advance(1001);
  assert.is(c.take(session('c')), undefined, 'idle past the ttl');
});

test('five wrong passwords in a window stop a session trying; another session may', () => {
  const { c, advance } = cache();
  for (let i = 0; i < MAX_FAILURES; i++) { assert.ok(c.mayTry(session('a'))); c.failed(session('a')); }
  assert.not.ok(c.mayTry(session('a')));
  assert.ok(c.mayTry(session('b')));
  advance(15 * 60_000 + 1);
  assert.ok(c.mayTry(session('a')), 'the window passes');
});

test.run();
