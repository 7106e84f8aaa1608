import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseUnifiedDiff } from '../../../../../ui/src/areas/llm/diff-lines.js';

test('a unified diff becomes numbered lines of each kind, with the counts', () => {
  const diff = '--- support v2\n+++ support v3\n@@ -1,3 +1,4 @@\n-You are a support agent.\n+You are a senior support agent.\n Answer {{question}}.\n Be brief.\n+Sign as Acme.\n';
  const { lines, added, removed } = parseUnifiedDiff(diff);
  assert.is(added, 2);
  assert.is(removed, 1);
  assert.equal(lines.map((l) => [l.kind, l.text, l.old, l.new]), [
    ['from', 'support v2', undefined, undefined],
    ['to', 'support v3', undefined, undefined],
    ['hunk', '@@ -1,3 +1,4 @@', undefined, undefined],
    ['del', 'You are a support agent.', 1, undefined],
    ['add', 'You are a senior support agent.', undefined, 1],
    ['context', 'Answer {{question}}.', 2, 2],
    ['context', 'Be brief.', 3, 3],
    ['add', 'Sign as Acme.', undefined, 4],
  ]);
});

test('hunks further down number from their header; a side that was empty counts from 1', () => {
  const { lines } = parseUnifiedDiff('--- a\n+++ b\n@@ -10,2 +12,2 @@\n x\n-y\n+z\n@@ -0,0 +1 @@\n+first\n');
  assert.equal(lines.filter((l) => l.kind !== 'hunk' && l.kind !== 'from' && l.kind !== 'to').map((l) => [l.kind, l.old, l.new]),
    [['context', 10, 12], ['del', 11, undefined], ['add', undefined, 13], ['add', undefined, 1]]);
});

test('equal texts have no lines; a line that starts with the markers\' characters is read by its prefix only', () => {
  assert.equal(parseUnifiedDiff(''), { lines: [], added: 0, removed: 0 });
  const { lines } = parseUnifiedDiff('--- a\n+++ b\n@@ -1 +1 @@\n---- rule\n++++ rule\n');
  assert.equal(lines.slice(3).map((l) => [l.kind, l.text]), [['del', '--- rule'], ['add', '+++ rule']]);
});

test.run();
