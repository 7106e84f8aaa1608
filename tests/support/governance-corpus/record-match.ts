// Stored records against the corpus's expectations for one config: which case each record is, and what differs.
// Records carry no case number, so they are matched by their normalized text first (equal texts are
// interchangeable), then what is left by method and path, in sending order, to say what differs.
import { receivedPath } from '../../../policies/fold-path.js';
import type { CorpusEntry } from './corpus-file.js';
import { normalizeRecord } from './normalize-record.js';

export interface Mismatch {
  /** The case's name, or `(no case)` for a record no case explains. */
  case: string;
  expected: string | null;
  actual: string | null;
  /** Where the two differ, said shortly. */
  diff: string;
}

interface Parsed { method: string; path: string }

/** The first place the texts differ, with some context on both sides, and the top-level keys whose values differ. */
export function describeDiff(expected: string | null, actual: string | null): string {
  if (expected === null) return 'expected no record; one was stored';
  if (actual === null) return 'expected a record; none was stored';
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i++;
  const from = Math.max(0, i - 40);
  const keys: string[] = [];
  try {
    const e = JSON.parse(expected) as Record<string, unknown>;
    const a = JSON.parse(actual) as Record<string, unknown>;
    for (const k of new Set([...Object.keys(e), ...Object.keys(a)])) {
      if (JSON.stringify(e[k]) !== JSON.stringify(a[k])) keys.push(k);
    }
  } catch {
    keys.push('(unparsable)');
  }
  const valueKeys = keys.length > 0 ? `values differ at ${keys.join(', ')}` : 'same values, different text (body spelling, key order or escaping)';
  return `${valueKeys}; first difference at character ${i}:\n    expected …${expected.slice(from, i + 60)}\n    actual   …${actual.slice(from, i + 60)}`;
}

/**
 * Compares the records stored for `cases` (raw texts, any order) with what each case expects. Every case whose
 * record is missing, different, or present where none is expected, and every record no case explains, is a
 * mismatch.
 */
export function matchRecords(cases: readonly CorpusEntry[], storedTexts: readonly string[]): Mismatch[] {
  const actual: { text: string; parsed: Parsed | null }[] = storedTexts.map((t) => {
    try {
      return { text: normalizeRecord(t), parsed: JSON.parse(t) as Parsed };
    } catch {
      return { text: t, parsed: null };
    }
  });
  const unmatched = new Set(actual.map((_, i) => i));
  const open: CorpusEntry[] = [];
  for (const c of cases) {
    if (c.record === null) { open.push(c); continue; }
    const hit = [...unmatched].find((i) => actual[i].text === c.record);
    if (hit === undefined) open.push(c);
    else unmatched.delete(hit);
  }
  const out: Mismatch[] = [];
  for (const c of open) {
    const path = receivedPath(c.request.target);
    const i = [...unmatched].find((k) => actual[k].parsed?.method === c.request.method && actual[k].parsed?.path === path);
    if (i === undefined) {
      if (c.record !== null) out.push({ case: c.name, expected: c.record, actual: null, diff: describeDiff(c.record, null) });
      continue;
    }
    unmatched.delete(i);
    out.push({ case: c.name, expected: c.record, actual: actual[i].text, diff: describeDiff(c.record, actual[i].text) });
  }
  for (const i of unmatched) out.push({ case: '(no case)', expected: null, actual: actual[i].text, diff: 'a record no case of this config explains' });
  return out;
}
