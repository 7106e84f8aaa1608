import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { batteryTone, formatByteRate, formatBytes, formatCelsius, formatLoad, formatShare, limitTone, LIMITS, meterTone } from '../../../../../ui/src/areas/host/host-format.js';

const nb = (s: string): string => s.replace(/\u00a0/g, ' ');

test('formatBytes uses binary units with three significant digits', () => {
  assert.is(nb(formatBytes(0)), '0 B');
  assert.is(nb(formatBytes(512)), '512 B');
  assert.is(nb(formatBytes(1536)), '1.5 KiB');
  assert.is(nb(formatBytes(8_192_000_000)), '7.63 GiB');
  assert.is(nb(formatBytes(150 * 2 ** 20)), '150 MiB');
  assert.is(nb(formatBytes(2 ** 40)), '1 TiB');
});

test('formatBytes never prints 1024 of a unit, and says — for nothing', () => {
  assert.is(nb(formatBytes(1024 * 1024 - 10)), '1 MiB');
  assert.is(formatBytes(null), '—');
  assert.is(formatBytes(Number.NaN), '—');
});

test('formatByteRate adds a second and clamps a counter reset to zero', () => {
  assert.is(nb(formatByteRate(12_595)), '12.3 KiB/s');
  assert.is(nb(formatByteRate(-5)), '0 B/s');
  assert.is(formatByteRate(undefined), '—');
});

test('formatShare: one decimal below 10, whole above, a trace never reads as zero', () => {
  assert.is(formatShare(4.23), '4.2%');
  assert.is(formatShare(42.6), '43%');
  assert.is(formatShare(0), '0%');
  assert.is(formatShare(0.04), '<0.1%');
  assert.is(formatShare(100), '100%');
  assert.is(formatShare(null), '—');
});

test('formatCelsius and formatLoad', () => {
  assert.is(nb(formatCelsius(54.4)), '54 °C');
  assert.is(formatCelsius(null), '—');
  assert.is(formatLoad(0.4), '0.40');
});

test('limitTone follows the limits, inclusive, and is neutral without a value', () => {
  assert.is(limitTone(50, LIMITS.memory), 'neutral');
  assert.is(meterTone(50, LIMITS.memory), 'accent');
  assert.is(meterTone(96, LIMITS.memory), 'danger');
  assert.is(limitTone(85, LIMITS.memory), 'warning');
  assert.is(limitTone(95, LIMITS.memory), 'danger');
  assert.is(limitTone(89.9, LIMITS.disk), 'warning');
  assert.is(limitTone(null, LIMITS.cpu), 'neutral');
});

test('batteryTone: low only while unplugged', () => {
  assert.is(batteryTone(10, true), 'success');
  assert.is(batteryTone(15, false), 'danger');
  assert.is(batteryTone(20, false), 'warning');
  assert.is(batteryTone(80, false), 'neutral');
});

test.run();
