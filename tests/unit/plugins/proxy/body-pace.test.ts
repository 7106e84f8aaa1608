import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BodyPace, type PacedBody, type SlowBody } from '../../../../plugins/proxy/body-pace.js';

class Body implements PacedBody {
  received = 0;
  deadline = Infinity;
  waiting = true;
  cut: SlowBody | null = null;
  waitingOnClient() { return this.waiting; }
  tooSlow(why: SlowBody) { this.cut = why; }
}

test('a body that sends nothing for a window is cut as idle', () => {
  const pace = new BodyPace(1000, 0, 0);
  const b = new Body();
  pace.watch(b, 0);
  pace.check(999);
  assert.is(b.cut, null);
  pace.check(1000);
  assert.is(b.cut, 'idle');
  assert.is(pace.watching, 0);
  pace.stop();
});

test('a body that keeps sending, but below the minimum rate over a window, is cut for its rate', () => {
  const pace = new BodyPace(1000, 100, 0);
  const fast = new Body();
  const slow = new Body();
  pace.watch(fast, 0);
  pace.watch(slow, 0);
  for (let t = 250; t <= 3000; t += 250) {
    fast.received += 30; // 120 bytes/s
    slow.received += 20; // 80 bytes/s
    pace.check(t);
  }
  assert.is(fast.cut, null);
  assert.is(slow.cut, 'rate');
  pace.stop();
});

test('time the gateway holds the body back is not counted against the client', () => {
  const pace = new BodyPace(1000, 0, 0);
  const b = new Body();
  pace.watch(b, 0);
  b.waiting = false; // waiting for an upstream connection, or the upstream reads slowly
  pace.check(5000);
  assert.is(b.cut, null);
  b.waiting = true;
  pace.check(5900);
  assert.is(b.cut, null, 'the window restarts when the wait is the client\'s again');
  pace.check(6000);
  assert.is(b.cut, 'idle');
  pace.stop();
});

test('the buffered phase\'s deadline holds even for a client that keeps pace', () => {
  const pace = new BodyPace(1000, 1, 3000);
  const b = new Body();
  b.deadline = 3000;
  pace.watch(b, 0);
  for (let t = 500; t < 3000; t += 500) { b.received += 1000; pace.check(t); }
  assert.is(b.cut, null);
  pace.check(3000);
  assert.is(b.cut, 'deadline');
  pace.stop();
});

test('with neither a window nor a deadline, nothing is watched', () => {
  const pace = new BodyPace(0, 1024, 0);
  assert.ok(pace.disabled);
  const b = new Body();
  pace.watch(b, 0);
  assert.is(pace.watching, 0);
});

test('an unwatched body is never cut', () => {
  const pace = new BodyPace(100, 0, 0);
  const b = new Body();
  pace.watch(b, 0);
  pace.unwatch(b);
  pace.check(10_000);
  assert.is(b.cut, null);
});

test.run();
