import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ByteBudget } from '@vigil/plugin-sdk';

test('takes up to the limit and refuses what would pass it, taking nothing then', () => {
  const b = new ByteBudget(100);
  assert.ok(b.take(60));
  assert.not.ok(b.take(41));
  assert.is(b.held, 60);
  assert.ok(b.take(40));
  assert.is(b.held, 100);
  assert.not.ok(b.take(1));
  assert.ok(b.take(0));
});

test('what is given back can be taken again; the count never goes below zero', () => {
  const b = new ByteBudget(10);
  assert.ok(b.take(10));
  b.give(4);
  assert.ok(b.take(4));
  assert.not.ok(b.take(1));
  b.give(50);
  assert.is(b.held, 0);
  assert.not.ok(b.take(11));
});

test.run();
