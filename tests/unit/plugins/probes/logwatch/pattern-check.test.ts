// Watcher patterns: nested quantifiers (the exponential-backtracking shape) are refused before saving, ordinary log
// patterns pass, and a pathological pattern that passes the check (overlapping alternatives under a star) is stopped
// by the matcher's time limit instead of holding the thread.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { matchLines } from '../../../../../plugins/probes/logwatch/match-lines.js';
import { patternProblem } from '../../../../../plugins/probes/logwatch/pattern-check.js';

test('catastrophic shapes are refused, with what to do', () => {
  for (const p of ['(a+)+$', '(\\w*)*x', '(x+y?){2,}', '((ab)*c)+', '(?:\\s*,)*z', '(?<word>[a-z]+)+!', '((a+)?)*b', '(.*a){3}']) {
    const problem = patternProblem(p);
    assert.ok(problem, `${p} is refused`);
    assert.match(problem!, 'backtracks catastrophically', p);
  }
});

test('ordinary log patterns pass', () => {
  for (const p of [
    'error', '^ERROR: .*disk', 'Out of memory: Killed process \\d+', '(foo|bar)+', '\\d{1,3}(\\.\\d{1,3}){3}', '(?:a|b)c+',
    '[(+*]+ literal', 'segfault at [0-9a-f]+', '(?=x)y', '(?<!not )failed', '(ab)?c*', 'a{2}b{1,}', '\\(a+\\)+',
  ]) {
    assert.is(patternProblem(p), undefined, p);
  }
});

test('a pattern that does not compile, an empty one and an overlong one are refused', () => {
  assert.match(patternProblem('(unclosed')!, 'Invalid regular expression');
  assert.ok(patternProblem(''));
  assert.match(patternProblem('a'.repeat(501))!, 'at most 500');
});

test('the matcher: indices of matching lines per pattern, case folding on request', () => {
  const lines = ['kernel: Out of memory: Killed process 42', 'sshd: Accepted key', 'kernel: out of memory again'];
  const [exact, folded] = matchLines({
    lines, budgetMs: 250,
    patterns: [{ name: 'a', pattern: 'Out of memory', ignoreCase: false }, { name: 'b', pattern: 'out of memory', ignoreCase: true }],
  });
  assert.equal(exact, { indices: [0] });
  assert.equal(folded, { indices: [0, 2] });
});

test('overlapping alternatives under a star pass the check; the time limit stops them and the next pattern still runs', () => {
  const evil = '^(a|a)*$';
  assert.is(patternProblem(evil), undefined, 'the static check is necessary, not sufficient');
  const started = performance.now();
  const [stopped, fine] = matchLines({
    lines: ['a'.repeat(40) + 'b', 'ok'], budgetMs: 100,
    patterns: [{ name: 'evil', pattern: evil, ignoreCase: false }, { name: 'fine', pattern: 'ok', ignoreCase: false }],
  });
  const ms = performance.now() - started;
  assert.equal(stopped, { timedOut: true });
  assert.equal(fine, { indices: [1] });
  assert.ok(ms < 1000, `stopped after ${ms.toFixed(0)} ms`);
});

test.run();
