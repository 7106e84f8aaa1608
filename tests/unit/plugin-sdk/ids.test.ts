// plugin-sdk/src/ids.ts: UUIDv7 layout (RFC 9562) and ordering.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { uuidv7 } from '@vigil/plugin-sdk';

const SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('ids have the version 7 layout and carry their millisecond in the first 48 bits', () => {
  const ms = Date.UTC(2026, 10, 22, 12, 34, 56, 789);
  const id = uuidv7(ms);
  assert.match(id, SHAPE);
  assert.is(parseInt(id.slice(0, 8) + id.slice(9, 13), 16), ms);
});

test('ids from one process strictly increase, within a millisecond and past 4,096 of them', () => {
  const ms = Date.UTC(2026, 10, 22, 13, 0, 0, 0);
  const ids = Array.from({ length: 10_000 }, () => uuidv7(ms));
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1] < ids[i], `${ids[i - 1]} < ${ids[i]}`);
  assert.is(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, SHAPE);
  // The counter ran out twice, so the last ids borrowed the next milliseconds.
  assert.is(parseInt(ids[ids.length - 1].slice(0, 8) + ids[ids.length - 1].slice(9, 13), 16), ms + 2);
});

test('a clock that steps back never produces a smaller id', () => {
  const later = uuidv7(Date.UTC(2026, 10, 22, 14, 0, 0, 0));
  const earlier = uuidv7(Date.UTC(2026, 10, 22, 13, 59, 0, 0));
  assert.ok(later < earlier);
});

test('the random tail differs between ids', () => {
  const tails = new Set(Array.from({ length: 1000 }, () => uuidv7().slice(19)));
  assert.ok(tails.size > 990);
});

test.run();
