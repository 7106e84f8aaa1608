import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { UpstreamSlots, type SlotWaiter } from '../../../../plugins/proxy/upstream-slots.js';
import { waitFor } from '../../../support/net.js';

function waiter(log: string[], name: string): SlotWaiter {
  return { granted: () => log.push(`${name} granted`), timedOut: () => log.push(`${name} timed out`) };
}
const tick = () => new Promise((r) => setImmediate(r));

test('free slots are granted at once; beyond them requests wait, first come first served', async () => {
  const slots = new UpstreamSlots(2, 0);
  const log: string[] = [];
  slots.acquire(waiter(log, 'a'));
  slots.acquire(waiter(log, 'b'));
  slots.acquire(waiter(log, 'c'));
  slots.acquire(waiter(log, 'd'));
  assert.equal(log, ['a granted', 'b granted']);
  assert.is(slots.inUse, 2);
  assert.is(slots.waiting, 2);
  slots.release();
  await tick();
  assert.equal(log, ['a granted', 'b granted', 'c granted']);
  assert.is(slots.inUse, 2);
  assert.is(slots.waiting, 1);
});

test('a cancelled waiter never gets a slot, and is not counted as waiting', async () => {
  const slots = new UpstreamSlots(1, 0);
  const log: string[] = [];
  slots.acquire(waiter(log, 'a'));
  const b = slots.acquire(waiter(log, 'b'));
  slots.acquire(waiter(log, 'c'));
  b.cancel();
  b.cancel();
  assert.is(slots.waiting, 1);
  slots.release();
  await tick();
  assert.equal(log, ['a granted', 'c granted']);
  assert.is(slots.waiting, 0);
  slots.release();
  assert.is(slots.inUse, 0);
});

test('a waiter times out after queue_timeout, holding no slot; the slot goes to whoever waits after', async () => {
  const slots = new UpstreamSlots(1, 50);
  const log: string[] = [];
  slots.acquire(waiter(log, 'a'));
  slots.acquire(waiter(log, 'b'));
  await new Promise((r) => setTimeout(r, 30));
  slots.acquire(waiter(log, 'c'));
  // b's timer (50 ms from its acquire) and c's (50 ms from its own, 30 ms or more later) run apart from this test's
  // clock: a fixed 40 ms sleep left only 10 ms before c timed out too on a loaded machine. Look as soon as b timed out.
  await waitFor(() => log.includes('b timed out'), { timeoutMs: 5_000, intervalMs: 1, what: 'b to time out' }).catch(() => undefined);
  assert.equal(log, ['a granted', 'b timed out']);
  assert.is(slots.waiting, 1);
  slots.release();
  await tick();
  assert.equal(log, ['a granted', 'b timed out', 'c granted']);
  assert.is(slots.inUse, 1);
});

test('a cancel after the grant was decided is harmless', async () => {
  const slots = new UpstreamSlots(1, 0);
  const log: string[] = [];
  slots.acquire(waiter(log, 'a'));
  const b = slots.acquire(waiter(log, 'b'));
  slots.release();
  b.cancel(); // the client left between the grant and its delivery
  assert.is(slots.waiting, 0);
  await tick();
  assert.equal(log, ['a granted', 'b granted']);
});

test('stop times every waiter out', () => {
  const slots = new UpstreamSlots(1, 0);
  const log: string[] = [];
  slots.acquire(waiter(log, 'a'));
  slots.acquire(waiter(log, 'b'));
  slots.acquire(waiter(log, 'c')).cancel();
  slots.stop();
  assert.equal(log, ['a granted', 'b timed out']);
  assert.is(slots.waiting, 0);
});

test.run();
