import { lineDiff, type Change, type LineDiffLimits } from './line-diff.js';
import { internLines, LineIndex } from './line-index.js';

/** Lines of context around each change, as `diff -u` prints them. */
const CONTEXT = 3;

export interface DiffLimits extends LineDiffLimits {
  /** Longest text, in UTF-16 code units (a JavaScript string's length), that is diffed at all. */
  maxChars: number;
}

/**
 * The diff's bounds on the event loop, which it holds for one call: with them, a diff of any two texts takes a few ms
 * of one core, and about 10 ms at the worst (bench/prompt-diff.ts measures the costly cases). A text is at most
 * 300,000 characters (the item schema's 262,144 of `prompt_template.raw`, with room for redaction markers); the edit
 * distance at most 1,000 lines; and the work at most 600,000 units (a diagonal visited or a matching line followed,
 * about 10 ns each; a line of the differing parts indexed and hashed, 16 units). Memory is linear in the texts.
 */
export const DIFF_LIMITS: DiffLimits = { maxChars: 300_000, maxEdits: 1_000, maxWork: 600_000 };

/** Why no diff was made: a text past `maxChars`, more than `maxEdits` lines changed, or more work than `maxWork`. */
export type TooLargeReason = 'size' | 'edits' | 'work';

export type UnifiedDiff = { diff: string } | { tooLarge: TooLargeReason };

/**
 * Work units per line of the parts that differ: indexing, hashing and interning a line cost about as much as sixteen
 * steps of the search (bench/prompt-diff.ts).
 */
const LINE_WORK = 16;

/**
 * Where two different texts part and meet again, in whole lines, found by comparing characters (no line of a common
 * head or tail is ever made or hashed): `headEnd` (the same offset in both) starts the first line that may differ;
 * `endA`/`endB` end the last one (the '\n' before the common tail, or the text's end). With up to CONTEXT lines of
 * the head before (from `contextStart`) and of the tail after (to `contextEndA`/`contextEndB`).
 */
function cut(before: string, after: string) {
  const shorter = Math.min(before.length, after.length);
  let p = 0;
  while (p < shorter && before.charCodeAt(p) === after.charCodeAt(p)) p++;
  let q = 0;
  while (q < shorter - p && before.charCodeAt(before.length - 1 - q) === after.charCodeAt(after.length - 1 - q)) q++;
  // lastIndexOf reads a negative start as 0: each call is guarded.
  const headEnd = p === 0 ? 0 : before.lastIndexOf('\n', p - 1) + 1;
  const tailAt = q === 0 ? -1 : before.indexOf('\n', before.length - q);
  const shift = after.length - before.length;
  const endA = tailAt === -1 ? before.length : tailAt;
  const endB = tailAt === -1 ? after.length : tailAt + shift;
  let contextStart = headEnd;
  for (let i = 0; i < CONTEXT && contextStart > 0; i++) contextStart = contextStart < 2 ? 0 : before.lastIndexOf('\n', contextStart - 2) + 1;
  let contextEndA = endA;
  for (let i = 0; i < CONTEXT && tailAt !== -1 && contextEndA < before.length; i++) {
    const next = before.indexOf('\n', contextEndA + 1);
    contextEndA = next === -1 ? before.length : next;
  }
  return { contextStart, headEnd, endA, endB, contextEndA, contextEndB: tailAt === -1 ? endB : contextEndA + shift };
}

/** How many '\n' `text` holds in [from, to). */
function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The `diff -u` hunks of `changes` (in order, none touching another; indexes into `a` and `b`, whose line 0 is line
 * `lineOffset` of the texts), without the file headers.
 */
function hunks(a: LineIndex, b: LineIndex, changes: readonly Change[], lineOffset: number): string[] {
  const out: string[] = [];
  const range = (start: number, count: number) => `${count === 0 ? start + lineOffset : start + lineOffset + 1}${count === 1 ? '' : `,${count}`}`;
  let i = 0;
  while (i < changes.length) {
    // A hunk: the changes whose kept lines between them are at most 2×CONTEXT, with CONTEXT lines on each side.
    let j = i;
    while (j + 1 < changes.length && changes[j + 1].aStart - changes[j].aEnd <= 2 * CONTEXT) j++;
    const first = changes[i];
    const last = changes[j];
    const aStart = Math.max(0, first.aStart - CONTEXT);
    const bStart = first.bStart - (first.aStart - aStart);
    const aEnd = Math.min(a.count, last.aEnd + CONTEXT);
    const bEnd = last.bEnd + (aEnd - last.aEnd);
    out.push(`@@ -${range(aStart, aEnd - aStart)} +${range(bStart, bEnd - bStart)} @@`);
    let at = aStart;
    for (let c = i; c <= j; c++) {
      const change = changes[c];
      for (; at < change.aStart; at++) out.push(` ${a.line(at)}`);
      for (let x = change.aStart; x < change.aEnd; x++) out.push(`-${a.line(x)}`);
      for (let y = change.bStart; y < change.bEnd; y++) out.push(`+${b.line(y)}`);
      at = change.aEnd;
    }
    for (; at < aEnd; at++) out.push(` ${a.line(at)}`);
    i = j + 1;
  }
  return out;
}

/**
 * A unified diff (`diff -u` format, 3 lines of context) from `before` to `after`, with `---`/`+++` headers naming
 * them; the empty string when the texts are equal. `tooLarge` instead when the texts pass `limits`: the answer is
 * then "too different to show inline", never a stall.
 */
export function unifiedDiff(before: string, after: string, names: { from: string; to: string }, limits: DiffLimits = DIFF_LIMITS): UnifiedDiff {
  if (before === after) return { diff: '' };
  if (before.length > limits.maxChars || after.length > limits.maxChars) return { tooLarge: 'size' };
  const at = cut(before, after);
  // The empty text has no lines; any other stretch between line ends has one more line than newlines. Counted
  // before any line is indexed, so that texts too long to search cost no more than this count.
  const midA = before === '' ? 0 : newlines(before, at.headEnd, at.endA) + 1;
  const midB = after === '' ? 0 : newlines(after, at.headEnd, at.endB) + 1;
  const work = (midA + midB) * LINE_WORK;
  if (work > limits.maxWork) return { tooLarge: 'work' };
  if (Math.abs(midA - midB) > limits.maxEdits) return { tooLarge: 'edits' };
  const a = new LineIndex(before, at.contextStart, at.contextEndA, before === '');
  const b = new LineIndex(after, at.contextStart, at.contextEndB, after === '');
  const first = newlines(before, at.contextStart, at.headEnd);
  const [ia, ib] = internLines(a, first, first + midA, b, first, first + midB);
  const result = lineDiff(ia, ib, limits, work);
  if (!result.ok) return { tooLarge: result.reason };
  const changes = result.changes.map((c) => ({ aStart: c.aStart + first, aEnd: c.aEnd + first, bStart: c.bStart + first, bEnd: c.bEnd + first }));
  const lineOffset = newlines(before, 0, at.contextStart);
  return { diff: [`--- ${names.from}`, `+++ ${names.to}`, ...hunks(a, b, changes, lineOffset)].join('\n') + '\n' };
}
