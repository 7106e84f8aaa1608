// The body schema of POST /api/gateway/records, through the control plane's own schema compiler: a record's `time` is
// bounded (a record dated in the year 9999 stayed first in every list and outlived retention), and the clock check
// the route runs after the schema refuses a time more than minutes ahead of the server's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { uuidv7 } from '@vigil/plugin-sdk';
import { createSchemaCompiler } from '../../../../runtime/http/schema-validation.js';
import { MAX_RECORD_CLOCK_AHEAD_MS, futureRecord, ingestBodySchema } from '../../../../gateway/records/ingest-record-schema.js';

const NOW = Date.UTC(2026, 5, 1, 12);
const record = (time: number) => ({
  id: uuidv7(), time, method: 'GET', path: '/api/x', route: ['api'], query: {}, status: 200, duration_ms: 3, headers: null,
  response_headers: null, request_body: null, response_body: null, labels: {}, matched_rules: ['api'], tokens: null, sampled: true,
  truncated: false, partial: false, dropped_reason: null, error: null,
});
const validate = createSchemaCompiler().body(ingestBodySchema);
const refusal = (records: unknown[]) => {
  try {
    validate({ records });
    return undefined;
  } catch (err) {
    return err as Error & { path?: string };
  }
};

test('the schema takes a record of today and refuses one dated past the year 2100, naming its key path', () => {
  assert.is(refusal([record(NOW)]), undefined);
  assert.is(refusal([record(Date.UTC(2099, 11, 31))]), undefined);
  for (const time of [Date.UTC(9999, 11, 31), Date.UTC(2100, 0, 1) + 1, 8_640_000_000_000_000]) {
    const err = refusal([record(NOW), record(time)]);
    assert.ok(err, `time ${time} refused`);
    assert.match(err!.message, /records\[1\]\.time must be <=/);
  }
});

test('the clock check: minutes ahead pass, more is refused with the record\'s key path and why', () => {
  assert.is(MAX_RECORD_CLOCK_AHEAD_MS, 5 * 60_000);
  assert.is(futureRecord([record(NOW), record(NOW + MAX_RECORD_CLOCK_AHEAD_MS)], NOW), undefined);
  assert.is(futureRecord([record(NOW - 30 * 86_400_000)], NOW), undefined, 'old records are retention\'s, not a refusal');
  const ahead = futureRecord([record(NOW), record(NOW), record(NOW + MAX_RECORD_CLOCK_AHEAD_MS + 1000), record(Date.UTC(9999, 0, 1))], NOW);
  assert.equal(ahead?.path, 'body.records[2].time');
  assert.match(ahead!.message, /^body\.records\[2\]\.time 2026-06-01T12:05:01\.000Z is more than 5 minutes ahead of the server's clock \(2026-06-01T12:00:00\.000Z\)/);
});

test.run();
