import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VigilError } from '@vigil/plugin-sdk';
import { errorText, JobsError, JobsErrors, positive } from '../../../../runtime/jobs/errors.js';

test('positive accepts positive numbers, falls back on undefined, refuses the rest with the option named', () => {
  assert.is(positive(5, 'x', 1), 5);
  assert.is(positive(undefined, 'x', 7), 7);
  for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5', null]) {
    try {
      positive(bad, 'pollMs of queue "q"', 1);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, JobsError);
      assert.instance(err, VigilError);
      assert.is((err as JobsError).code, JobsErrors.OPTION);
      assert.match((err as Error).message, /pollMs of queue "q"/);
    }
  }
});

test('errorText keeps the code and message, bounds the length, and copes with non-errors', () => {
  assert.is(errorText(new Error('plain')), 'plain');
  assert.is(errorText(Object.assign(new Error('m'), { code: 'E_X' })), 'E_X: m');
  assert.is(errorText('a string'), 'a string');
  assert.is(errorText(new Error('x'.repeat(5000))).length, 2001);
  assert.is(errorText(new TypeError('')), 'TypeError');
});

test.run();
