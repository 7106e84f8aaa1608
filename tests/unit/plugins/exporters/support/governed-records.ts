import type { GovernedRecord } from '@vigil/plugin-sdk';

/** A governed record as capture publishes it on 'gateway.record', with `n` in its id, path and time. */
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

/** `count` records numbered from `from`, as the plain objects exporters receive. */
export function governedRecords(count: number, from = 0): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => governedRecord(from + i) as unknown as Record<string, unknown>);
}
