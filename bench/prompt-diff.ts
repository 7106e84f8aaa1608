// Benchmark: how long one prompt-version diff holds the event loop, at its bounds (plugins/llm/api/unified-diff.ts,
// DIFF_LIMITS), over the inputs that cost it most: two texts of about 256 KB (the item schema's cap of
// `prompt_template.raw`) that share no line, with lines of 1 to 200 characters; texts with long matching runs on
// every diagonal; near misses of each bound; and the common case, a few lines changed in a long text. Each case is
// timed in CPU time of the process (the diff runs synchronously), median and slowest of ROUNDS rounds. Baseline in the
// same run: JSON.stringify of both texts, which answering with them costs anyway.
//
// The figure to hold: the slowest case under ~20 ms (docs/operations.md, "Bounds per route").
import { performance } from 'node:perf_hooks';
import { DIFF_LIMITS, unifiedDiff } from '../plugins/llm/api/unified-diff.js';
import { median } from './support/median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const SIZE = 255 * 1024;
const names = { from: 'a', to: 'b' };

/** A small seeded generator, so that every run diffs the same texts. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 4294967296; };
}

function lines(width: number, seed: number, alphabet = 26): string {
  const r = random(seed);
  const out: string[] = [];
  for (let size = 0; size < SIZE; size += width + 1) {
    let line = '';
    for (let c = 0; c < width; c++) line += String.fromCharCode(97 + Math.floor(r() * alphabet));
    out.push(line);
  }
  return out.join('\n');
}

const cases: [string, string, string][] = [];
for (const width of [1, 4, 8, 16, 40, 200]) cases.push([`256 KB, no line shared, ${width}-char lines`, lines(width, 1), lines(width, 2)]);
cases.push(['256 KB, two letters per line (long matches everywhere)', lines(1, 3, 2), lines(1, 4, 2)]);
{
  const base = lines(40, 5).split('\n');
  cases.push(['256 KB, every 500th line changed', base.join('\n'), base.map((l, i) => (i % 500 ? l : `${l}!`)).join('\n')]);
  cases.push(['256 KB, one line changed', base.join('\n'), base.map((l, i) => (i === 3000 ? `${l}!` : l)).join('\n')]);
  const n = DIFF_LIMITS.maxEdits / 2;
  cases.push([`${n} lines all replaced (${DIFF_LIMITS.maxEdits} edits, at the bound)`, base.slice(0, n).join('\n'), base.slice(n, 2 * n).join('\n')]);
}

/** CPU milliseconds of the process (the diff's thread, and the collector's helpers) for one call of `f`. */
function cpuMs(f: () => unknown): number {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

let slowest = 0;
for (const [label, a, b] of cases) {
  const diff: number[] = [];
  const base: number[] = [];
  let outcome = '';
  for (let round = 0; round < ROUNDS; round++) {
    base.push(cpuMs(() => JSON.stringify({ a, b })));
    diff.push(cpuMs(() => {
      const r = unifiedDiff(a, b, names);
      outcome = 'diff' in r ? `diff of ${r.diff.length} chars` : `tooLarge: ${r.tooLarge}`;
    }));
  }
  slowest = Math.max(slowest, ...diff);
  console.log(`prompt-diff ${label}: ${median(diff).toFixed(2)} ms CPU (slowest ${Math.max(...diff).toFixed(2)}; ${outcome}) (ratio ${(median(diff) / median(base)).toFixed(2)} vs JSON.stringify of both)`);
}
console.log(`prompt-diff slowest call: ${slowest.toFixed(2)} ms CPU (bound ~20 ms; wall ${performance.now().toFixed(0)} ms for the whole run)`);
