import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeLines } from '../../../../../ui/src/areas/host/log-window.js';

test('a first answer, oldest first, shows newest first', () => {
  assert.equal(mergeLines([], [1, 2, 3], true), [3, 2, 1]);
});

test('newer lines go on top of what is shown; a fresh answer replaces it', () => {
  assert.equal(mergeLines([3, 2, 1], [4, 5], false), [5, 4, 3, 2, 1]);
  assert.equal(mergeLines([3, 2, 1], [9], true), [9]);
  assert.equal(mergeLines([3, 2, 1], [], false), [3, 2, 1]);
});

test('the oldest fall off past the bound', () => {
  assert.equal(mergeLines([3, 2, 1], [4, 5], false, 4), [5, 4, 3, 2]);
});

test.run();
