// The example policies in examples/policies/, built with `buildPolicy` and run through createWasmPolicy.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { buildPolicy } from '../../../sandbox/wasm/build-policy.js';
import { createWasmPolicy, type WasmPolicy } from '../../../policies/wasm-policy.js';
import { buildPolicyView, type PolicyView } from '../../../policies/wasm-view.js';
import { narrow } from '../../../policies/wasm-narrow.js';
import { compilePolicy } from '../../../policies/compile.js';
import { governExchange } from '../../../gateway/govern/govern.js';
import type { RawExchange } from '../../../gateway/govern/types.js';
import { fromRoot } from '../../support/paths.js';
import { tempDir } from '../../support/tmp.js';

const dir = tempDir('vigil-example-policies-');
let cards: WasmPolicy;
let tenants: WasmPolicy;

test.before(async () => {
  const [cardWasm, jwtWasm] = await Promise.all([
    buildPolicy(fromRoot('examples/policies/card-numbers.ts'), { outFile: join(dir.path, 'card-numbers.wasm') }),
    buildPolicy(fromRoot('examples/policies/jwt-tenant.ts'), { outFile: join(dir.path, 'jwt-tenant.wasm') }),
  ]);
  cards = await createWasmPolicy({ module: cardWasm, callTimeoutMs: 5000 });
  tenants = await createWasmPolicy({ module: jwtWasm, callTimeoutMs: 5000 });
});
test.after(async () => {
  await cards.close();
  await tenants.close();
  dir.cleanup();
});

const withBodies = (requestJson: unknown, responseJson?: unknown, labels: Record<string, string> = {}): PolicyView =>
  buildPolicyView({
    method: 'POST', path: '/pay', target: '/pay', requestHeaders: [], status: 200, labels, matchedRules: [],
    requestJson, responseJson,
  });

test('card-numbers: redacts card-shaped values by issuer, length and Luhn, in both bodies', async () => {
  const [decision] = await cards.decide([withBodies({
    visa: '4111 1111 1111 1111',
    visa13: '4222222222222',
    mastercard: '5555-5555-5555-4444',
    mastercard2: '2221000000000009',
    amex: 378282246310005,
    discover: '6011111111111117',
    jcb: '3530111333300000',
    diners: '30569309025904',
    unionpay: '6200000000000005',
    nested: { items: [{ pan: '4111111111111111' }] },
    'odd key': '4111111111111111',
  }, { echo: { card: '5555555555554444' } })]);
  assert.equal(decision.redact?.json_fields, [
    '$.visa', '$.visa13', '$.mastercard', '$.mastercard2', '$.amex', '$.discover', '$.jcb', '$.diners', '$.unionpay',
    '$.nested.items[0].pan', "$['odd key']", '$.echo.card',
  ]);
});

test('card-numbers: timestamps, order numbers and near misses are left alone', async () => {
  const [decision] = await cards.decide([withBodies({
    createdMs: 1700000000004, // 13 digits, Luhn-valid, but no issuer starts with 1
    createdText: '1700000000004',
    orderNo: '1234567812345670', // Luhn-valid, no issuer
    badLuhn: '4111111111111112',
    visaWrongLength: '41111111111111', // 14 digits: Visa issues 13, 16 or 19
    amexWrongLength: '3782822463100050',
    tooLong: '41111111111111111111',
    letters: '4111 1111 1111 111a',
    leadingSep: ' 4111111111111111',
    doubleSep: '4111  1111 1111 1111',
    trailingSep: '4111-1111-1111-1111-',
    decimal: 4111111111111111.5,
    negative: -4111111111111111,
    phone: '+1 555 0100',
  })]);
  assert.equal(decision, {});
});

test('card-numbers: many views per batch, one decision each', async () => {
  const views = Array.from({ length: 300 }, (_, i) => withBodies(i % 3 === 0 ? { card: '4111111111111111' } : { id: i }));
  const decisions = await cards.decide(views);
  assert.is(decisions.length, 300);
  decisions.forEach((d, i) => assert.equal(d, i % 3 === 0 ? { redact: { json_fields: ['$.card'] } } : {}, `view ${i}`));
});

test('card-numbers end to end: a card in a field no YAML rule names is stored as [REDACTED]', async () => {
  const policy = compilePolicy({ rules: [{ name: 'api', match: { path: '/**' }, redact: { json_fields: ['$.secret'] } }] });
  const yaml = policy.decide('POST', '/pay');
  const body = { order: { payment: { number: '4111 1111 1111 1111' } }, secret: 'x', memo: 'lunch' };
  const exchange: RawExchange = {
    id: 'e1', time: 0, method: 'POST', target: '/pay', path: '/pay', ruleIndexes: [...yaml.ruleIndexes], labels: {},
    requestHeaders: ['Content-Type', 'application/json'], responseHeaders: null, status: 200, durationMs: 1,
    requestBody: new TextEncoder().encode(JSON.stringify(body)), requestTruncated: false,
    responseBody: null, responseTruncated: false,
  };
  const [wasm] = await cards.decide([withBodies(body)]);
  const { decision } = narrow(yaml, exchange.labels, wasm);
  const record = governExchange(exchange, decision, { random: () => 0 });
  assert.equal(record.request_body, { order: { payment: { number: '[REDACTED]' } }, secret: '[REDACTED]', memo: 'lunch' });
  // The exchange itself (what the client and the upstream saw) is untouched.
  assert.match(new TextDecoder().decode(exchange.requestBody!), /4111 1111 1111 1111/);
});

const token = (claims: unknown) => [
  Buffer.from('{"alg":"RS256"}').toString('base64url'),
  Buffer.from(typeof claims === 'string' ? claims : JSON.stringify(claims)).toString('base64url'),
  'signature-not-checked',
].join('.');

const withAuth = (authorization: string | null, labels: Record<string, string> = {}): PolicyView => buildPolicyView({
  method: 'GET', path: '/', target: '/', requestHeaders: authorization === null ? [] : ['Authorization', authorization],
  status: 200, labels, matchedRules: [],
});

test('jwt-tenant: the tenant label comes from tenant, else org, else sub', async () => {
  const decisions = await tenants.decide([
    withAuth(`Bearer ${token({ sub: 'user-1', org: 'org-1', tenant: 'acmé' })}`),
    withAuth(`Bearer ${token({ sub: 'user-1', org: 'org-1' })}`),
    withAuth(`bearer ${token({ sub: 'user-1' })}`),
    withAuth(`Bearer ${token({ tenant: 42 })}`),
    withAuth(`Bearer ${token({ tenant: 'x'.repeat(200), sub: 'fallback' })}`),
  ]);
  assert.equal(decisions.map((d) => d.labels?.tenant), ['acmé', 'org-1', 'user-1', '42', 'fallback']);
});

test('jwt-tenant: no label without a usable token; malformed tokens never fail the batch', async () => {
  const decisions = await tenants.decide([
    withAuth(null),
    withAuth('Basic dXNlcjpwYXNz'),
    withAuth('Bearer not-a-jwt'),
    withAuth(`Bearer ${token('{"tenant": ')}`),
    withAuth(`Bearer ${token('[1,2]')}`),
    withAuth('Bearer a.!!!.c'),
    withAuth(`Bearer ${token({ other: 'claim' })}`),
    withAuth(`Bearer ${token({ tenant: 'from-token' })}`, { tenant: 'from-yaml' }),
    withAuth(`Bearer ${token({ tenant: 'ok' })}`),
  ]);
  assert.equal(decisions.slice(0, 8), Array(8).fill({}));
  assert.equal(decisions[8], { labels: { tenant: 'ok' } });
});

test.run();
