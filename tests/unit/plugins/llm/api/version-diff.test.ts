// The diffs of prompt versions as the routes answer them: the diff, or "too different to show inline" with the reason
// and both texts' paths; remembered per version pair (a repeat does no work), within a bounded cache.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DIFF_LIMITS } from '../../../../../plugins/llm/api/unified-diff.js';
import { VersionDiffs, type VersionText } from '../../../../../plugins/llm/api/version-diff.js';

const textPath = (v: number) => `/texts/${v}`;
const side = (version: number, text: string): VersionText => ({ version, hash: `h-${text.length}-${version}`, text });

test('a diff, or too_large with the reason, a message that says to download both, and both paths', () => {
  const diffs = new VersionDiffs();
  const small = diffs.answer('p', 'greet', side(1, 'hi'), side(2, 'hello'), textPath);
  assert.equal(small, { diff: '--- greet v1\n+++ greet v2\n@@ -1 +1 @@\n-hi\n+hello\n', too_large: false, diff_omitted: null });
  const lines = (prefix: string) => Array.from({ length: DIFF_LIMITS.maxEdits }, (_, i) => `${prefix}${i}`).join('\n');
  const big = diffs.answer('p', 'greet', side(3, lines('a')), side(4, lines('b')), textPath);
  assert.is(big.diff, null);
  assert.is(big.too_large, true);
  assert.equal(big.diff_omitted, {
    code: 'VIGIL_ERR_LLM_DIFF_TOO_LARGE', reason: 'edits',
    message: 'v3 and v4 of "greet" are too different to show inline (more than 1,000 lines changed): download both and compare them locally',
    downloads: { from: '/texts/3', to: '/texts/4' },
  });
  const long = diffs.answer('p', 'greet', side(5, 'x'.repeat(DIFF_LIMITS.maxChars + 1)), side(6, 'y'), textPath);
  assert.is(long.diff_omitted?.reason, 'size');
  assert.match(long.diff_omitted!.message, /a text is longer than 300,000 characters/);
});

test('a repeated pair is answered from memory: a diff that would cost work costs none', () => {
  const limits = { ...DIFF_LIMITS };
  const diffs = new VersionDiffs(limits);
  const a = side(1, 'one\ntwo\nthree');
  const b = side(2, 'one\n2\nthree');
  const first = diffs.answer('p', 't', a, b, textPath);
  // With no work allowed at all, only the cache can still answer with the diff.
  limits.maxWork = 0;
  assert.equal(diffs.answer('p', 't', a, b, textPath), first);
  // Another project, or another hash (a version made again after its deletion), is another pair.
  assert.is(diffs.answer('q', 't', a, b, textPath).too_large, true);
  assert.is(diffs.answer('p', 't', a, { ...b, hash: 'other' }, textPath).too_large, true);
});

test('the cache keeps the most recently used 256 pairs', () => {
  const limits = { ...DIFF_LIMITS };
  const diffs = new VersionDiffs(limits);
  const pair = (i: number): [VersionText, VersionText] => [side(i, `a${i}`), side(i + 1, `b${i}`)];
  for (let i = 0; i < 300; i++) diffs.answer('p', 't', ...pair(i), textPath);
  // 44 to 299 are kept; 50 is used again, and 40 more pairs push out the 40 least recently used: 44 to 84 but 50.
  diffs.answer('p', 't', ...pair(50), textPath);
  for (let i = 300; i < 340; i++) diffs.answer('p', 't', ...pair(i), textPath);
  limits.maxWork = 0;
  const cached = (i: number) => !diffs.answer('p', 't', ...pair(i), textPath).too_large;
  assert.is(cached(50), true, 'one used again is kept');
  assert.is(cached(339), true, 'the newest is kept');
  assert.is(cached(85), true);
  assert.is(cached(84), false, 'the least recently used are gone');
  assert.is(cached(51), false);
});

test.run();
