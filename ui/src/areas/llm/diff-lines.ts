// A unified diff (`diff -u`, as plugins/llm/api/unified-diff.ts writes it) read into lines to draw: each with its kind
// and its numbers in the old and the new text, so the view can colour and number them without parsing anything.

export type DiffLineKind = 'from' | 'to' | 'hunk' | 'add' | 'del' | 'context';

export interface DiffLine {
  kind: DiffLineKind;
  /** The line without its one-character prefix (the whole line for headers and hunks). */
  text: string;
  /** Line number in the old text (context and removed lines). */
  old?: number;
  /** Line number in the new text (context and added lines). */
  new?: number;
}

export interface ParsedDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** The lines of a unified diff; '' (equal texts) has none. */
export function parseUnifiedDiff(diff: string): ParsedDiff {
  const lines: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  let oldLine = 0;
  let newLine = 0;
  const raw = diff.endsWith('\n') ? diff.slice(0, -1) : diff;
  if (raw === '') return { lines, added, removed };
  for (const line of raw.split('\n')) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      // A hunk that starts at line 0 is an insertion into (or removal from) an empty side: its lines count from 1.
      oldLine = Math.max(1, Number(hunk[1]));
      newLine = Math.max(1, Number(hunk[2]));
      lines.push({ kind: 'hunk', text: line });
    } else if (line.startsWith('--- ') && lines.length === 0) {
      lines.push({ kind: 'from', text: line.slice(4) });
    } else if (line.startsWith('+++ ') && lines.length === 1 && lines[0].kind === 'from') {
      lines.push({ kind: 'to', text: line.slice(4) });
    } else if (line.startsWith('+')) {
      lines.push({ kind: 'add', text: line.slice(1), new: newLine++ });
      added++;
    } else if (line.startsWith('-')) {
      lines.push({ kind: 'del', text: line.slice(1), old: oldLine++ });
      removed++;
    } else {
      lines.push({ kind: 'context', text: line.startsWith(' ') ? line.slice(1) : line, old: oldLine++, new: newLine++ });
    }
  }
  return { lines, added, removed };
}
