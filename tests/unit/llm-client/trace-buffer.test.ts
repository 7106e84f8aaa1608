// clients/node/src/trace-buffer.ts: bounded in items and bytes, batches in order, in-flight items still counted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TraceBuffer } from '../../../clients/node/src/trace-buffer.js';

const item = (i: number, bytes = 10) => ({ id: String(i), json: 'x'.repeat(bytes), bytes });

test('beyond maxItems, add refuses', () => {
  const b = new TraceBuffer(3, 1000);
  assert.equal([1, 2, 3, 4].map((i) => b.add(item(i))), [true, true, true, false]);
  assert.is(b.items, 3);
  assert.is(b.added, 3);
});

test('beyond maxBytes, add refuses; a smaller item may still fit', () => {
  const b = new TraceBuffer(100, 25);
  assert.ok(b.add(item(1, 10)));
  assert.ok(b.add(item(2, 10)));
  assert.not.ok(b.add(item(3, 10)));
  assert.ok(b.add(item(4, 5)));
  assert.is(b.bytes, 25);
});

test('take cuts batches by count and by bytes, in order, and always takes one item', () => {
  const b = new TraceBuffer(100, 10_000);
  for (let i = 0; i < 7; i++) b.add(item(i, 10));
  b.add(item(7, 500));
  assert.equal(b.take(3, 1000).map((x) => x.id), ['0', '1', '2']);
  assert.equal(b.take(100, 35).map((x) => x.id), ['3', '4', '5']);
  assert.equal(b.take(100, 35).map((x) => x.id), ['6']);
  assert.equal(b.take(100, 35).map((x) => x.id), ['7'], 'one item over maxBytes still goes alone');
  assert.equal(b.take(100, 35), []);
});

test('a taken batch counts against the bounds until released', () => {
  const b = new TraceBuffer(2, 1000);
  b.add(item(1));
  b.add(item(2));
  const batch = b.take(2, 1000);
  assert.is(b.pending, 0);
  assert.not.ok(b.add(item(3)), 'the batch in flight still holds its room');
  b.release(batch);
  assert.is(b.items, 0);
  assert.is(b.bytes, 0);
  assert.is(b.settled, 2);
  assert.ok(b.add(item(3)));
});

test('dropPending drops what was not taken and counts it as settled', () => {
  const b = new TraceBuffer(10, 1000);
  for (let i = 0; i < 5; i++) b.add(item(i));
  const batch = b.take(2, 1000);
  assert.is(b.dropPending(), 3);
  assert.is(b.items, 2);
  b.release(batch);
  assert.is(b.settled, 5);
  assert.is(b.items, 0);
});

test('a long run of batches keeps memory compact (the queue is compacted, not grown)', () => {
  const b = new TraceBuffer(10_000, 1 << 30);
  for (let round = 0; round < 50; round++) {
    for (let i = 0; i < 1000; i++) b.add(item(i, 1));
    while (b.pending) b.release(b.take(100, 1 << 20));
  }
  assert.is(b.items, 0);
  assert.ok(((b as any).queue as unknown[]).length <= 2048, String((b as any).queue.length));
});

test.run();
