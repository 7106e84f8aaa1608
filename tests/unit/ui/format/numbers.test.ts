import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  countFormat, formatBinEdge, formatCompact, formatCount, formatInteger, formatLatency, formatMoney, formatPercent, formatRate, formatUptime, moneyDigits, moneyFormat,
} from '../../../../ui/src/format/numbers.js';

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
  assert.is(formatLatency(0.42), '0.42\u00a0ms');
  assert.is(formatLatency(4.5), '4.5\u00a0ms');
  assert.is(formatLatency(12.3), '12\u00a0ms');
  assert.is(formatLatency(999.4), '999\u00a0ms');
  assert.is(formatLatency(1500), '1.5\u00a0s');
  assert.is(formatLatency(12_340), '12.3\u00a0s');
  assert.is(formatLatency(60_000), '1\u00a0min');
  assert.is(formatLatency(125_000), '2\u00a0min 5\u00a0s');
});

test('formatUptime gives the two largest units', () => {
  assert.is(formatUptime(0), '0\u00a0s');
  assert.is(formatUptime(45.9), '45\u00a0s');
  assert.is(formatUptime(725), '12\u00a0min 5\u00a0s');
  assert.is(formatUptime(3 * 3600 + 4 * 60 + 59), '3\u00a0h 4\u00a0min');
  assert.is(formatUptime(2 * 86_400 + 5 * 3600), '2\u00a0d 5\u00a0h');
  assert.is(formatUptime(86_400), '1\u00a0d');
  assert.is(formatUptime(-5), '0\u00a0s');
});

test('formatMoney shows cents, and more below one unit; an unknown currency code still prints', () => {
  assert.is(formatMoney(12.5, 'EUR'), '€12.50');
  assert.is(formatMoney(0.0021, 'USD'), '$0.0021');
  assert.is(formatMoney(0, 'USD'), '$0.00');
  assert.match(formatMoney(3, 'not a code'), /^3\.00\u00a0not a code$/);
});

test('formatRate: a quiet range reads per hour, never as 0 a minute', () => {
  assert.is(formatRate(14.2), '14\u00a0a minute');
  assert.is(formatRate(1), '1\u00a0a minute');
  assert.is(formatRate(1500), '1,500\u00a0a minute');
  assert.is(formatRate(15_000), '15k\u00a0a minute');
  assert.is(formatRate(308 / 1440), '13\u00a0an hour');
  assert.is(formatRate(1 / 60), '1\u00a0an hour');
  assert.is(formatRate(1 / 600), 'under 1\u00a0an hour');
  assert.is(formatRate(0), '0\u00a0a minute');
});

test('a unit never starts a line of its own: the space before it does not break', () => {
  for (const text of [formatLatency(12), formatLatency(1500), formatLatency(125_000), formatUptime(725), formatRate(14)]) {
    assert.not.match(text, / (ms|s|min|h|d|a minute)\b/, text);
  }
});

test('counts: in full below 10,000, compact from there; a column takes one style from its largest value', () => {
  assert.is(formatCount(1079), '1,079');
  assert.is(formatCount(9999), '9,999');
  assert.is(formatCount(10_000), '10k');
  assert.is(formatCount(16_400), '16.4k');
  const small = countFormat([1079, 1640, 3]);
  assert.equal([small(1079), small(1640), small(3)], ['1,079', '1,640', '3']);
  const large = countFormat([1079, 16_400]);
  assert.equal([large(1079), large(16_400), large(3)], ['1.08k', '16.4k', '3']);
  assert.is(countFormat([])(5), '5');
});

test('money in a column: the same decimals on every row, from the currency and the smallest amount', () => {
  assert.is(moneyDigits([12.5, 3], 'USD'), 2);
  assert.is(moneyDigits([0, 1200], 'JPY'), 0);
  assert.is(moneyDigits([0.021, 4.1], 'USD'), 3);
  assert.is(moneyDigits([0.02, 0.12, 0.27], 'EUR'), 2, 'exact in cents: no trailing zero');
  assert.is(moneyDigits([0.0252], 'USD'), 3, 'two significant digits');
  assert.is(moneyDigits([0.00097, 0.0042], 'USD'), 5);
  assert.is(moneyDigits([1e-9], 'USD'), 6, 'at most six');
  assert.is(moneyDigits([], 'EUR'), 2);
  const usd = moneyFormat([0.00097, 0.0042, 1.5], 'USD');
  assert.equal([usd(0.00097), usd(0.0042), usd(1.5), usd(0)], ['$0.00097', '$0.00420', '$1.50000', '$0.00000']);
  const eur = moneyFormat([12.5, 3], 'EUR');
  assert.equal([eur(12.5), eur(3), eur(1234.5)], ['€12.50', '€3.00', '€1,234.50']);
  assert.is(moneyFormat([3], 'not a code')(3), '3.00\u00a0not a code');
});

test('histogram edges: as many decimals as the bin width needs, the same for every edge', () => {
  assert.equal([0, 1, 5, 9, 10].map((i) => formatBinEdge(i * 0.1, 0.1)), ['0', '0.1', '0.5', '0.9', '1']);
  assert.equal([0, 1, 3, 4].map((i) => formatBinEdge(i * 0.25, 0.25)), ['0', '0.25', '0.75', '1']);
  assert.equal([0, 1, 2].map((i) => formatBinEdge(i * 5, 5)), ['0', '5', '10']);
  assert.equal([0, 1].map((i) => formatBinEdge(i * 0.05, 0.05)), ['0', '0.05']);
});

test.run();
