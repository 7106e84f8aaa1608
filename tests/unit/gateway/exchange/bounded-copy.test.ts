import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ByteBudget } from '@vigil/plugin-sdk';
import { BoundedCopy, SLAB_PIECE_MAX } from '../../../../gateway/exchange/bounded-copy.js';

const bytes = (n: number, start = 0) => Uint8Array.from({ length: n }, (_, i) => (start + i) & 0xff);

test('a body under the limit is copied whole, chunk by chunk, not truncated', () => {
  const copy = new BoundedCopy(1024, -1);
  copy.push(bytes(10));
  copy.push(bytes(20, 10));
  assert.equal(copy.bytes(), bytes(30));
  assert.is(copy.truncated, false);
});

test('a body over the limit keeps the first limit bytes and says it was truncated', () => {
  const copy = new BoundedCopy(25, -1);
  copy.push(bytes(10));
  copy.push(bytes(10, 10));
  copy.push(bytes(10, 20));
  copy.push(bytes(5, 30));
  assert.equal(copy.bytes(), bytes(25));
  assert.is(copy.truncated, true);
});

test('exactly the limit is not truncated; one byte more is', () => {
  const a = new BoundedCopy(8, 8);
  a.push(bytes(8));
  assert.is(a.truncated, false);
  assert.is(a.bytes().byteLength, 8);
  const b = new BoundedCopy(8, 9);
  b.push(bytes(8));
  b.push(bytes(1, 8));
  assert.is(b.truncated, true);
  assert.equal(b.bytes(), bytes(8));
});

test('the copy does not alias the chunks: changing a chunk later does not change the copy', () => {
  const copy = new BoundedCopy(100, -1);
  const chunk = bytes(5);
  copy.push(chunk);
  chunk.fill(0);
  assert.equal(copy.bytes(), bytes(5));
});

test('bytes() of a body of unknown length has exactly the kept size, in a buffer of its own', () => {
  const copy = new BoundedCopy(1 << 20, -1);
  copy.push(bytes(100));
  const out = copy.bytes();
  assert.is(out.byteLength, 100);
  assert.is(out.buffer.byteLength, 100);
});

test('a declared length sizes the copy exactly; a larger declared length is capped at the limit', () => {
  const a = new BoundedCopy(10_000, SLAB_PIECE_MAX + 300);
  a.push(bytes(SLAB_PIECE_MAX + 300));
  assert.is(a.bytes().buffer.byteLength, SLAB_PIECE_MAX + 300);
  const b = new BoundedCopy(50, 300);
  b.push(bytes(300));
  assert.is(b.bytes().byteLength, 50);
  assert.is(b.truncated, true);
});

test('a body shorter than its declared length is handed out at its own size, in a buffer of its own', () => {
  const copy = new BoundedCopy(1 << 20, 4096);
  copy.push(bytes(10));
  const out = copy.bytes();
  assert.equal(out, bytes(10));
  assert.is(out.buffer.byteLength, 10);
});

test('small copies of a declared length share a slab, each with its own bytes only, however they are written and handed over', () => {
  const copies = Array.from({ length: 40 }, (_, i) => new BoundedCopy(1 << 20, 100 + i));
  // Interleaved, as responses stream side by side; each gets its whole body and is handed over at once.
  copies.forEach((c, i) => c.push(bytes(50, i)));
  copies.forEach((c, i) => c.push(bytes(50 + i, 50 + i)));
  const out = copies.map((c) => c.handOver());
  out.forEach((o, i) => assert.equal(o, bytes(100 + i, i), `copy ${i}`));
  // One backing buffer serves many copies (fewer buffers than copies), and none is larger than a slab of pieces.
  const buffers = new Set(out.map((o) => o.buffer));
  assert.ok(buffers.size < out.length / 4, `${buffers.size} buffers for ${out.length} copies`);
  // Written after they were handed over, new copies never touch bytes already handed out.
  const later = new BoundedCopy(1 << 20, 200);
  later.push(new Uint8Array(200).fill(0xee));
  out.forEach((o, i) => assert.equal(o, bytes(100 + i, i), `copy ${i} after another was written`));
  assert.equal(later.bytes(), new Uint8Array(200).fill(0xee));
});

test('a small copy that outgrows its declared length keeps every byte, in a buffer of its own', () => {
  const copy = new BoundedCopy(1 << 20, 64);
  copy.push(bytes(64));
  copy.push(bytes(100, 64));
  const out = copy.bytes();
  assert.equal(out, bytes(164));
  assert.is(out.buffer.byteLength, 164);
});

test('a copy larger than a slab piece gets a buffer of its own', () => {
  const copy = new BoundedCopy(1 << 20, SLAB_PIECE_MAX + 1);
  copy.push(bytes(SLAB_PIECE_MAX + 1));
  assert.is(copy.bytes().buffer.byteLength, SLAB_PIECE_MAX + 1);
});

test('an empty body gives an empty array and is not truncated', () => {
  const copy = new BoundedCopy(10, -1);
  copy.push(new Uint8Array(0));
  assert.is(copy.bytes().byteLength, 0);
  assert.is(copy.truncated, false);
});

test('growth across many small chunks keeps every byte in order', () => {
  const copy = new BoundedCopy(100_000, -1);
  for (let i = 0; i < 1000; i++) copy.push(bytes(50, i * 50));
  const out = copy.bytes();
  assert.is(out.byteLength, 50_000);
  assert.equal(out, bytes(50_000));
});

test('limit 0: nothing kept, truncated as soon as a byte passes', () => {
  const copy = new BoundedCopy(0, -1);
  copy.push(bytes(1));
  assert.is(copy.bytes().byteLength, 0);
  assert.is(copy.truncated, true);
});

test('keep: a whole body within the limit is held as a view, no copy; a longer one is copied up to the limit', () => {
  const body = new Uint8Array([1, 2, 3, 4]);
  const view = new BoundedCopy(10, -1);
  view.keep(body);
  assert.is(view.bytes(), body, 'the same bytes, not a copy');
  assert.is(view.truncated, false);
  const cut = new BoundedCopy(3, -1);
  cut.keep(body);
  assert.equal([...cut.bytes()], [1, 2, 3]);
  assert.is(cut.truncated, true);
});

test('the budget is taken before a buffer is allocated; trimming and handing over leave it holding exactly the bytes', () => {
  const budget = new ByteBudget(1 << 20);
  const copy = new BoundedCopy(1000, 800, budget);
  copy.push(new Uint8Array(100));
  assert.is(budget.held, 800, 'the declared length, taken at once');
  copy.push(new Uint8Array(200));
  const bytes = copy.handOver();
  assert.is(bytes.byteLength, 300);
  assert.is(budget.held, 300, 'the spare capacity given back; the rest travels with the bytes');
  assert.is(copy.held, 0);
  assert.is(copy.bytes().byteLength, 0, 'the copy let go of them');
});

test('when the budget has no room the copy is dropped whole: nothing kept, nothing held, never a silent prefix', () => {
  const budget = new ByteBudget(20_000);
  const copy = new BoundedCopy(100_000, -1, budget);
  copy.push(new Uint8Array(10_000));
  assert.is(budget.held, 16 * 1024);
  copy.push(new Uint8Array(10_000)); // would grow to 32 KiB
  assert.is(copy.dropped, true);
  assert.is(copy.truncated, false);
  assert.is(budget.held, 0);
  copy.push(new Uint8Array(10));
  assert.is(copy.bytes().byteLength, 0);
  const view = new BoundedCopy(100, -1, new ByteBudget(10));
  view.keep(new Uint8Array(50));
  assert.is(view.dropped, true, 'a view is counted too');
});

test('release gives back what a copy that will not be published holds', () => {
  const budget = new ByteBudget(1 << 20);
  const copy = new BoundedCopy(1000, -1, budget);
  copy.push(new Uint8Array(10));
  copy.release();
  assert.is(budget.held, 0);
});

test.run();
