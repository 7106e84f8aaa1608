import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { Piscina } from 'piscina';
import { WORKER_STORE_KEY } from '@vigil/plugin-sdk/worker';
import { captureMigrations } from '../../../../gateway/records/migrations.js';
import type { PolicyConfig } from '../../../../policies/schema.js';
import { RECORD_COLUMNS, ROLLUP_COLUMNS } from '../../../../gateway/records/record-writer.js';
import type { RawExchange } from '../../../../gateway/exchange/raw-exchange.js';
import { packExchanges } from '../../../../gateway/exchange/exchange-batch.js';
import { unpackRecords } from '../../../../gateway/records/record-batch.js';
import type { FlushedFields, StoredRows, StoreRowsWorkerData } from '../../../../gateway/records/lane-tasks.js';
import { exchange, rawHeaders } from '../../plugins/capture/capture-harness.js';
import { backendKinds } from '../../runtime/store/backend-kinds.js';

// Backends first: every suite must be queued before uvu starts running.
const kinds = await backendKinds('capture_store_rows_worker');

// The worker as capture runs it: a piscina thread that loads the redaction plugin's task module by URL. This pool
// has no store of its own (as with sqlite::memory:), so its rows come back; the suites below give it one.
const workerData: StoreRowsWorkerData = {
  tenantLabel: 'customer',
  recordFields: false,
  fieldsFlushMs: 30_000,
};
const pool = new Piscina({ filename: new URL('../../../../gateway/records/store-rows-worker.js', import.meta.url).href, workerData, maxThreads: 1 });
const run = ({ policy, exchanges }: { policy: PolicyConfig; exchanges: RawExchange[] }) => {
  const packed = packExchanges(exchanges);
  return pool.run({ policy: JSON.stringify(policy), exchanges: packed, withRecords: false }, { transferList: [packed.numbers.buffer as ArrayBuffer, packed.bodies.buffer as ArrayBuffer] }) as Promise<StoredRows>;
};

const policy: PolicyConfig = {
  rules: [{
    name: 'orders',
    match: { path: '/api/orders/**' },
    redact: { headers: ['authorization'], query_params: ['token'], json_fields: ['$.card.number'] },
    labels: { customer: 'header:X-Customer' },
    meter: { tokens: '$.usage.tokens' },
  }],
};

test.after(() => pool.destroy());

test('a batch comes back as record rows (governed JSON last) and rollup rows, in input order', async () => {
  const exchanges = [
    exchange(policy, {
      target: '/api/orders/1?token=s3cret&page=2',
      labels: { customer: 'acme' },
      requestHeaders: rawHeaders({ 'content-type': 'application/json', authorization: 'Bearer abc' }),
      requestBody: { card: { number: '4111111111111111', expiry: '12/29' } },
      responseBody: { usage: { tokens: 40 } },
    }),
    exchange(policy, { target: '/api/orders/2', labels: { customer: 'acme' }, status: 503, responseBody: { usage: { tokens: 2 } } }),
  ];
  const out = await run({ policy, exchanges });
  const rows = out.rows!;
  assert.is(rows.length, 2);
  assert.is(out.stored, 0, 'stored by the main thread, not here');
  for (const row of rows) assert.is(row.length, RECORD_COLUMNS.length);
  const [first, second] = rows.map((row) => JSON.parse(row[row.length - 1] as string));
  assert.is(first.id, exchanges[0].id);
  assert.is(second.id, exchanges[1].id);
  assert.equal(first.request_body, { card: { number: '[REDACTED]', expiry: '12/29' } });
  assert.is(first.headers.Authorization, '[REDACTED]');
  assert.equal(first.query, { token: '[REDACTED]', page: '2' });
  assert.is(first.tokens, 40);
  assert.not.ok(rows[0].join('|').includes('4111111111111111'), 'no column holds the card number');
  assert.not.ok(rows[0].join('|').includes('s3cret'));

  // Rollups use the configured tenant label (`customer` here).
  assert.is(out.rollups!.length, 2, 'one per status class');
  const rollups = out.rollups!.map((r) => Object.fromEntries(ROLLUP_COLUMNS.map((c, i) => [c, r[i]])));
  assert.equal(rollups.map((r) => [r.status_class, r.tenant, r.requests, r.errors, r.tokens]).sort(),
    [['2xx', 'acme', 1, 0, 40], ['5xx', 'acme', 1, 1, 2]]);
  assert.equal(out.tokens.sort(), [['/api/orders/**', 'acme', 2], ['/api/orders/**', 'acme', 40]]);
  // What each rule matched: one row per hour, rule, method and path shape.
  assert.equal(out.rulePaths!.map((r) => r.slice(1)), [['orders', 'POST', '/api/orders/{id}', 2]]);
  assert.is(out.records, undefined, 'records only when asked for');
});

test('a batch is governed by the policy it carries, not the one before it (the worker reuses a policy only while it is the same)', async () => {
  const card = { card: { number: '4111111111111111' } };
  const requestBodyUnder = async (p: PolicyConfig) => {
    const out = await run({ policy: p, exchanges: [exchange(p, { target: '/api/orders/1', requestBody: card })] });
    return JSON.parse(out.rows![0][RECORD_COLUMNS.length - 1] as string).request_body;
  };
  const unredacted: PolicyConfig = { rules: [{ ...policy.rules![0], redact: {} }] };
  assert.equal(await requestBodyUnder(policy), { card: { number: '[REDACTED]' } });
  assert.equal(await requestBodyUnder(unredacted), card);
  assert.equal(await requestBodyUnder(policy), { card: { number: '[REDACTED]' } });
});

test('an empty batch is empty rows', async () => {
  assert.equal(await run({ policy, exchanges: [] }), {
    stored: 0, storeFailed: 0, storeError: null, rows: [], rollups: [], rulePaths: [], tokens: [], failed: 0, firstError: null, sandboxFailures: {},
  });
});

test('an exchange governance refuses costs only itself: the rest of the batch is stored, the refusal counted', async () => {
  const good = [exchange(policy, { target: '/api/orders/1' }), exchange(policy, { target: '/api/orders/2' })];
  const bad = exchange(policy, { ruleIndexes: [7], requestBody: { card: { number: '4111111111111111' } } });
  const out = await run({ policy, exchanges: [good[0], bad, good[1]] });
  assert.is(out.failed, 1);
  assert.match(out.firstError!, /rule index 7/);
  assert.equal(out.rows!.map((r) => r[0]), [good[0].id, good[1].id]);
  assert.not.ok(JSON.stringify(out).includes('4111111111111111'), 'nothing of the refused exchange is returned');
  const requests = out.rollups!.reduce((n, r) => n + (r[ROLLUP_COLUMNS.indexOf('requests')] as number), 0);
  assert.is(requests, 2, 'rollups count only what is stored');
});

test('a policy governance cannot use refuses every exchange: all counted, none returned', async () => {
  const broken = { rules: [{ name: 'no-match' }] } as unknown as PolicyConfig;
  const out = await run({ policy: broken, exchanges: [exchange(policy), exchange(policy)] });
  assert.is(out.failed, 2);
  assert.ok(out.firstError);
  assert.equal(out.rows, []);
  assert.equal(out.rollups, []);
});

test.run();

// With a store of its own, as `store: true` pools get: the worker writes, and only counts come back.
for (const kind of kinds) {
  const own = suite(`${kind.name}: the worker stores through its own connection`);
  let stored: Piscina;
  let url: string;
  own.before(async () => {
    url = await kind.fresh();
    await (await kind.open(url)).forPlugin('capture').migrate(captureMigrations);
    stored = new Piscina({
      filename: new URL('../../../../gateway/records/store-rows-worker.js', import.meta.url).href, maxThreads: 1,
      workerData: { ...workerData, [WORKER_STORE_KEY]: { module: new URL('../../../../runtime/store/worker-store.js', import.meta.url).href, url, plugin: 'capture' } },
    });
  });
  own.after(async () => { await stored.destroy(); await kind.cleanup(); });

  own('records and rollups are in the database; the main thread gets counts, tokens and, when asked, the stored JSON with key fields', async () => {
    const exchanges = [
      exchange(policy, { target: '/api/orders/1', labels: { customer: 'acme' }, requestBody: { card: { number: '4111111111111111' } }, responseBody: { usage: { tokens: 7 } } }),
      exchange(policy, { target: '/api/orders/2', labels: { customer: 'acme' } }),
    ];
    const packed = packExchanges(exchanges);
    const out = await stored.run({ policy: JSON.stringify(policy), exchanges: packed, withRecords: true }) as StoredRows;
    assert.is(out.stored, 2);
    assert.is(out.storeFailed, 0);
    assert.is(out.rows, undefined, 'no rows travel back');
    assert.equal(out.tokens, [['/api/orders/**', 'acme', 7]]);
    const records = unpackRecords(out.records!);
    assert.equal(records.map((r) => r.id), exchanges.map((e) => e.id));
    assert.equal(records.map((r) => [r.method, r.path, r.status, r.route, r.labels, r.error]),
      [['POST', '/api/orders/1', 200, ['/api/orders/**'], { customer: 'acme' }, null], ['POST', '/api/orders/2', 200, ['/api/orders/**'], { customer: 'acme' }, null]]);

    const store = (await kind.open(url)).forPlugin('capture');
    const rows = await store.query<{ id: string; record: string }>('SELECT id, record FROM capture_records ORDER BY id');
    assert.equal(rows.map((r) => r.id), exchanges.map((e) => e.id).sort());
    for (const r of records) assert.is(r.json, rows.find((row) => row.id === r.id)!.record, 'the stored text, as it is');
    assert.not.ok(rows.some((r) => r.record.includes('4111111111111111')));
    assert.equal(await store.query('SELECT SUM(requests) AS n, SUM(tokens) AS t FROM capture_rollups'), [{ n: 2, t: 7 }]);
  });

  own('a store that fails to write is counted, and the records still come back for exporters', async () => {
    await (await kind.open(url)).run('DROP TABLE capture_rollups');
    const out = await stored.run({ policy: JSON.stringify(policy), exchanges: packExchanges([exchange(policy, { target: '/api/orders/3' })]), withRecords: true }) as StoredRows;
    assert.is(out.stored, 0);
    assert.is(out.storeFailed, 1);
    assert.match(out.storeError ?? '', /capture_rollups/);
    assert.is(out.records?.json.length, 1);
  });

  own.run();
}

// Field observations with a store of its own: the thread holds them across batches and writes them itself, on the
// lane's flush task or from a batch once its last write is fieldsFlushMs old; only overflow counts come back.
for (const kind of kinds) {
  const held = suite(`${kind.name}: the worker holds and writes its field observations`);
  let url: string;
  const pools: Piscina[] = [];
  const fieldPool = (fieldsFlushMs: number) => {
    const p = new Piscina({
      filename: new URL('../../../../gateway/records/store-rows-worker.js', import.meta.url).href, maxThreads: 1,
      workerData: {
        ...workerData, recordFields: 'full', fieldsFlushMs,
        [WORKER_STORE_KEY]: { module: new URL('../../../../runtime/store/worker-store.js', import.meta.url).href, url, plugin: 'capture' },
      },
    });
    pools.push(p);
    return p;
  };
  const batch = (p: Piscina, route: string, n: number) =>
    p.run({ policy: JSON.stringify(policy), exchanges: packExchanges(Array.from({ length: n }, (_, i) => exchange(policy, { target: `/api/orders/${route}/${i}` }))), withRecords: false }) as Promise<StoredRows>;
  const exchanges = async (route: string) => {
    const rows = await (await kind.open(url)).forPlugin('capture').query<{ count: number }>(
      "SELECT count FROM capture_fields WHERE route = ? AND location = 'exchange'", [`POST /api/orders/${route}/{id}`]);
    return rows.reduce((n, r) => n + Number(r.count), 0);
  };
  held.before(async () => {
    url = await kind.fresh();
    await (await kind.open(url)).forPlugin('capture').migrate(captureMigrations);
  });
  held.after(async () => { await Promise.all(pools.map((p) => p.destroy())); await kind.cleanup(); });

  held('batches send back only overflow counts; the flush task writes what the thread added up', async () => {
    const p = fieldPool(3_600_000);
    for (const n of [3, 4]) {
      const out = await batch(p, 'held', n);
      assert.is(out.fields, undefined, 'no observation crosses to the main thread');
      assert.equal(out.fieldOverflow, { route: 0, total: 0 });
    }
    assert.is(await exchanges('held'), 0, 'held until the flush');
    assert.equal(await p.run({ flushFields: true }) as FlushedFields, { fieldOverflow: { route: 0, total: 0 } });
    assert.is(await exchanges('held'), 7);
    await p.run({ flushFields: true });
    assert.is(await exchanges('held'), 7, 'a second flush has nothing left to add');
  });

  held('a batch writes them itself once the thread\'s last write is fieldsFlushMs old', async () => {
    const p = fieldPool(0);
    await batch(p, 'due', 5);
    assert.is(await exchanges('due'), 5);
  });

  held.run();
}
