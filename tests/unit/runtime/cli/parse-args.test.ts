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

test('a repeatable flag keeps every value in order; the others keep the last', () => {
  const withHeader = { ...flags, header: { type: 'string' as const, summary: '', repeatable: true } };
  const args = parseArgs(['--header', 'A: 1', '-config', 'a.yaml', '--header=B: 2', '-config', 'b.yaml'], withHeader);
  assert.equal(args.lists, { header: ['A: 1', 'B: 2'] });
  assert.equal(args.flags, { header: 'B: 2', config: 'b.yaml' });
  assert.is(parseArgs(['-config', 'a.yaml'], withHeader).lists, undefined);
});

test.run();
