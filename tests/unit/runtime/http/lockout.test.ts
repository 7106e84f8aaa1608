import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FailureLockout, lockoutKey } from '../../../../runtime/http/lockout.js';

function clock(start = 1_000_000): { now: () => number; advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => { t += ms; } };
}

test('locks after maxFailures within the window, for windowMs, then lifts', () => {
  const c = clock();
  const lockout = new FailureLockout({ maxFailures: 3, windowMs: 60_000, now: c.now });
  assert.is(lockout.fail('10.0.0.1'), false);
  assert.is(lockout.fail('10.0.0.1'), false);
  assert.is(lockout.lockedFor('10.0.0.1'), 0);
  assert.is(lockout.fail('10.0.0.1'), true);
  assert.is(lockout.lockedFor('10.0.0.1'), 60);
  assert.is(lockout.lockedFor('10.0.0.2'), 0, 'another address is not locked');
  c.advance(59_500);
  assert.is(lockout.lockedFor('10.0.0.1'), 1);
  assert.is(lockout.fail('10.0.0.1'), false, 'failures while locked do not extend or re-lock');
  c.advance(500);
  assert.is(lockout.lockedFor('10.0.0.1'), 0);
});

test('failures spread over more than the window do not add up', () => {
  const c = clock();
  const lockout = new FailureLockout({ maxFailures: 3, windowMs: 1000, now: c.now });
  lockout.fail('a');
  lockout.fail('a');
  c.advance(1000);
  assert.is(lockout.fail('a'), false);
  assert.is(lockout.fail('a'), false);
  assert.is(lockout.fail('a'), true);
});

test('memory stays bounded by maxTracked, evicting expired then oldest entries', () => {
  const c = clock();
  const lockout = new FailureLockout({ maxFailures: 5, windowMs: 1000, maxTracked: 100, now: c.now });
  for (let i = 0; i < 10_000; i++) lockout.fail(`10.${i >> 16 & 255}.${i >> 8 & 255}.${i & 255}`);
  assert.ok(lockout.size <= 100, `tracked ${lockout.size}`);
  for (let i = 0; i < 5; i++) lockout.fail('192.0.2.1');
  assert.ok(lockout.lockedFor('192.0.2.1') > 0);
  c.advance(2000);
  lockout.fail('198.51.100.1');
  assert.ok(lockout.size <= 100);
});

test('lockoutKey: IPv4-mapped addresses count as IPv4; IPv6 addresses count per /64', () => {
  assert.is(lockoutKey('::ffff:192.0.2.7'), '192.0.2.7');
  assert.is(lockoutKey('192.0.2.7'), '192.0.2.7');
  assert.is(lockoutKey('2001:db8:1:2:aaaa::1'), lockoutKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
  assert.is.not(lockoutKey('2001:db8:1:2::1'), lockoutKey('2001:db8:1:3::1'));
  assert.is(lockoutKey('2001:0DB8:0001:0002::1'), '2001:db8:1:2::/64');
  assert.is(lockoutKey('::1'), '0:0:0:0::/64');
  assert.is(lockoutKey(undefined), 'unknown');
});

test('an IPv6 client rotating addresses inside its /64 is locked as one', () => {
  const lockout = new FailureLockout({ maxFailures: 3, windowMs: 60_000 });
  lockout.fail('2001:db8::1');
  lockout.fail('2001:db8::2');
  lockout.fail('2001:db8::3');
  assert.ok(lockout.lockedFor('2001:db8::ffff') > 0);
});

test.run();
