import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Piscina } from 'piscina';
import governBatch from '../../../../plugins/redaction/govern-worker.js';
import { compilePolicy } from '../../../../policies/compile.js';
import type { PolicyConfig } from '../../../../policies/schema.js';
import type { GovernedRecord, GovernTask, RawExchange } from '../../../../plugins/redaction/types.js';
import { RedactionError } from '../../../../plugins/redaction/errors.js';

const policy: PolicyConfig = {
  service: { upstream: 'http://127.0.0.1:1' },
  rules: [
    { name: 'all', match: { path: '/**' }, redact: { headers: ['Authorization'] } },
    { name: 'pay', match: { path: '/pay/**' }, redact: { json_fields: ['$.card.number'] } },
    { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body'] },
  ],
};

function exchange(id: string, target: string, body: unknown): RawExchange {
  const decision = compilePolicy(policy).decide('POST', target);
  return {
    id, time: 1, method: 'POST', target, path: target, ruleIndexes: [...decision.ruleIndexes], labels: {},
    requestHeaders: ['Authorization', 'Bearer s', 'Content-Type', 'application/json'], responseHeaders: [],
    status: 200, durationMs: 1, requestBody: Buffer.from(JSON.stringify(body)), requestTruncated: false,
    responseBody: null, responseTruncated: false,
  };
}

const batch = (): RawExchange[] => [
  exchange('a', '/pay/1', { card: { number: '4111111111111111' }, n: 1 }),
  exchange('b', '/admin/1', { secret: 1 }),
  exchange('c', '/other', { x: 1 }),
];

function check(records: GovernedRecord[]) {
  assert.equal(records.map((r) => r.id), ['a', 'b', 'c']);
  assert.equal(records[0].request_body, { card: { number: '[REDACTED]' }, n: 1 });
  assert.equal(records[0].matched_rules, ['all', 'pay']);
  assert.is(records[1].request_body, null);
  assert.equal(records[2].request_body, { x: 1 });
  for (const r of records) assert.equal(r.headers?.Authorization, '[REDACTED]');
}

test('governs a batch in order, each exchange by its rule indexes', () => {
  check(governBatch({ policy, exchanges: batch() }));
});

test('the same policy content is compiled once, whatever the object identity', () => {
  const a = governBatch({ policy: structuredClone(policy), exchanges: batch() });
  const b = governBatch({ policy: structuredClone(policy), exchanges: batch() });
  check(a);
  check(b);
});

test('a different policy gives different records', () => {
  const open: PolicyConfig = { rules: [{ name: 'x', match: { path: '/nothing' } }, { name: 'y', match: { path: '/nothing2' } }, { name: 'z', match: { path: '/n' } }] };
  const [r] = governBatch({ policy: open, exchanges: [exchange('a', '/pay/1', { card: { number: '4111' } })] });
  // The indexes came from the other policy; here they name rules that redact nothing.
  assert.equal(r.request_body, { card: { number: '4111' } });
});

test('a malformed task or indexes not in the policy are rejected with a coded error', () => {
  assert.throws(() => governBatch({} as GovernTask), (e: unknown) => e instanceof RedactionError && e.code === 'VIGIL_ERR_REDACTION_TASK');
  const bad = exchange('z', '/pay/1', {});
  bad.ruleIndexes = [7];
  assert.throws(() => governBatch({ policy, exchanges: [bad] }), /exchange z: decisionFor: rule index 7/);
});

test('runs as a piscina task module: records come back through structured clone', async () => {
  const pool = new Piscina({ filename: new URL('../../../../plugins/redaction/govern-worker.js', import.meta.url).href, minThreads: 1, maxThreads: 1 });
  try {
    const records = await pool.run({ policy, exchanges: batch() } satisfies GovernTask) as GovernedRecord[];
    check(records);
  } finally {
    await pool.destroy();
  }
});

test.run();
