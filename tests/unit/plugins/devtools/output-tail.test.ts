import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OutputTail } from '../../../../plugins/devtools/output-tail.js';

test('lines are kept as they complete; an unfinished one waits for its end or the flush', () => {
  const out = new OutputTail(1024);
  out.append('one\ntw');
  assert.equal(out.since(0, 10).lines, ['one']);
  out.append('o\r\nthree');
  assert.equal(out.since(0, 10).lines, ['one', 'two']);
  out.flush();
  assert.equal(out.since(1, 10), { from: 1, lines: ['two', 'three'] });
  assert.is(out.next, 3);
});

test('the cap keeps the newest lines and counts what it dropped; indexes keep counting from the start', () => {
  const out = new OutputTail(100);
  for (let i = 0; i < 5000; i++) out.append(`line ${i}\n`);
  assert.is(out.totalBytes, Array.from({ length: 5000 }, (_, i) => `line ${i}\n`.length).reduce((a, b) => a + b));
  assert.ok(out.keptBytes <= 100, `kept ${out.keptBytes}`);
  assert.is(out.keptBytes + out.droppedBytes, out.totalBytes);
  assert.is(out.next, 5000);
  const page = out.since(0, 1000);
  assert.is(page.from, out.first, 'a reader behind the cap starts at the oldest kept line');
  assert.is(page.lines[page.lines.length - 1], 'line 4999');
  assert.is(page.lines[0], `line ${out.first}`);
  assert.match(out.tail(30), /line 4998\nline 4999$/);
});

test('colours are stripped, a redrawn progress line keeps what it last drew, a huge line is cut', () => {
  const out = new OutputTail(1 << 20);
  out.append('\x1b[32mok\x1b[0m \x1b]8;;https://x\x07link\x1b]8;;\x07\n');
  out.append('  10%\r  50%\r 100%\n');
  out.append(`${'x'.repeat(10_000)}\n`);
  const { lines } = out.since(0, 10);
  assert.equal(lines.slice(0, 2), ['ok link', ' 100%']);
  assert.is(lines[2].length, 4096);
  assert.ok(lines[2].endsWith('…'));
});

test.run();
