import { governedRecordJson, type GovernedRecord, type GovernedRecordJson } from '../../../../../gateway/records/governed-record.js';

/** A governed record object, with `n` in its id, path and time. */
export function governedRecord(n: number, overrides: Partial<GovernedRecord> = {}): GovernedRecord {
  return {
    id: `rec-${n}`,
    time: 1_700_000_000_000 + n,
    method: 'POST',
    path: '/api/payments',
    route: ['/api/payments/**'],
    query: { page: '1' },
    status: 200,
    duration_ms: 12.5,
    headers: { 'Content-Type': 'application/json', Authorization: '[REDACTED]' },
    response_headers: { 'Content-Type': 'application/json' },
    request_body: { amount: 10, card: '[REDACTED]', note: 'café ✓' },
    response_body: { ok: true },
    labels: { tenant: 'acme' },
    matched_rules: ['payments'],
    tokens: null,
    sampled: true,
    truncated: false,
    partial: false,
    dropped_reason: null,
    error: null,
    ...overrides,
  };
}

/** `governedRecord(n, overrides)` as capture publishes it on 'gateway.record': its JSON text and key fields. */
export function recordJson(n: number, overrides: Partial<GovernedRecord> = {}): GovernedRecordJson {
  return governedRecordJson(governedRecord(n, overrides));
}

/** `count` records numbered from `from`, as exporters receive them from the bus. */
export function governedRecords(count: number, from = 0): GovernedRecordJson[] {
  return Array.from({ length: count }, (_, i) => recordJson(from + i));
}

/** The JSON text of each record: what file and exec exporters write, one per line. */
export const textsOf = (records: readonly { json: string }[]): string[] => records.map((r) => r.json);
