import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  escapeHelp, escapeLabelValue, familyHeader, formatLabelPairs, formatValue, sampleLine,
} from '../../../../runtime/metrics/text-format.js';

test('formatValue spells infinities and NaN the Prometheus way', () => {
  assert.is(formatValue(Infinity), '+Inf');
  assert.is(formatValue(-Infinity), '-Inf');
  assert.is(formatValue(NaN), 'NaN');
  assert.is(formatValue(0.25), '0.25');
  assert.is(formatValue(-3), '-3');
  assert.is(formatValue(1e21), '1e+21');
});

test('escapes: help escapes backslash and newline; label values also the double quote', () => {
  assert.is(escapeHelp('a\\b\n"c"'), 'a\\\\b\\n"c"');
  assert.is(escapeLabelValue('a\\b\n"c"'), 'a\\\\b\\n\\"c\\"');
  assert.is(escapeLabelValue('plain é ✓'), 'plain é ✓');
});

test('label pairs and sample lines', () => {
  assert.is(formatLabelPairs(['a', 'b'], ['1', 'x"y']), 'a="1",b="x\\"y"');
  assert.is(formatLabelPairs([], []), '');
  assert.is(sampleLine('m', '', 1), 'm 1\n');
  assert.is(sampleLine('m', 'a="1"', 2), 'm{a="1"} 2\n');
  assert.is(familyHeader('m', 'Help\nme', 'gauge'), '# HELP m Help\\nme\n# TYPE m gauge\n');
});

test.run();
