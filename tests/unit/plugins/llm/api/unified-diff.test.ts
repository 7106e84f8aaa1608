// The prompt-version diff: `diff -u` output, correct on random edits (the diff applied as a patch gives the target
// back, and its changes are as few as an exhaustive search finds), and bounded: texts too long or too different are
// answered `tooLarge` at once, never with a stall or a heap that grows with the product of the lengths.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lineDiff } from '../../../../../plugins/llm/api/line-diff.js';
import { DIFF_LIMITS, unifiedDiff, type UnifiedDiff } from '../../../../../plugins/llm/api/unified-diff.js';

const names = { from: 'a', to: 'b' };

const textOf = (r: UnifiedDiff): string => {
  if (!('diff' in r)) throw new Error(`expected a diff, got tooLarge: ${r.tooLarge}`);
  return r.diff;
};

/** A small seeded generator (mulberry32), so that a failure names the seed that reproduces it. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Applies a unified diff to `source` as `patch` would, checking every context and removed line against it; throws
 * when the diff does not fit. Written apart from the diff's own code, from the format alone.
 */
function applyPatch(source: string, diff: string): string {
  if (diff === '') return source;
  const lines = diff.split('\n');
  assert.is(lines.pop(), '', 'a diff ends with a newline');
  assert.is(lines[0], `--- ${names.from}`);
  assert.is(lines[1], `+++ ${names.to}`);
  const src = source === '' ? [] : source.split('\n');
  const out: string[] = [];
  let at = 0;
  let i = 2;
  let hunk = 0;
  while (i < lines.length) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(lines[i]);
    if (!m) throw new Error(`line ${i}: not a hunk header: ${lines[i]}`);
    const oldCount = m[2] === undefined ? 1 : Number(m[2]);
    const newCount = m[4] === undefined ? 1 : Number(m[4]);
    const oldStart = oldCount === 0 ? Number(m[1]) : Number(m[1]) - 1;
    if (oldStart < at) throw new Error(`hunk at ${oldStart} overlaps the one before (at ${at})`);
    while (at < oldStart) out.push(src[at++]);
    assert.is(out.length, newCount === 0 ? Number(m[3]) : Number(m[3]) - 1, `hunk ${lines[i]} starts where the target is`);
    let seenOld = 0;
    let seenNew = 0;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i].startsWith('@@'); i++) {
      body.push(lines[i]);
      const [kind, text] = [lines[i][0], lines[i].slice(1)];
      if (kind === ' ' || kind === '-') {
        if (src[at] !== text) throw new Error(`line ${i}: ${JSON.stringify(text)} is not line ${at + 1} of the source`);
        at++;
        seenOld++;
      }
      if (kind === ' ' || kind === '+') { out.push(text); seenNew++; }
      if (kind !== ' ' && kind !== '-' && kind !== '+') throw new Error(`line ${i}: unknown kind ${JSON.stringify(kind)}`);
    }
    assert.is(seenOld, oldCount, 'old count of the hunk');
    assert.is(seenNew, newCount, 'new count of the hunk');
    // Three lines of context on each side, fewer only at either end of the text.
    const leading = body.findIndex((l) => l[0] !== ' ');
    let trailing = 0;
    while (body[body.length - 1 - trailing][0] === ' ') trailing++;
    assert.is(leading, hunk === 0 ? Math.min(3, oldStart + leading) : 3, 'leading context');
    const last = i >= lines.length;
    assert.is(trailing, last ? Math.min(3, src.length - (at - trailing)) : 3, 'trailing context');
    hunk++;
  }
  while (at < src.length) out.push(src[at++]);
  return out.join('\n');
}

/** The fewest lines removed plus added from `a` to `b`, by the textbook quadratic LCS table. */
function editDistance(a: readonly string[], b: readonly string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = [0];
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    prev = cur;
  }
  return a.length + b.length - 2 * prev[b.length];
}

const changedLines = (diff: string) => diff.split('\n').filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) /.test(l)).length;

test('equal texts have no diff; a changed line is one hunk with its context', () => {
  assert.is(textOf(unifiedDiff('x\ny', 'x\ny', names)), '');
  assert.is(textOf(unifiedDiff('a\nb\nc', 'a\nB\nc', names)), '--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
});

test('far-apart changes make separate hunks, near ones one hunk, as diff -u prints them', () => {
  const lines = Array.from({ length: 30 }, (_, i) => `l${i}`);
  const changed = lines.map((l, i) => (i === 3 ? 'X' : i === 25 ? 'Y' : l));
  const diff = textOf(unifiedDiff(lines.join('\n'), changed.join('\n'), names));
  assert.equal(diff.split('\n').filter((l) => l.startsWith('@@')), ['@@ -1,7 +1,7 @@', '@@ -23,7 +23,7 @@']);
  const near = lines.map((l, i) => (i === 3 || i === 8 ? 'Z' : l));
  assert.equal(textOf(unifiedDiff(lines.join('\n'), near.join('\n'), names)).split('\n').filter((l) => l.startsWith('@@')), ['@@ -1,12 +1,12 @@']);
});

test('from and to nothing; insertions and removals at both ends', () => {
  assert.is(textOf(unifiedDiff('', 'x\ny', names)), '--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n');
  assert.is(textOf(unifiedDiff('x', '', names)), '--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n');
  assert.is(textOf(unifiedDiff('one\ntwo\nthree\nfour', 'zero\none\nthree\nfour\nfive', names)),
    '--- a\n+++ b\n@@ -1,4 +1,5 @@\n+zero\n one\n-two\n three\n four\n+five\n');
});

test('a replaced block reads as its removals, then its additions', () => {
  assert.is(textOf(unifiedDiff('k\na\nb\nk', 'k\nc\nd\nk', names)), '--- a\n+++ b\n@@ -1,4 +1,4 @@\n k\n-a\n-b\n+c\n+d\n k\n');
});

test('random edits: the diff applied as a patch gives the target, with the fewest changed lines (2,000 cases)', () => {
  for (let seed = 1; seed <= 2000; seed++) {
    const r = random(seed);
    // Few distinct lines make many equal lines and many equally short scripts: the hard case for a diff.
    const alphabet = 1 + Math.floor(r() * 6);
    const line = () => `line ${Math.floor(r() * alphabet)}`;
    const a = Array.from({ length: Math.floor(r() * 40) }, line);
    const b = [...a];
    for (let edits = Math.floor(r() * 12); edits > 0; edits--) {
      const at = Math.floor(r() * (b.length + 1));
      const what = r();
      if (what < 0.4) b.splice(at, 0, line());
      else if (what < 0.8) b.splice(at, 1);
      else b.splice(at, 1, line());
    }
    const before = a.join('\n');
    const after = b.join('\n');
    const diff = textOf(unifiedDiff(before, after, names));
    assert.is(applyPatch(before, diff), after, `seed ${seed}`);
    assert.is(changedLines(diff), editDistance(a, b), `seed ${seed}: the script is minimal`);
  }
});

test('random texts with nothing in common, and the same lines shuffled: still exact and minimal', () => {
  for (let seed = 1; seed <= 300; seed++) {
    const r = random(seed * 7919);
    const a = Array.from({ length: Math.floor(r() * 60) }, () => String(Math.floor(r() * 4)));
    const b = seed % 2 ? Array.from({ length: Math.floor(r() * 60) }, () => String(4 + Math.floor(r() * 4))) : [...a].sort(() => r() - 0.5);
    const diff = textOf(unifiedDiff(a.join('\n'), b.join('\n'), names));
    assert.is(applyPatch(a.join('\n'), diff), b.join('\n'), `seed ${seed}`);
    assert.is(changedLines(diff), editDistance(a, b), `seed ${seed}`);
  }
});

test('random texts over "a", "b" and newlines (empty lines, newlines first and last): exact and minimal', () => {
  const linesOf = (t: string) => (t === '' ? [] : t.split('\n'));
  for (let seed = 1; seed <= 3000; seed++) {
    const r = random(seed * 104729);
    const text = () => Array.from({ length: Math.floor(r() * 24) }, () => 'ab\n'[Math.floor(r() * 3)]).join('');
    const before = text();
    // Half of the cases edit a few characters of the first text, so that heads and tails are shared.
    let after = text();
    if (seed % 2) {
      after = before;
      for (let e = 1 + Math.floor(r() * 3); e > 0; e--) {
        const at = Math.floor(r() * (after.length + 1));
        after = after.slice(0, at) + (r() < 0.5 ? 'ab\n'[Math.floor(r() * 3)] : '') + after.slice(at + 1);
      }
    }
    const diff = textOf(unifiedDiff(before, after, names));
    assert.is(applyPatch(before, diff), after, `seed ${seed}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
    assert.is(changedLines(diff), editDistance(linesOf(before), linesOf(after)), `seed ${seed}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
  }
});

test('large texts with a few changes are diffed in full: the common head and tail cost no search', () => {
  const big = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
  const edited = [...big.slice(0, 5_000), 'inserted', ...big.slice(5_000, 15_000), ...big.slice(15_001)];
  const diff = textOf(unifiedDiff(big.join('\n'), edited.join('\n'), names));
  assert.match(diff, /\n\+inserted\n/);
  assert.match(diff, /\n-line 15000\n/);
  assert.is(applyPatch(big.join('\n'), diff), edited.join('\n'));
});

test('two texts of about 256 KB that differ on every line are too different to show, whatever their lines', () => {
  const r = random(42);
  for (const width of [1, 8, 40, 200]) {
    const text = () => {
      const lines: string[] = [];
      for (let size = 0; size < 256 * 1024; size += width + 1) lines.push(Array.from({ length: width }, () => String.fromCharCode(33 + Math.floor(r() * 90))).join(''));
      return lines.join('\n');
    };
    const result = unifiedDiff(text(), text(), names);
    assert.ok('tooLarge' in result, `lines of ${width} characters: ${JSON.stringify(result).slice(0, 80)}`);
  }
});

test('each bound has its reason: a text too long, too many lines changed, too much work', () => {
  const long = 'x'.repeat(DIFF_LIMITS.maxChars + 1);
  assert.equal(unifiedDiff(long, 'x', names), { tooLarge: 'size' });
  assert.equal(unifiedDiff('x', long, names), { tooLarge: 'size' });
  // Lengths apart by more than maxEdits lines: no search needed.
  assert.equal(unifiedDiff('a', Array.from({ length: DIFF_LIMITS.maxEdits + 2 }, (_, i) => `n${i}`).join('\n'), names), { tooLarge: 'edits' });
  // Same length, every line replaced: the distance is 2 × lines.
  const n = DIFF_LIMITS.maxEdits / 2 + 1;
  assert.equal(unifiedDiff(Array.from({ length: n }, (_, i) => `a${i}`).join('\n'), Array.from({ length: n }, (_, i) => `b${i}`).join('\n'), names), { tooLarge: 'edits' });
  // Just under the distance bound, the diff is shown.
  const m = DIFF_LIMITS.maxEdits / 2;
  const shown = textOf(unifiedDiff(Array.from({ length: m }, (_, i) => `a${i}`).join('\n'), Array.from({ length: m }, (_, i) => `b${i}`).join('\n'), names));
  assert.is(changedLines(shown), DIFF_LIMITS.maxEdits);
  // Two alternating patterns: few edits per line, but long matching runs on every diagonal.
  const a = Array.from({ length: 60_000 }, (_, i) => (i % 2 ? 'x' : 'y')).join('\n');
  const b = Array.from({ length: 60_000 }, (_, i) => (i % 3 ? 'x' : 'y')).join('\n');
  assert.equal(unifiedDiff(a, b, names), { tooLarge: 'work' });
  assert.equal(unifiedDiff('p\nq', 'q\np', names, { ...DIFF_LIMITS, maxWork: 1 }), { tooLarge: 'work' });
});

test('the search keeps its work within the budget it is given, and reports what it spent', () => {
  const a = Int32Array.from({ length: 5_000 }, (_, i) => i % 7);
  const b = Int32Array.from({ length: 5_000 }, (_, i) => (i * 3) % 7);
  for (const maxWork of [1_000, 50_000, 400_000]) {
    const result = lineDiff(a, b, { maxEdits: 10_000, maxWork });
    assert.is(result.ok, false);
    // One step of the search may finish before the count is checked: a step visits at most 2·(maxEdits/2 + 2) diagonals.
    assert.ok(result.work <= maxWork + 2 * (10_000 + 4) + 10_000, `${result.work} for a budget of ${maxWork}`);
  }
});

test.run();
