import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import type { SqlValue } from '@vigil/plugin-sdk';
import type { StorableRecord } from '../../../../gateway/records/governed-record.js';
import { captureMigrations } from '../../../../gateway/records/migrations.js';
import {
  foldRollups, labelValue, MAX_TOKENS_PER_RECORD, meteredTokens, primaryRoute, RECORD_COLUMNS, RecordWriter, recordRow,
  ROLLUP, ROLLUP_COLUMNS, statusClass,
} from '../../../../gateway/records/record-writer.js';
import { foldRulePaths } from '../../../../gateway/records/rule-paths.js';
import { backendKinds } from '../../runtime/store/backend-kinds.js';

// Backends first: every suite must be queued before uvu starts running, or a failure in an early suite is lost
// from the file's final totals.
const kinds = await backendKinds('capture_record_writer');
const MINUTE = 60_000;
const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);

function record(over: Partial<StorableRecord> = {}): StorableRecord {
  return {
    id: `r-${Math.random().toString(36).slice(2)}`,
    time: T0 + 5_000,
    method: 'POST',
    path: '/api/orders',
    route: ['/api/**', '/api/orders'],
    query: {},
    status: 200,
    duration_ms: 15,
    headers: { 'Content-Type': 'application/json' },
    response_headers: null,
    request_body_json: '{ "card": "[REDACTED]" }',
    response_body_json: 'null',
    labels: { tenant: 'acme' },
    matched_rules: ['api', 'orders'],
    tokens: null,
    sampled: true,
    truncated: false,
    partial: false,
    dropped_reason: null,
    error: null,
    ...over,
  };
}

/** The record as it reads back from the stored JSON. */
const parsed = ({ request_body_json, response_body_json, ...fields }: StorableRecord) =>
  ({ ...fields, request_body: JSON.parse(request_body_json) as unknown, response_body: JSON.parse(response_body_json) as unknown });

/** A rollup row as an object, for readable assertions. */
const named = (row: SqlValue[]) => Object.fromEntries(ROLLUP_COLUMNS.map((c, i) => [c, row[i]]));

test('primaryRoute is the last matched glob; no match files under "unmatched"', () => {
  assert.is(primaryRoute(record()), '/api/orders');
  assert.is(primaryRoute(record({ route: [] })), 'unmatched');
});

test('statusClass: 1xx…5xx, anything else (0: no response) is "error"', () => {
  assert.is(statusClass(101), '1xx');
  assert.is(statusClass(204), '2xx');
  assert.is(statusClass(404), '4xx');
  assert.is(statusClass(599), '5xx');
  assert.is(statusClass(0), 'error');
  assert.is(statusClass(600), 'error');
});

test('labelValue reads own labels only: a tenant label named like an Object method is not the prototype', () => {
  assert.is(labelValue(record(), 'tenant'), 'acme');
  assert.is(labelValue(record(), 'team'), '');
  assert.is(labelValue(record({ labels: {} }), 'constructor'), '');
  assert.is(labelValue(record({ labels: {} }), 'toString'), '');
  assert.is(labelValue(record({ labels: { constructor: 'c1' } as Record<string, string> }), 'constructor'), 'c1');
});

test('meteredTokens: whole numbers within the integer columns, null when not metered', () => {
  assert.is(meteredTokens(record({ tokens: null })), null);
  assert.is(meteredTokens(record({ tokens: 321 })), 321);
  assert.is(meteredTokens(record({ tokens: 12.5 })), 13);
  assert.is(meteredTokens(record({ tokens: 0 })), 0);
  assert.is(meteredTokens(record({ tokens: 1e300 })), MAX_TOKENS_PER_RECORD);
  assert.is(meteredTokens(record({ tokens: -4 })), null);
  assert.is(meteredTokens(record({ tokens: NaN })), null);
});

test('recordRow: the columns filters need, and the whole record as JSON last', () => {
  const r = record({ time: T0 + 0.7 });
  const row = recordRow(r);
  assert.is(row.length, RECORD_COLUMNS.length);
  const byName = Object.fromEntries(RECORD_COLUMNS.map((c, i) => [c, row[i]]));
  assert.is(byName.id, r.id);
  assert.is(byName.time, T0, 'integer milliseconds: a fraction would fail a BIGINT column');
  assert.is(byName.route, '["/api/**","/api/orders"]');
  assert.is(byName.primary_route, '/api/orders');
  assert.is(byName.status, 200);
  assert.is(byName.labels, '{"tenant":"acme"}');
  const stored = JSON.parse(row[row.length - 1] as string) as Record<string, unknown>;
  assert.equal(stored, parsed(r));
  assert.is(stored.request_body_json, undefined);
  assert.equal(Object.keys(stored), ['id', 'time', 'method', 'path', 'route', 'query', 'status', 'duration_ms', 'headers',
    'response_headers', 'request_body', 'response_body', 'labels', 'matched_rules', 'tokens', 'sampled', 'truncated', 'partial', 'dropped_reason', 'error']);
});

test('foldRollups: one row per minute, route, method, status class and tenant, with sums and bucket counts', () => {
  const rows = foldRollups([
    record({ duration_ms: 15, tokens: 100 }),
    record({ duration_ms: 150, tokens: 20.4, time: T0 + 59_999 }),
    record({ duration_ms: 700, status: 503 }),
    record({ duration_ms: 3, status: 0 }),
    record({ time: T0 + MINUTE }),
    record({ labels: { tenant: 'beta' } }),
    record({ labels: {} }),
    record({ method: 'GET' }),
    record({ route: [] }),
  ], 'tenant');
  const all = rows.map(named);
  assert.is(all.length, 8);
  const key = (m: Record<string, unknown>) => `${m.bucket}|${m.route}|${m.method}|${m.status_class}|${m.tenant}`;
  const byKey = new Map(all.map((m) => [key(m), m]));
  const main = byKey.get(`${T0}|/api/orders|POST|2xx|acme`)!;
  assert.is(main.requests, 2);
  assert.is(main.errors, 0);
  assert.is(main.tokens, 100 + 20);
  assert.is(main.duration_sum, 165);
  assert.is(main.b4, 1, '15 ms is in (10, 20]');
  assert.is(main.b7, 1, '150 ms is in (100, 200]');
  assert.is([...Array(16).keys()].reduce((s, i) => s + Number(main[`b${i}`]), 0), 2, 'bucket counts add up to requests');
  const errors = byKey.get(`${T0}|/api/orders|POST|5xx|acme`)!;
  assert.is(errors.errors, 1);
  assert.is(errors.b9, 1, '700 ms is in (500, 1000]');
  const unanswered = byKey.get(`${T0}|/api/orders|POST|error|acme`)!;
  assert.is(unanswered.errors, 1, 'status 0 is an error');
  assert.is(unanswered.b2, 1, '3 ms is in (2, 5]');
  assert.ok(byKey.has(`${T0 + MINUTE}|/api/orders|POST|2xx|acme`), 'next minute is its own row');
  assert.ok(byKey.has(`${T0}|/api/orders|POST|2xx|beta`));
  assert.ok(byKey.has(`${T0}|/api/orders|POST|2xx|`), 'no tenant label: empty tenant');
  assert.ok(byKey.has(`${T0}|/api/orders|GET|2xx|acme`));
  assert.ok(byKey.has(`${T0}|unmatched|POST|2xx|acme`));
  assert.is(ROLLUP_COLUMNS[ROLLUP.route], 'route');
  assert.is(ROLLUP_COLUMNS[ROLLUP.tenant], 'tenant');
  assert.is(ROLLUP_COLUMNS[ROLLUP.tokens], 'tokens');
});

test('foldRollups: rows come in one key order whatever the order of the records', () => {
  const records = ['c', 'a', 'b'].flatMap((tenant) => [record({ labels: { tenant } }), record({ labels: { tenant }, status: 500 })]);
  const keys = (rs: StorableRecord[]) => foldRollups(rs, 'tenant').map((r) => r.slice(0, 5).join('|'));
  const forward = keys(records);
  assert.equal(keys([...records].reverse()), forward);
  assert.equal(forward, [...forward].sort());
});

test('foldRollups: a NaN or negative duration counts as 0 ms instead of poisoning the sum', () => {
  const [row] = foldRollups([record({ duration_ms: NaN }), record({ duration_ms: -3 })], 'tenant').map(named);
  assert.is(row.duration_sum, 0);
  assert.is(row.b0, 2);
});

test.run();

// RecordWriter against the real store, on both backends.
for (const kind of kinds) {
  const writes = suite(`RecordWriter (${kind.name})`);

  writes.after(() => kind.cleanup());

  writes('rollups of later batches add to the stored minute instead of replacing it', async () => {
    const store = (await kind.open(await kind.fresh())).forPlugin('capture');
    await store.migrate(captureMigrations);
    const writer = new RecordWriter(store);
    const batch = (records: StorableRecord[]) => ({ rows: records.map(recordRow), rollups: foldRollups(records, 'tenant') });
    await writer.write(batch([record({ duration_ms: 15, tokens: 10 }), record({ duration_ms: 700, status: 502, tokens: 5 })]));
    await writer.write(batch([record({ duration_ms: 15, tokens: 1 })]));
    await writer.write(batch([]));
    const rows = await store.query<Record<string, unknown>>(
      'SELECT bucket, route, status_class, tenant, requests, errors, tokens, duration_sum, b4, b9 FROM capture_rollups ORDER BY status_class');
    assert.equal(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : v]))), [
      { bucket: T0, route: '/api/orders', status_class: '2xx', tenant: 'acme', requests: 2, errors: 0, tokens: 11, duration_sum: 30, b4: 2, b9: 0 },
      { bucket: T0, route: '/api/orders', status_class: '5xx', tenant: 'acme', requests: 1, errors: 1, tokens: 5, duration_sum: 700, b4: 0, b9: 1 },
    ]);
    const [{ n }] = await store.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM capture_records');
    assert.is(Number(n), 3);
  });

  writes('rule paths of later batches add to the stored hour; each record counts once per rule it matched', async () => {
    const store = (await kind.open(await kind.fresh())).forPlugin('capture');
    await store.migrate(captureMigrations);
    const writer = new RecordWriter(store);
    const batch = (records: StorableRecord[]) => ({ rows: records.map(recordRow), rollups: foldRollups(records, 'tenant'), rulePaths: foldRulePaths(records) });
    await writer.write(batch([record({ path: '/api/orders/1' }), record({ path: '/api/orders/2', matched_rules: [] })]));
    await writer.write(batch([record({ path: '/api/orders/3' })]));
    const rows = await store.query<{ bucket: number | string; rule: string; method: string; path: string; requests: number | string }>(
      'SELECT bucket, rule, method, path, requests FROM capture_rule_paths ORDER BY rule');
    assert.equal(rows.map((r) => [Number(r.bucket), r.rule, r.method, r.path, Number(r.requests)]), [
      [T0, '', 'POST', '/api/orders/{id}', 1],
      [T0, 'api', 'POST', '/api/orders/{id}', 2],
      [T0, 'orders', 'POST', '/api/orders/{id}', 2],
    ]);
  });

  writes('concurrent batches upserting the same minutes never deadlock', async () => {
    const store = (await kind.open(await kind.fresh())).forPlugin('capture');
    await store.migrate(captureMigrations);
    const writer = new RecordWriter(store);
    const tenants = Array.from({ length: 12 }, (_, i) => `t${i}`);
    const batches = Array.from({ length: 16 }, (_, b) => {
      const order = b % 2 === 0 ? tenants : [...tenants].reverse();
      const records = order.map((tenant) => record({ labels: { tenant } }));
      return { rows: records.map(recordRow), rollups: foldRollups(records, 'tenant') };
    });
    await Promise.all(batches.map((b) => writer.write(b)));
    const rows = await store.query<{ tenant: string; requests: number | string }>('SELECT tenant, requests FROM capture_rollups');
    assert.is(rows.length, tenants.length);
    for (const r of rows) assert.is(Number(r.requests), 16, r.tenant);
  });

  writes('records carry only the indexes a query reads: the id and the time (on SQLite, with the filtered columns)', async () => {
    const store = (await kind.open(await kind.fresh())).forPlugin('capture');
    await store.migrate(captureMigrations);
    const indexes = kind.name === 'postgres'
      ? await store.query<{ name: string }>("SELECT indexname AS name FROM pg_indexes WHERE tablename = 'capture_records' AND schemaname = current_schema()")
      : await store.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'capture_records'");
    const names = indexes.map((r) => r.name).sort();
    // Each index is paid on every insert; the primary key's is named by the database.
    assert.is(names.length, 2, names.join(', '));
    assert.not.ok(names.includes('capture_records_route_time'));
    if (kind.name === 'postgres') assert.ok(names.includes('capture_records_time'), names.join(', '));
    else {
      // A filtered page reads status, labels and route from the index entry, and the table only for a match.
      const columns = await store.query<{ name: string }>("SELECT name FROM pragma_index_info('capture_records_time_filters') ORDER BY seqno");
      assert.equal(columns.map((c) => c.name), ['time', 'status', 'labels', 'route']);
    }
  });

  writes('a record id written twice is stored once', async () => {
    const store = (await kind.open(await kind.fresh())).forPlugin('capture');
    await store.migrate(captureMigrations);
    const writer = new RecordWriter(store);
    const r = record({ id: 'same-id' });
    await writer.write({ rows: [recordRow(r)], rollups: foldRollups([r], 'tenant') });
    await writer.write({ rows: [recordRow({ ...r, status: 500 })], rollups: [] });
    const rows = await store.query<{ status: number; record: string }>('SELECT status, record FROM capture_records');
    assert.is(rows.length, 1);
    assert.is(rows[0].status, 200);
    assert.equal(JSON.parse(rows[0].record), parsed(r));
  });

  writes('metered values a BIGINT column would refuse still store (fraction, 1e300)', async () => {
    const store = (await kind.open(await kind.fresh())).forPlugin('capture');
    await store.migrate(captureMigrations);
    const writer = new RecordWriter(store);
    const records = [record({ tokens: 2.5, time: T0 + 0.5 }), record({ tokens: 1e300 })];
    await writer.write({ rows: records.map(recordRow), rollups: foldRollups(records, 'tenant') });
    const [{ tokens }] = await store.query<{ tokens: number | string }>('SELECT tokens FROM capture_rollups');
    assert.is(Number(tokens), 3 + MAX_TOKENS_PER_RECORD);
  });

  writes.run();
}
