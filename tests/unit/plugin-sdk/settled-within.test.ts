import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { settledWithin } from '@vigil/plugin-sdk';

const after = (ms: number, fail = false) => new Promise((resolve, reject) => setTimeout(() => (fail ? reject(new Error('x')) : resolve(1)), ms));

test('true when the promise settles in time, a rejection included', async () => {
  assert.is(await settledWithin(after(5), 1000), true);
  assert.is(await settledWithin(after(5, true), 1000), true);
});

test('false when it has not settled after ms', async () => {
  assert.is(await settledWithin(new Promise(() => {}), 30), false);
});

test.run();
