import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Piscina } from 'piscina';
import type { PolicyConfig } from '../../../../policies/schema.js';
import { RECORD_COLUMNS, ROLLUP_COLUMNS } from '../../../../plugins/capture/record-writer.js';
import type { RawExchange } from '@vigil/plugin-sdk';
import { packExchanges } from '../../../../plugins/capture/exchange-batch.js';
import type { StoredRows, StoreRowsWorkerData } from '../../../../plugins/capture/types.js';
import { exchange, rawHeaders } from './capture-harness.js';

// The worker as capture runs it: a piscina thread that loads the redaction plugin's task module by URL.
const workerData: StoreRowsWorkerData = {
  governModule: new URL('../../../../plugins/redaction/govern-worker.js', import.meta.url).href,
  tenantLabel: 'customer',
};
const pool = new Piscina({ filename: new URL('../../../../plugins/capture/store-rows-worker.js', import.meta.url).href, workerData, maxThreads: 1 });
const run = ({ policy, exchanges }: { policy: PolicyConfig; exchanges: RawExchange[] }) => {
  const packed = packExchanges(exchanges);
  return pool.run({ policy, exchanges: packed }, { transferList: [packed.numbers.buffer, packed.bodies.buffer] }) as Promise<StoredRows>;
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
  assert.is(out.rows.length, 2);
  for (const row of out.rows) assert.is(row.length, RECORD_COLUMNS.length);
  const [first, second] = out.rows.map((row) => JSON.parse(row[row.length - 1] as string));
  assert.is(first.id, exchanges[0].id);
  assert.is(second.id, exchanges[1].id);
  assert.equal(first.request_body, { card: { number: '[REDACTED]', expiry: '12/29' } });
  assert.is(first.headers.Authorization, '[REDACTED]');
  assert.equal(first.query, { token: '[REDACTED]', page: '2' });
  assert.is(first.tokens, 40);
  assert.not.ok(out.rows[0].join('|').includes('4111111111111111'), 'no column holds the card number');
  assert.not.ok(out.rows[0].join('|').includes('s3cret'));

  // Rollups use the configured tenant label (`customer` here).
  assert.is(out.rollups.length, 2, 'one per status class');
  const rollups = out.rollups.map((r) => Object.fromEntries(ROLLUP_COLUMNS.map((c, i) => [c, r[i]])));
  assert.equal(rollups.map((r) => [r.status_class, r.tenant, r.requests, r.errors, r.tokens]).sort(),
    [['2xx', 'acme', 1, 0, 40], ['5xx', 'acme', 1, 1, 2]]);
});

test('an empty batch is empty rows', async () => {
  assert.equal(await run({ policy, exchanges: [] }), { rows: [], rollups: [], failed: 0, firstError: null, sandboxFailures: {} });
});

test('an exchange governance refuses costs only itself: the rest of the batch is stored, the refusal counted', async () => {
  const good = [exchange(policy, { target: '/api/orders/1' }), exchange(policy, { target: '/api/orders/2' })];
  const bad = exchange(policy, { ruleIndexes: [7], requestBody: { card: { number: '4111111111111111' } } });
  const out = await run({ policy, exchanges: [good[0], bad, good[1]] });
  assert.is(out.failed, 1);
  assert.match(out.firstError!, /rule index 7/);
  assert.equal(out.rows.map((r) => r[0]), [good[0].id, good[1].id]);
  assert.not.ok(JSON.stringify(out).includes('4111111111111111'), 'nothing of the refused exchange is returned');
  const requests = out.rollups.reduce((n, r) => n + (r[ROLLUP_COLUMNS.indexOf('requests')] as number), 0);
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
