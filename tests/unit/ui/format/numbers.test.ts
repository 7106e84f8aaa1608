import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatCompact, formatInteger, formatLatency, formatMoney, formatPercent, formatRate, formatUptime } from '../../../../ui/src/format/numbers.js';

test('formatInteger groups thousands and rounds', () => {
  assert.is(formatInteger(0), '0');
  assert.is(formatInteger(12345), '12,345');
  assert.is(formatInteger(999.6), '1,000');
});

test('formatCompact keeps at most three significant digits and never shows 1000k', () => {
  assert.is(formatCompact(950), '950');
  assert.is(formatCompact(1000), '1k');
  assert.is(formatCompact(1234), '1.23k');
  assert.is(formatCompact(12_345), '12.3k');
  assert.is(formatCompact(123_456), '123k');
  assert.is(formatCompact(999_999), '1M');
  assert.is(formatCompact(1_660_000), '1.66M');
  assert.is(formatCompact(2_500_000_000), '2.5B');
  assert.is(formatCompact(-12_345), '-12.3k');
});

test('formatPercent: the precision a ratio needs; a rare error never reads as none', () => {
  assert.is(formatPercent(0), '0%');
  assert.is(formatPercent(0.04), '4%');
  assert.is(formatPercent(0.0412), '4.12%');
  assert.is(formatPercent(3 / 70), '4.29%');
  assert.is(formatPercent(0.125), '12.5%');
  assert.is(formatPercent(1), '100%');
  assert.is(formatPercent(0.0004), '0.04%');
  assert.is(formatPercent(0.000001), '<0.01%');
  assert.is(formatPercent(Number.NaN), '—');
});

test('formatLatency from sub-millisecond to minutes; no data is a dash, not 0', () => {
  assert.is(formatLatency(null), '—');
  assert.is(formatLatency(undefined), '—');
  assert.is(formatLatency(0.42), '0.42 ms');
  assert.is(formatLatency(4.5), '4.5 ms');
  assert.is(formatLatency(12.3), '12 ms');
  assert.is(formatLatency(999.4), '999 ms');
  assert.is(formatLatency(1500), '1.5 s');
  assert.is(formatLatency(12_340), '12.3 s');
  assert.is(formatLatency(60_000), '1 min');
  assert.is(formatLatency(125_000), '2 min 5 s');
});

test('formatUptime gives the two largest units', () => {
  assert.is(formatUptime(0), '0 s');
  assert.is(formatUptime(45.9), '45 s');
  assert.is(formatUptime(725), '12 min 5 s');
  assert.is(formatUptime(3 * 3600 + 4 * 60 + 59), '3 h 4 min');
  assert.is(formatUptime(2 * 86_400 + 5 * 3600), '2 d 5 h');
  assert.is(formatUptime(86_400), '1 d');
  assert.is(formatUptime(-5), '0 s');
});

test('formatMoney shows cents, and more below one unit; an unknown currency code still prints', () => {
  assert.is(formatMoney(12.5, 'EUR'), '€12.50');
  assert.is(formatMoney(0.0021, 'USD'), '$0.0021');
  assert.is(formatMoney(0, 'USD'), '$0.00');
  assert.match(formatMoney(3, 'not a code'), /^3\.00 not a code$/);
});

test('formatRate: a quiet range reads per hour, never as 0 a minute', () => {
  assert.is(formatRate(14.2), '14 a minute');
  assert.is(formatRate(1), '1 a minute');
  assert.is(formatRate(1500), '1.5k a minute');
  assert.is(formatRate(308 / 1440), '13 an hour');
  assert.is(formatRate(1 / 60), '1 an hour');
  assert.is(formatRate(1 / 600), 'under 1 an hour');
  assert.is(formatRate(0), '0 a minute');
});

test.run();
