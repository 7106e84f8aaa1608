import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseByteSize, parseDuration, tryParseByteSize, tryParseDuration } from '../../../../runtime/config/units.js';

test('durations in each unit, in milliseconds', () => {
  assert.is(parseDuration('500ms'), 500);
  assert.is(parseDuration('30s'), 30_000);
  assert.is(parseDuration('10m'), 600_000);
  assert.is(parseDuration('2h'), 7_200_000);
  assert.is(parseDuration('7d'), 604_800_000);
});

test('a bare number, as a string or a number, is milliseconds', () => {
  assert.is(parseDuration(250), 250);
  assert.is(parseDuration('250'), 250);
  assert.is(parseDuration(0), 0);
});

test('compound and fractional durations', () => {
  assert.is(parseDuration('1h30m'), 5_400_000);
  assert.is(parseDuration('1.5s'), 1500);
  assert.is(parseDuration(' 2m '), 120_000);
});

test('bad durations throw', () => {
  for (const bad of ['', 'soon', '10x', '-5s', '5 s', '10M', 's', '1.2.3s', '10m5', true, null, {}, -1, Number.NaN, Infinity]) {
    assert.throws(() => parseDuration(bad), /invalid duration/, `expected ${JSON.stringify(bad)} to be rejected`);
    assert.is(tryParseDuration(bad), undefined);
  }
});

test('byte sizes are binary: 1kb = 1024', () => {
  assert.is(parseByteSize('512'), 512);
  assert.is(parseByteSize(512), 512);
  assert.is(parseByteSize('64kb'), 65_536);
  assert.is(parseByteSize('1mb'), 1_048_576);
  assert.is(parseByteSize('1MiB'), 1_048_576);
  assert.is(parseByteSize('1MB'), 1_048_576);
  assert.is(parseByteSize('2gb'), 2_147_483_648);
  assert.is(parseByteSize('1tb'), 1024 ** 4);
  assert.is(parseByteSize('10b'), 10);
  assert.is(parseByteSize('8k'), 8192);
});

test('fractional sizes round down to whole bytes', () => {
  assert.is(parseByteSize('1.5kb'), 1536);
  assert.is(parseByteSize('0.1kb'), 102);
});

test('bad sizes throw', () => {
  for (const bad of ['', 'big', '1pb', '-1kb', '1 k b', 'kb', '1kbb', false, null, [], -5, Number.NaN]) {
    assert.throws(() => parseByteSize(bad), /invalid byte size/, `expected ${JSON.stringify(bad)} to be rejected`);
    assert.is(tryParseByteSize(bad), undefined);
  }
});

test.run();
