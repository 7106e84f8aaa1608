import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { unifiedDiff } from '../../../../plugins/llm/api/unified-diff.js';

const names = { from: 'a', to: 'b' };

test('equal texts have no diff; a changed line is one hunk with its context', () => {
  assert.is(unifiedDiff('x\ny', 'x\ny', names), '');
  assert.is(unifiedDiff('a\nb\nc', 'a\nB\nc', names), '--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
});

test('far-apart changes make separate hunks, near ones one hunk, as diff -u prints them', () => {
  const lines = Array.from({ length: 30 }, (_, i) => `l${i}`);
  const changed = lines.map((l, i) => (i === 3 ? 'X' : i === 25 ? 'Y' : l));
  const diff = unifiedDiff(lines.join('\n'), changed.join('\n'), names);
  assert.equal(diff.split('\n').filter((l) => l.startsWith('@@')), ['@@ -1,7 +1,7 @@', '@@ -23,7 +23,7 @@']);
  const near = lines.map((l, i) => (i === 3 || i === 8 ? 'Z' : l));
  assert.equal(unifiedDiff(lines.join('\n'), near.join('\n'), names).split('\n').filter((l) => l.startsWith('@@')), ['@@ -1,12 +1,12 @@']);
});

test('from and to nothing; insertions and removals at both ends', () => {
  assert.is(unifiedDiff('', 'x\ny', names), '--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n');
  assert.is(unifiedDiff('x', '', names), '--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n');
  assert.is(unifiedDiff('one\ntwo\nthree\nfour', 'zero\none\nthree\nfour\nfive', names),
    '--- a\n+++ b\n@@ -1,4 +1,5 @@\n+zero\n one\n-two\n three\n four\n+five\n');
});

test('large texts with few changes diff quickly (memory grows with the changes)', () => {
  const big = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
  const edited = [...big.slice(0, 10_000), 'inserted', ...big.slice(10_000)];
  const started = performance.now();
  assert.match(unifiedDiff(big.join('\n'), edited.join('\n'), names), /\+inserted/);
  assert.ok(performance.now() - started < 2000);
});

test.run();
