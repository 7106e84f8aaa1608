/** Characters of a watcher's pattern at most. */
export const MAX_PATTERN_CHARS = 500;

interface Group { quantified: boolean }

/**
 * Why `pattern` is refused, or undefined when it is accepted. Refused: a pattern that does not compile, and one with
 * a repeating quantifier over a group that itself holds an unbounded one (`(a+)+`, `(\w*)*`, `(x+y?){2,}`,
 * `(.*a){3}`): the nested quantifiers that backtrack exponentially on a line that almost matches (star height above
 * one, safe-regex's check). It is a necessary check, not a sufficient one: overlapping alternatives under a star
 * (`(a|a)*`) pass it, which is why matching also runs in a worker under a time limit.
 */
export function patternProblem(pattern: string, flags = ''): string | undefined {
  if (pattern.length === 0) return 'the pattern is empty';
  if (pattern.length > MAX_PATTERN_CHARS) return `the pattern has ${pattern.length} characters; at most ${MAX_PATTERN_CHARS}`;
  try { new RegExp(pattern, flags); } catch (err) { return (err as Error).message; }
  const stack: Group[] = [{ quantified: false }];
  // What the next quantifier applies to: a closed group (and whether it held a quantifier), or a single atom.
  let last: { group: boolean; quantified: boolean } | undefined;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') { i++; last = { group: false, quantified: false }; continue; }
    if (c === '[') {
      // A class is one atom: skip to its unescaped `]` (a `]` first in the class is a literal).
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j;
      last = { group: false, quantified: false };
      continue;
    }
    if (c === '(') {
      stack.push({ quantified: false });
      last = undefined;
      // Skip a group's prefix, whose `?` is no quantifier: (?: (?= (?! (?<= (?<! (?<name>.
      if (pattern[i + 1] === '?') {
        if (pattern[i + 2] === '<' && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') i = pattern.indexOf('>', i);
        else i += pattern[i + 2] === '<' ? 3 : 2;
      }
      continue;
    }
    if (c === ')') {
      const closed = stack.length > 1 ? stack.pop()! : { quantified: false };
      last = { group: true, quantified: closed.quantified };
      continue;
    }
    const quantifier = quantifierAt(pattern, i);
    if (quantifier) {
      if (quantifier.repeats && last?.group && last.quantified) {
        return `a repeated group holds a repeated part (near "${pattern.slice(Math.max(0, i - 20), i + quantifier.length)}"): that backtracks catastrophically on a line that almost matches; repeat the group's contents once, e.g. (a+)+ → a+`;
      }
      // Only an unbounded inner quantifier makes the outer one explode: (\.\d{1,3}){3} is a fixed, small amount of work.
      if (quantifier.unbounded) stack[stack.length - 1].quantified = true;
      // The group's own quantifier counts for the groups around it.
      if (last?.group && last.quantified) stack[stack.length - 1].quantified = true;
      i += quantifier.length - 1;
      if (pattern[i + 1] === '?' || pattern[i + 1] === '+') i++; // lazy or possessive suffix
      last = undefined;
      continue;
    }
    if (c !== '|' && c !== '^' && c !== '$') last = { group: false, quantified: false };
    else last = undefined;
  }
  return undefined;
}

/**
 * The quantifier at `i`: its length, whether it repeats (more than once, which `?` and `{0,1}` do not), and whether
 * it is unbounded (`*`, `+`, `{n,}`).
 */
function quantifierAt(pattern: string, i: number): { length: number; repeats: boolean; unbounded: boolean } | undefined {
  const c = pattern[i];
  if (c === '*' || c === '+') return { length: 1, repeats: true, unbounded: true };
  if (c === '?') return { length: 1, repeats: false, unbounded: false };
  if (c !== '{') return undefined;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
  if (!m) return undefined;
  const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
  return { length: m[0].length, repeats: max > 1, unbounded: max === Infinity };
}
