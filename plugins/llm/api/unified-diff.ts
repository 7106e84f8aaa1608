/** Lines of context around each change, as `diff -u` prints them. */
const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; line: string };

/**
 * The shortest edit script from `a` to `b` (Myers' O((N+M)·D) algorithm), as a list of kept, removed and added
 * lines. Memory grows with the number of differences, not with the product of the lengths.
 */
function editScript(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  // trace[d] is the frontier as it was before step d: what the walk back needs to find each step's origin.
  const trace: Int32Array[] = [];
  search: for (let d = 0; d <= n + m; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      v[offset + k] = x;
      if (x >= n && y >= m) break search;
    }
  }
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const before = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && before[offset + k - 1] < before[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = before[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) { x--; y--; ops.push({ kind: ' ', line: a[x] }); }
    if (d === 0) break;
    if (x === prevX) { y--; ops.push({ kind: '+', line: b[y] }); } else { x--; ops.push({ kind: '-', line: a[x] }); }
  }
  return ops.reverse();
}

/**
 * A unified diff (`diff -u` format, 3 lines of context) from `before` to `after`, with `---`/`+++` headers naming
 * them; the empty string when the texts are equal.
 */
export function unifiedDiff(before: string, after: string, names: { from: string; to: string }): string {
  if (before === after) return '';
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  const ops = editScript(a, b);
  const out = [`--- ${names.from}`, `+++ ${names.to}`];
  let i = 0;
  while (i < ops.length) {
    if (ops[i].kind === ' ') { i++; continue; }
    // A hunk: from CONTEXT lines before this change to CONTEXT lines after the last change closer than 2×CONTEXT.
    let start = Math.max(0, i - CONTEXT);
    let end = i;
    for (;;) {
      while (end < ops.length && ops[end].kind !== ' ') end++;
      let gap = end;
      while (gap < ops.length && ops[gap].kind === ' ') gap++;
      if (gap < ops.length && gap - end <= 2 * CONTEXT) { end = gap; continue; }
      end = Math.min(ops.length, end + CONTEXT);
      break;
    }
    let aLine = 1;
    let bLine = 1;
    for (let j = 0; j < start; j++) {
      if (ops[j].kind !== '+') aLine++;
      if (ops[j].kind !== '-') bLine++;
    }
    const hunk = ops.slice(start, end);
    const aCount = hunk.filter((o) => o.kind !== '+').length;
    const bCount = hunk.filter((o) => o.kind !== '-').length;
    const range = (line: number, count: number) => `${count === 0 ? line - 1 : line}${count === 1 ? '' : `,${count}`}`;
    out.push(`@@ -${range(aLine, aCount)} +${range(bLine, bCount)} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
    i = end;
    start = end;
  }
  return out.join('\n') + '\n';
}
