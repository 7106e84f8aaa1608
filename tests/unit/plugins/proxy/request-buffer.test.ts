import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ByteBudget } from '@vigil/plugin-sdk';
import { RequestBuffer } from '../../../../plugins/proxy/request-buffer.js';

const bytes = (n: number, fill = 0x61) => Buffer.alloc(n, fill);

test('keeps chunks up to the limit and hands back exactly the bytes, in one buffer of their size', () => {
  const budget = new ByteBudget(1 << 20);
  const b = new RequestBuffer(10_000, -1, budget);
  assert.is(b.push(bytes(3000, 0x61)), 'kept');
  assert.is(b.push(bytes(5000, 0x62)), 'kept');
  const out = b.bytes();
  assert.is(out.byteLength, 8000);
  assert.is(out.buffer.byteLength, 8000);
  assert.ok(Buffer.from(out).equals(Buffer.concat([bytes(3000, 0x61), bytes(5000, 0x62)])));
});

test('a chunk that would pass the limit is not kept: full', () => {
  const b = new RequestBuffer(100, -1, new ByteBudget(1 << 20));
  assert.is(b.push(bytes(60)), 'kept');
  assert.is(b.push(bytes(41)), 'full');
  assert.is(b.received, 60);
});

test('memory is taken from the shared budget before it is allocated: by doubling from 4 KiB, never past a declared length', () => {
  const budget = new ByteBudget(1 << 20);
  const known = new RequestBuffer(64 * 1024, 200, budget);
  known.push(bytes(1));
  assert.is(budget.held, 200, 'the declared length, not 4 KiB or the limit');
  const unknown = new RequestBuffer(64 * 1024, -1, budget);
  unknown.push(bytes(1));
  assert.is(budget.held, 200 + 4096, 'one byte of a chunked body holds 4 KiB, not the limit');
  unknown.push(bytes(5000));
  assert.is(budget.held, 200 + 8192);
  known.release();
  unknown.release();
  assert.is(budget.held, 0);
});

test('when the budget has no room the chunk is refused and nothing more is taken', () => {
  const budget = new ByteBudget(4500);
  const a = new RequestBuffer(64 * 1024, 5000, budget);
  assert.is(a.push(bytes(10)), 'kept');
  const b = new RequestBuffer(64 * 1024, 5000, budget);
  assert.is(b.push(bytes(10)), 'refused');
  assert.is(budget.held, 4096);
  b.release();
  assert.is(budget.held, 4096);
  assert.is(a.push(bytes(4500)), 'refused', 'growing to the declared 5,000 would pass the budget');
});

test('an empty body is an empty buffer', () => {
  assert.is(new RequestBuffer(10, -1, new ByteBudget(10)).bytes().byteLength, 0);
});

test.run();
