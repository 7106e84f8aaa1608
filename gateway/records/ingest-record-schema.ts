import type { JsonSchema } from '@vigil/plugin-sdk';

// Bounds a record has when a gateway or a middleware made it; a record past them did not come from one.
const TEXT = { type: 'string', maxLength: 65_536 };
const NAME = { type: 'string', minLength: 1, maxLength: 1_024 };
const HEADER_VALUES = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] };
const HEADERS = { anyOf: [{ type: 'null' }, { type: 'object', additionalProperties: HEADER_VALUES }] };
/**
 * The latest `time` (epoch ms) a schema can hold a record to: 2100-01-01. A schema cannot say "not in the future", so
 * this only keeps out the absurd (a record dated 9999 stayed first in every list and outlived retention); the route
 * holds each record to the server's clock with `futureRecord`.
 */
const TIME_CEILING_MS = Date.UTC(2100, 0, 1);
/** How far ahead of this server's clock a record's `time` may be, in ms: the app's clock drifts by seconds, not days. */
export const MAX_RECORD_CLOCK_AHEAD_MS = 5 * 60_000;

/**
 * One governed record as POST /api/gateway/records takes it: a `GovernedRecord` (gateway/records/governed-record.ts), every
 * key required, no other key. Bodies are any JSON value (the governed document, a string for text, null).
 */
export const ingestRecordSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'time', 'method', 'path', 'route', 'query', 'status', 'duration_ms', 'headers', 'response_headers', 'request_body',
    'response_body', 'labels', 'matched_rules', 'tokens', 'sampled', 'truncated', 'partial', 'dropped_reason', 'error'],
  properties: {
    // UUIDv7, as the gateway and the middleware make them: time-ordered, so stored records append to the index.
    id: { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' },
    time: { type: 'integer', minimum: 0, maximum: TIME_CEILING_MS },
    method: { type: 'string', pattern: '^[!#$%&\'*+.^_`|~0-9A-Za-z-]{1,32}$' },
    path: TEXT,
    route: { type: 'array', maxItems: 1_000, items: NAME },
    query: { type: 'object', additionalProperties: HEADER_VALUES },
    status: { type: 'integer', minimum: 0, maximum: 999 },
    duration_ms: { type: 'number', minimum: 0 },
    headers: HEADERS,
    response_headers: HEADERS,
    request_body: {},
    response_body: {},
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    matched_rules: { type: 'array', maxItems: 1_000, items: NAME },
    tokens: { type: ['number', 'null'], minimum: 0 },
    sampled: { type: 'boolean' },
    truncated: { type: 'boolean' },
    partial: { type: 'boolean' },
    dropped_reason: { type: ['string', 'null'], maxLength: 65_536 },
    error: { type: ['string', 'null'], maxLength: 1_024 },
  },
};

/** The body of POST /api/gateway/records. */
export const ingestBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['records'],
  properties: { records: { type: 'array', minItems: 1, maxItems: 10_000, items: ingestRecordSchema } },
};

/**
 * The first record of a body (already valid against `ingestBodySchema`) dated more than `MAX_RECORD_CLOCK_AHEAD_MS`
 * after `now` (epoch ms), as the key path and message of a 400; undefined when there is none. Such a record would
 * sort first in every list until its date and be kept by retention as long.
 */
export function futureRecord(records: readonly { time: number }[], now: number): { path: string; message: string } | undefined {
  for (let i = 0; i < records.length; i++) {
    const { time } = records[i];
    if (time <= now + MAX_RECORD_CLOCK_AHEAD_MS) continue;
    const path = `body.records[${i}].time`;
    return {
      path,
      message: `${path} ${new Date(time).toISOString()} is more than ${MAX_RECORD_CLOCK_AHEAD_MS / 60_000} minutes ahead of the server's clock `
        + `(${new Date(now).toISOString()}): check the clock of the application's host`,
    };
  }
  return undefined;
}
