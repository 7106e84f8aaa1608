import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { csvCell } from '@vigil/plugin-sdk';

test('texts a spreadsheet would run as a formula get an apostrophe; numbers never do', () => {
  for (const s of ['=SUM(A1)', '+1', '-2+3', '@cmd', '\tx', '\rx']) assert.is(csvCell(s), `"'${s}"`);
  assert.is(csvCell(-2.5), '"-2.5"');
  assert.is(csvCell('starter'), '"starter"');
});

test('quotes are doubled, and null is an empty field', () => {
  assert.is(csvCell('say "hi", then go'), '"say ""hi"", then go"');
  assert.is(csvCell(null), '""');
  assert.is(csvCell('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
  assert.is(csvCell('line\nbreak'), '"line\nbreak"', 'a line break stays inside the quotes');
  assert.is(csvCell(0.003), '"0.003"');
});

test.run();
