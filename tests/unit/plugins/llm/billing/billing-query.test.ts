import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { billingMonth, limitUsage, worst } from '../../../../../plugins/llm/billing/billing-query.js';
import { decodeCursor, encodeCursor } from '../../../../../plugins/llm/billing/usage-events.js';

test('a month is its UTC bounds, December into January', () => {
  assert.equal(billingMonth('2026-12'), { month: '2026-12', from: Date.UTC(2026, 11, 1), to: Date.UTC(2027, 0, 1) });
  assert.is(billingMonth('2024-02').to - billingMonth('2024-02').from, 29 * 86_400_000);
});

test('a limit is ok below 80 %, near from 80 %, over at 100 %; none without a limit', () => {
  assert.equal(limitUsage('items_per_month', 799, 1000).state, 'ok');
  assert.equal(limitUsage('items_per_month', 800, 1000), { name: 'items_per_month', used: 800, limit: 1000, ratio: 0.8, state: 'near' });
  assert.equal(limitUsage('monthly_usd', 20, 20).state, 'over');
  assert.equal(limitUsage('monthly_usd', 3, null), { name: 'monthly_usd', used: 3, limit: null, ratio: null, state: 'none' });
  assert.equal([limitUsage('items_per_month', 1, 0).state, limitUsage('items_per_month', 1, 0).ratio], ['over', 1], 'a limit of 0 with use is over');
  assert.is(worst(['ok', 'none', 'near']), 'near');
  assert.is(worst([]), 'none');
});

test('the export cursor comes back as written; anything else is refused', () => {
  const c = { day: 20_000, project: '0190f3a2-7c4d-7b1e-9a3f-2c1d4e5f6a7b', arrived: 20_001 };
  assert.equal(decodeCursor(encodeCursor(c)), c);
  for (const bad of ['nonsense', Buffer.from('[1,2,3]').toString('base64url'), Buffer.from('{"day":1}').toString('base64url'), Buffer.from('[1.5,"p",2]').toString('base64url')]) {
    assert.is(decodeCursor(bad), null, bad);
  }
});

test.run();
