import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseArgs, UsageError } from '../../../../runtime/cli/parse-args.js';

const flags = { config: { type: 'string' as const, summary: '' }, verbose: { type: 'boolean' as const, summary: '' } };

test('one dash, two dashes and = forms', () => {
  assert.equal(parseArgs(['-config', 'a.yaml'], flags).flags, { config: 'a.yaml' });
  assert.equal(parseArgs(['--config', 'a.yaml'], flags).flags, { config: 'a.yaml' });
  assert.equal(parseArgs(['--config=a=b.yaml'], flags).flags, { config: 'a=b.yaml' });
  assert.equal(parseArgs(['-verbose', 'x', '--', '-config'], flags), { flags: { verbose: true }, positionals: ['x', '-config'] });
});

test('unknown flags and missing values are usage errors', () => {
  assert.throws(() => parseArgs(['-confg', 'a'], flags), (e: Error) => e instanceof UsageError && /unknown flag -confg/.test(e.message));
  assert.throws(() => parseArgs(['-config'], flags), /needs a value/);
  assert.throws(() => parseArgs(['-verbose=maybe'], flags), /true or false/);
});

test.run();
