import { isDeepStrictEqual } from 'node:util';
import { REDACTED } from '../../policies/compile-json-path.js';
import { lookupRecordPath, parseRecordPath, type RecordPath } from './record-path.js';
import type { CaseExpect } from './test-cases-schema.js';
import type { GovernedRecord } from '../../gateway/govern/types.js';

/** One expectation that did not hold. */
export interface CaseFailure {
  what: string;
  expected: string;
  actual: string;
}

const show = (value: unknown): string => {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

const isMarker = (v: unknown): boolean =>
  v === REDACTED || (Array.isArray(v) && v.length > 0 && v.every((x) => x === REDACTED));

// Record fields hold plain JSON data; a null-prototype object and an equal plain one are the same here.
const equal = (a: unknown, b: unknown): boolean => isDeepStrictEqual(JSON.parse(JSON.stringify(a ?? null)), JSON.parse(JSON.stringify(b ?? null)));

function absence(record: GovernedRecord, path: RecordPath, missingAt: number): string {
  const field = String(path[0]);
  const top = (record as unknown as Record<string, unknown>)[field];
  if (missingAt > 0 && top === null) {
    return `absent: ${field} is null${record.dropped_reason ? ` (dropped: ${record.dropped_reason})` : ''}`;
  }
  return 'absent';
}

/**
 * Checks a governed record against a case's expectations. `input` is the same exchange governed with nothing
 * redacted or restricted: "kept" means equal to it, and a "redacted" path must exist in it (a typo in a path would
 * otherwise pass as "not leaked").
 */
export function checkExpectations(record: GovernedRecord, input: GovernedRecord, expect: CaseExpect): CaseFailure[] {
  const failures: CaseFailure[] = [];
  const fail = (what: string, expected: string, actual: string) => failures.push({ what, expected, actual });
  const paths = (list: readonly string[] | undefined, each: (text: string, path: RecordPath) => void) => {
    for (const text of list ?? []) {
      const path = parseRecordPath(text);
      if (path === null) fail(text, 'a record path such as request_body.card.number or headers.Authorization', 'an unreadable path');
      else each(text, path);
    }
  };

  paths(expect.redacted, (text, path) => {
    const before = lookupRecordPath(input, path);
    const after = lookupRecordPath(record, path);
    if (!before.found) fail(`${text} (redacted)`, 'a value present in the input', 'not in the input: check the path');
    else if (!after.found) fail(`${text} (redacted)`, show(REDACTED), absence(record, path, after.missingAt));
    else if (!isMarker(after.value)) fail(`${text} (redacted)`, show(REDACTED), show(after.value));
  });

  paths(expect.kept, (text, path) => {
    const before = lookupRecordPath(input, path);
    const after = lookupRecordPath(record, path);
    if (!before.found) fail(`${text} (kept)`, 'a value present in the input', 'not in the input: check the path');
    else if (!after.found) fail(`${text} (kept)`, show(before.value), absence(record, path, after.missingAt));
    else if (!equal(after.value, before.value)) fail(`${text} (kept)`, show(before.value), show(after.value));
  });

  for (const [part, wanted] of Object.entries(expect.captured ?? {})) {
    const present = (record as unknown as Record<string, unknown>)[part] !== null;
    if (present !== wanted) {
      const why = !present && record.dropped_reason ? ` (dropped: ${record.dropped_reason})` : '';
      fail(`captured.${part}`, wanted ? 'captured' : 'not captured', (present ? 'captured' : 'not captured') + why);
    }
  }
  if (expect.labels !== undefined && !equal(record.labels, expect.labels)) fail('labels', show(expect.labels), show(record.labels));
  if (expect.matched_rules !== undefined && !equal(record.matched_rules, expect.matched_rules)) {
    fail('matched_rules', show(expect.matched_rules), show(record.matched_rules));
  }
  if (expect.tokens !== undefined && record.tokens !== expect.tokens) fail('tokens', show(expect.tokens), show(record.tokens));
  if (expect.sampled !== undefined && record.sampled !== expect.sampled) fail('sampled', show(expect.sampled), show(record.sampled));
  if (expect.dropped_reason !== undefined) {
    const ok = expect.dropped_reason === null
      ? record.dropped_reason === null
      : record.dropped_reason !== null && record.dropped_reason.includes(expect.dropped_reason);
    if (!ok) {
      fail('dropped_reason', expect.dropped_reason === null ? 'null' : `containing ${show(expect.dropped_reason)}`, show(record.dropped_reason));
    }
  }
  for (const [text, wanted] of Object.entries(expect.equals ?? {})) {
    const path = parseRecordPath(text);
    if (path === null) { fail(text, 'a record path', 'an unreadable path'); continue; }
    const at = lookupRecordPath(record, path);
    if (!at.found) fail(text, show(wanted), absence(record, path, at.missingAt));
    else if (!equal(at.value, wanted)) fail(text, show(wanted), show(at.value));
  }
  return failures;
}
