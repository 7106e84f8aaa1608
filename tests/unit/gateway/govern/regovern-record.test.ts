// The agent's policy as a floor under received records: every kind of redaction the policy has, applied over what a
// middleware with another policy sent; the marker stays the marker; a record governed by the same policy comes out
// unchanged (no flag); what cannot be governed is never kept in clear.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { recordJson, type GovernedRecord } from '../../../../gateway/records/governed-record.js';
import type { RegovernedRecord } from '../../../../gateway/govern/govern-task.js';
import { compilePolicy } from '../../../../policies/compile.js';
import type { RuleConfig } from '../../../../policies/schema.js';
import { governExchange } from '../../../../gateway/govern/govern.js';
import { MAX_MASKED_LISTED, regovernRecord } from '../../../../gateway/govern/regovern-record.js';
import type { RawExchange } from '../../../../gateway/govern/types.js';

const R = '[REDACTED]';
const RULES: RuleConfig[] = [
  { name: 'all', match: { path: '/**' }, labels: { tenant: 'header:X-Tenant', who: 'header:Authorization' }, redact: { headers: ['Authorization', 'cookie'], query_params: ['Token'] } },
  { name: 'users', match: { path: '/api/users/**' }, redact: { json_fields: ['$.password', '$.**.secret', '$.items[*].pin'], detect: ['card_number', 'email'] } },
  { name: 'admin', match: { path: '/admin/**' }, restrict: ['request_body', 'response_body', 'headers'] },
  { name: 'uploads', match: { path: '/api/uploads/**' }, restrict: ['request_body', 'headers'] },
  { name: 'notes', match: { path: '/api/notes/**' }, redact: { detect: ['card_number', 'email'] } },
];
const policy = compilePolicy({ rules: RULES });

function sent(over: Partial<GovernedRecord> = {}): GovernedRecord {
  return {
    id: '0190b6a0-0000-7000-8000-000000000001', time: 1_700_000_000_000, method: 'POST', path: '/api/users/1', route: ['/**'],
    query: {}, status: 200, duration_ms: 2, headers: { 'Content-Type': 'application/json' }, response_headers: null,
    request_body: null, response_body: null, labels: {}, matched_rules: ['all'], tokens: 7, sampled: true, truncated: false,
    partial: false, dropped_reason: null, error: null, ...over,
  };
}

/** The record as stored (parsed from the stored JSON), or 'restricted'. */
function floor(r: GovernedRecord): (GovernedRecord & { reasons: string[] }) | 'restricted' {
  const out: RegovernedRecord = regovernRecord(r, policy.decide(r.method, r.path.split('?')[0]));
  if (out.restricted) return 'restricted';
  return { ...(JSON.parse(recordJson(out.record)) as GovernedRecord), reasons: [...out.reasons].sort() };
}
const stored = (r: GovernedRecord) => {
  const out = floor(r);
  if (out === 'restricted') throw new Error('restricted');
  return out;
};

test('headers: every value under a redacted name, whatever its case, blanks or repetition; other headers kept', () => {
  const out = stored(sent({
    headers: { AUTHORIZATION: 'Bearer a', ' Cookie ': ['a=1', 'b=2'], Accept: 'x/y' },
    response_headers: { cookie: 'c=3', 'Content-Type': 'application/json' },
  }));
  assert.equal(out.headers, { AUTHORIZATION: R, ' Cookie ': [R, R], Accept: 'x/y' });
  assert.equal(out.response_headers, { cookie: R, 'Content-Type': 'application/json' });
  assert.equal(out.reasons, ['header']);
  assert.equal(out.agent_masked, ['headers.AUTHORIZATION', 'headers. Cookie ', 'response_headers.cookie']);
});

test('query: names matched decoded and case-insensitively; a query left in the path is governed and moved out', () => {
  const out = stored(sent({ path: '/api/users/2?TOKEN=t2&%74oken=t3&page=1', query: { token: ['t0', 't1'], q: 'x', '%74oken': 't4' } }));
  assert.is(out.path, '/api/users/2');
  assert.equal(out.query, { token: [R, R, R], q: 'x', '%74oken': R, TOKEN: R, page: '1' });
  assert.equal(out.reasons, ['query_param']);
  assert.equal(out.agent_masked, ['query.token', 'query.%74oken', 'query.TOKEN'], 'the path is listed only when a detector masks it');
});

test('labels: one read from a redacted header, or holding a redacted header\'s value under any name, holds the marker', () => {
  const out = stored(sent({ headers: { Authorization: 'Bearer zz', 'X-Tenant': 'acme' }, labels: { who: 'Bearer zz', copy: 'Bearer zz', tenant: 'acme' } }));
  assert.equal(out.labels, { who: R, copy: R, tenant: 'acme' });
  const named = stored(sent({ headers: { Authorization: R }, labels: { who: 'from-an-old-policy' } }));
  assert.equal(named.labels, { who: R }, 'by the policy\'s own label source, even with the header already masked');
});

test('JSON paths of both bodies, in nested objects and arrays; a masked value stays masked', () => {
  const out = stored(sent({
    request_body: { password: 'p', deep: { secret: { x: 1 } }, items: [{ pin: 1, sku: 'a' }, { pin: 2 }], keep: 'k' },
    response_body: { password: R, echo: { secret: 's' } },
  }));
  assert.equal(out.request_body, { password: R, deep: { secret: R }, items: [{ pin: R, sku: 'a' }, { pin: R }], keep: 'k' });
  assert.equal(out.response_body, { password: R, echo: { secret: R } });
  assert.equal(out.reasons, ['json_field']);
  assert.equal(out.agent_masked, [
    'request_body.$.password', 'request_body.$.deep.secret', 'request_body.$.items[0].pin', 'request_body.$.items[1].pin',
    'response_body.$.echo.secret',
  ]);
});

test('detectors everywhere a value can be: path, query, headers, labels, bodies (keys too), dropped_reason and error', () => {
  const card = '4111 1111 1111 1111';
  const email = 'ann@example.com';
  const out = stored(sent({
    path: `/api/notes/${email}`, query: { q: card }, headers: { 'X-Card': card }, labels: { tenant: email },
    request_body: { note: `card ${card}`, [email]: 1 }, response_body: `text with ${email}`,
    dropped_reason: `response_body: was ${card}`, error: email,
  }));
  const text = JSON.stringify(out);
  assert.not.ok(text.includes(card) || text.includes(email), text);
  assert.is(out.path, `/api/notes/${R}`);
  assert.equal(out.request_body, { note: `card ${R}`, [R]: 1 });
  assert.is(out.response_body, `text with ${R}`);
  assert.is(out.dropped_reason, `response_body: was ${R}`);
  assert.equal(out.reasons, ['detector']);
  assert.equal(out.agent_masked, [
    'path', 'query.q', 'headers.X-Card', 'labels.tenant', 'request_body.$.note', `request_body.$["${R}"]`, 'response_body.$', 'dropped_reason', 'error',
  ]);
});

test('a body the JSON paths cannot reach is dropped, with the reason; the rest of the record is kept', () => {
  const text = stored(sent({ request_body: '{"password":"hunter2"}', response_body: { ok: 1 }, dropped_reason: 'earlier' }));
  assert.is(text.request_body, null);
  assert.equal(text.response_body, { ok: 1 });
  assert.match(text.dropped_reason!, /^earlier; request_body: text where the agent's json_fields redaction applies/);
  assert.equal(text.reasons, ['body_dropped']);
  assert.equal(text.agent_masked, ['request_body']);
  let deep: unknown = { password: 'p' };
  for (let i = 0; i < 300; i++) deep = { d: deep };
  const tooDeep = stored(sent({ request_body: deep }));
  assert.is(tooDeep.request_body, null);
  assert.match(tooDeep.dropped_reason!, /request_body: JSON nested deeper than 256 levels/);
});

test('a body that is the marker whole (json_fields: [$]) is kept as it is, not dropped as text', () => {
  const out = stored(sent({ request_body: R, response_body: { password: 'p' } }));
  assert.is(out.request_body, R);
  assert.equal(out.response_body, { password: R });
  assert.is(out.dropped_reason, null);
  assert.equal(out.reasons, ['json_field']);
  assert.equal(out.agent_masked, ['response_body.$.password']);
});

test('a sent body text is trusted only as far as it must be: a scalar must be the value, a document is governed itself', () => {
  const d = policy.decide('POST', '/api/users/1');
  const scalar = regovernRecord(sent({ request_body: R }), d, { request_body: '"hunter2"' });
  assert.ok(!scalar.restricted);
  assert.is(scalar.record.request_body_json, JSON.stringify(R));
  const doc = regovernRecord(sent({ request_body: { ok: 1 } }), d, { request_body: '{ "password" : "hunter2" }' });
  assert.ok(!doc.restricted);
  assert.is(doc.record.request_body_json, '{ "password" : "[REDACTED]" }');
  const kept = regovernRecord(sent({ response_body: 'text, 1.0' }), d, { response_body: ' "text, 1.0" ' });
  assert.ok(!kept.restricted);
  assert.is(kept.record.response_body_json, 'null', 'text where json_fields apply is dropped');
});

test('a body nested past what can be walked at all keeps the metadata only', () => {
  let deep: unknown = 'x';
  for (let i = 0; i < 200_000; i++) deep = [deep];
  const out = stored(sent({ path: '/api/other', headers: { Authorization: 'Bearer a' }, labels: { tenant: 'acme' }, response_body: deep }));
  assert.is(out.response_body, null);
  assert.is(out.headers, null);
  assert.equal(out.labels, {});
  assert.match(out.dropped_reason!, /the agent could not govern this record/);
  assert.equal(out.reasons, ['govern_failed']);
  assert.equal(out.agent_masked, ['headers', 'labels', 'response_body']);
  assert.is(out.tokens, 7);
});

test('restricted parts are emptied; a route whose every part is restricted is not stored', () => {
  const upload = stored(sent({ path: '/api/uploads/1', headers: { A: 'b' }, request_body: { file: 'x' }, response_body: { id: 1 } }));
  assert.is(upload.headers, null);
  assert.is(upload.request_body, null);
  assert.equal(upload.response_body, { id: 1 });
  assert.equal(upload.reasons, ['restrict']);
  assert.equal(upload.agent_masked, ['headers', 'request_body']);
  assert.is(floor(sent({ path: '/admin/x' })), 'restricted');
  assert.is(floor(sent({ method: 'GET', path: '/ADMIN/./x' })), 'restricted', 'the path is folded as the proxy folds it');
});

test('a record governed by the same policy is stored exactly as sent, with no flag', () => {
  const decision = policy.decide('POST', '/api/users/9?token=t&q=1');
  const exchange: RawExchange = {
    id: 'x', time: 1, method: 'POST', target: '/api/users/9?token=t&q=1', path: '/api/users/9', ruleIndexes: decision.ruleIndexes as number[],
    labels: { tenant: 'acme', who: 'Bearer q' },
    requestHeaders: ['Content-Type', 'application/json', 'Authorization', 'Bearer q', 'X-Tenant', 'acme', 'Cookie', 'a=1'],
    responseHeaders: ['Content-Type', 'application/json'], status: 200, durationMs: 1,
    requestBody: Buffer.from(JSON.stringify({ password: 'p', note: 'card 4111111111111111', items: [{ pin: 1 }], mail: 'a@b.example' })),
    requestTruncated: false, responseBody: Buffer.from('{"secret":{"a":[1,2]},"ok":true}'), responseTruncated: false,
  };
  const governed = governExchange(exchange, decision, { random: () => 0 });
  const out = regovernRecord(governed, policy.decide('POST', governed.path));
  assert.ok(!out.restricted);
  assert.equal(out.reasons, []);
  assert.is(recordJson(out.record), JSON.stringify(governed));
});

test('the list of places is bounded', () => {
  const headers: Record<string, string> = {};
  for (let i = 0; i < 100; i++) headers[`Authorization${i === 0 ? '' : ' '.repeat(i)}`] = `v${i}`;
  const out = stored(sent({ headers }));
  assert.is(out.agent_masked!.length, MAX_MASKED_LISTED + 1);
  assert.is(out.agent_masked!.at(-1), '…');
  assert.ok(Object.values(out.headers!).every((v) => v === R));
});

test.run();
