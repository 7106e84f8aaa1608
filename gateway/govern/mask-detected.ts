// A rule's `redact.detect`: sensitive-looking values (card numbers, emails, keys, …) masked wherever they appear in
// the record, whatever the field is called. It runs after every other redaction, on the record about to be stored.
import { redactText } from '../../policies/detectors/index.js';
import type { DetectorKind } from '../../policies/detectors/types.js';
import { maskStrings } from '../../policies/govern-json.js';
import type { StorableRecord } from './types.js';

type Values = Record<string, string | string[]>;

/** Query or header values with detected spans masked (keys as they are). */
export function maskValues(values: Values, kinds: readonly DetectorKind[]): Values {
  const out: Values = {};
  for (const key of Object.keys(values)) {
    const v = values[key];
    Object.defineProperty(out, key, {
      value: Array.isArray(v) ? v.map((x) => redactText(x, kinds)) : redactText(v, kinds),
      enumerable: true, writable: true, configurable: true,
    });
  }
  return out;
}

/**
 * A body's JSON text with detected spans masked: parsed and walked (an escape such as `\u0040` cannot hide an
 * email), and written again only when something was masked, so an untouched body keeps its own text.
 */
function maskBodyJson(json: string, kinds: readonly DetectorKind[]): string {
  if (json === 'null') return json;
  const value = JSON.parse(json) as unknown;
  const masked = maskStrings(value, kinds);
  return JSON.stringify(masked) === JSON.stringify(value) ? json : JSON.stringify(masked);
}

/** `record` with every span the detectors of `kinds` find masked: path, query, headers, labels and bodies. */
export function maskDetected(record: StorableRecord, kinds: ReadonlySet<DetectorKind>): StorableRecord {
  const list = [...kinds];
  return {
    ...record,
    path: redactText(record.path, list),
    query: maskValues(record.query, list),
    headers: record.headers && maskValues(record.headers, list),
    response_headers: record.response_headers && maskValues(record.response_headers, list),
    labels: maskValues(record.labels, list) as Record<string, string>,
    request_body_json: maskBodyJson(record.request_body_json, list),
    response_body_json: maskBodyJson(record.response_body_json, list),
  };
}
