import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { missingFlags, RUN_V8_FLAGS } from '../../../../runtime/cli/v8-flags.js';

const wanted = ['--max-semi-space-size=64', '--stack-size=2000'];

test('a flag is missing when neither the command line nor NODE_OPTIONS names it', () => {
  assert.equal(missingFlags(wanted, []), wanted);
  assert.equal(missingFlags(wanted, ['--no-node-snapshot'], '--enable-source-maps'), wanted);
});

test('a flag named with any value, in either place, is the operator\'s', () => {
  assert.equal(missingFlags(wanted, ['--max-semi-space-size=16']), ['--stack-size=2000']);
  assert.equal(missingFlags(wanted, [], '--stack-size=900  --max-semi-space-size=8'), []);
});

test('V8 spells a flag with _ or -: both count', () => {
  assert.equal(missingFlags(wanted, ['--max_semi_space_size=32'], '--stack_size=1'), []);
});

test('by default: vigil run\'s flags against this process', () => {
  assert.equal(missingFlags(), missingFlags(RUN_V8_FLAGS, process.execArgv, process.env.NODE_OPTIONS ?? ''));
});

test.run();
