import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fuzzyMatch, rankByQuery } from '../../../../ui/src/shell/fuzzy-match.js';

test('a match is the query\'s characters in order, case and spaces ignored; else null', () => {
  assert.ok(fuzzyMatch('ovw', 'Overview'));
  assert.ok(fuzzyMatch('OVER view', 'Overview'));
  assert.is(fuzzyMatch('wvo', 'Overview'), null);
  assert.is(fuzzyMatch('overviews', 'Overview'), null);
  assert.equal(fuzzyMatch('', 'Overview'), { score: 0, positions: [] });
});

test('positions point at the characters that matched, preferring word starts', () => {
  const m = fuzzyMatch('uc', 'Usage and cost')!;
  assert.equal(m.positions, [0, 10], 'the c of "cost", a word start, not the nearer letters inside words');
  const text = 'Switch to the dark theme';
  const d = fuzzyMatch('dt', text)!;
  assert.equal(d.positions.map((i) => text[i]).join(''), 'dt');
  assert.equal(d.positions, [14, 19]);
});

test('word starts and runs outscore scattered letters; a prefix beats a match inside', () => {
  assert.ok(fuzzyMatch('ov', 'Overview')!.score > fuzzyMatch('ov', 'Show overview')!.score);
  assert.ok(fuzzyMatch('req', 'Requests')!.score > fuzzyMatch('req', 'Reduce effects query')!.score);
  assert.ok(fuzzyMatch('set', 'Settings')!.score > fuzzyMatch('set', 'Show keyboard shortcuts')!.score);
});

test('rankByQuery orders by score, keeps ties in order, and matches keywords at a lower weight', () => {
  const items = [
    { title: 'Overview', keywords: ['latency', 'p99'] },
    { title: 'Usage and cost', keywords: ['billing', 'csv'] },
    { title: 'Requests', keywords: ['inspector'] },
    { title: 'Settings', keywords: ['theme', 'dark'] },
  ];
  const titleOf = (i: (typeof items)[number]) => i.title;
  const keywordsOf = (i: (typeof items)[number]) => i.keywords;
  assert.equal(rankByQuery('bill', items, titleOf, keywordsOf).map((r) => r.item.title), ['Usage and cost']);
  assert.equal(rankByQuery('p99', items, titleOf, keywordsOf).map((r) => r.item.title), ['Overview']);
  const theme = rankByQuery('dark', items, titleOf, keywordsOf);
  assert.equal(theme.map((r) => r.item.title), ['Settings']);
  assert.equal(theme[0].positions, [], 'a keyword match highlights nothing in the title');
  const s = rankByQuery('s', items, titleOf, keywordsOf).map((r) => r.item.title);
  assert.is(s[0], 'Settings', 'the title that starts with the letter first');
  assert.is(rankByQuery('zzz', items, titleOf, keywordsOf).length, 0);
});

test('long texts are matched within bounds (no blow-up on a pasted paragraph)', () => {
  const long = 'a'.repeat(10_000);
  assert.ok(fuzzyMatch('aaa', long));
  assert.is(fuzzyMatch('b', long), null);
});

test.run();
