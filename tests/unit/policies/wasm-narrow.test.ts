import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compilePolicy } from '../../../policies/compile.js';
import type { RuleConfig } from '../../../policies/schema.js';
import type { RouteDecision } from '../../../policies/merge.js';
import type { WasmDecision } from '../../../policies/wasm-decision.js';
import {
  narrow, narrowDecision, narrowLabels, failClosedDecision, failClosedReason, compileWasmJsonPath,
} from '../../../policies/wasm-narrow.js';
import { governExchange } from '../../../gateway/govern/govern.js';
import type { RawExchange } from '../../../gateway/govern/types.js';

const decide = (rules: RuleConfig[], target = '/api/pay') => compilePolicy({ rules }).decide('POST', target);

const locked = decide([{
  name: 'lock', match: { path: '/api/**' },
  restrict: ['request_body', 'headers'],
  redact: { headers: ['Authorization'], query_params: ['token'], json_fields: ['$.secret'] },
  labels: { team: 'header:X-Team' },
}]);
const open = decide([]);

// Everything a guest could ask for, including attempts to widen.
const everything: WasmDecision[] = [
  {},
  { restrict: [] },
  { restrict: ['response_body'] },
  { restrict: ['request_body', 'response_body', 'headers'] },
  { redact: { headers: ['X-Card'], query_params: ['PAN'], json_fields: ['$.card', '$.**.cvv'] } },
  { redact: { headers: [], query_params: [], json_fields: [] } },
  { labels: { team: 'hijacked', tenant: 'acme' } },
];

function assertNarrower(yaml: RouteDecision, out: RouteDecision): void {
  assert.ok(!out.captureRequestBody || yaml.captureRequestBody, 'request body never un-restricted');
  assert.ok(!out.captureResponseBody || yaml.captureResponseBody, 'response body never un-restricted');
  assert.ok(!out.captureHeaders || yaml.captureHeaders, 'headers never un-restricted');
  for (const h of yaml.redactHeaders) assert.ok(out.redactHeaders.has(h), `header ${h} still redacted`);
  for (const q of yaml.redactQuery) assert.ok(out.redactQuery.has(q), `query ${q} still redacted`);
  const paths = out.jsonFields.map((p) => p.expression);
  for (const p of yaml.jsonFields) assert.ok(paths.includes(p.expression), `json field ${p.expression} still redacted`);
  assert.equal(out.labels, yaml.labels);
  assert.equal(out.matchedRules, yaml.matchedRules);
  assert.is(out.sample, yaml.sample);
  assert.is(out.meterTokens, yaml.meterTokens);
}

test('no guest decision can un-restrict or un-redact anything the YAML decision holds', () => {
  for (const yaml of [locked, open]) {
    for (const wasm of everything) assertNarrower(yaml, narrowDecision(yaml, wasm));
  }
});

test('restrictions, header, query and JSON-field redactions are added', () => {
  const out = narrowDecision(open, { restrict: ['response_body'], redact: { headers: ['X-Card'], query_params: ['PAN'], json_fields: ['$.card'] } });
  assert.is(out.captureRequestBody, true);
  assert.is(out.captureResponseBody, false);
  assert.is(out.captureHeaders, true);
  assert.equal([...out.redactHeaders], ['x-card']);
  assert.equal([...out.redactQuery], ['pan']);
  assert.equal(out.jsonFields.map((p) => p.expression), ['$.card']);
  assert.equal(out.jsonFields[0].segments, [{ kind: 'key', name: 'card' }]);
});

test('the YAML decision is never mutated, and an empty guest decision returns it as is', () => {
  const before = { headers: [...locked.redactHeaders], fields: locked.jsonFields.map((p) => p.expression) };
  const out = narrowDecision(locked, { restrict: ['response_body'], redact: { headers: ['x-more'], json_fields: ['$.more'] } });
  assert.is.not(out, locked);
  assert.ok(Object.isFrozen(out));
  assert.equal([...locked.redactHeaders], before.headers);
  assert.equal(locked.jsonFields.map((p) => p.expression), before.fields);
  assert.is(locked.captureResponseBody, true);
  assert.is(narrowDecision(locked, {}), locked);
  assert.is(narrowDecision(locked, { labels: { a: 'b' } }), locked);
});

test('a JSON path the YAML policy already has is not added twice', () => {
  const out = narrowDecision(locked, { redact: { json_fields: ['$.secret', '$.card', '$.card'] } });
  assert.equal(out.jsonFields.map((p) => p.expression), ['$.secret', '$.card']);
});

test('labels are added, never overwritten or removed', () => {
  const existing = { team: 'payments', region: 'eu' };
  const out = narrowLabels(existing, { labels: { team: 'hijacked', tenant: 'acme' } });
  assert.equal(out, { team: 'payments', region: 'eu', tenant: 'acme' });
  assert.equal(existing, { team: 'payments', region: 'eu' });
  assert.equal(narrowLabels(existing, {}), existing);
  // An empty value is still a value: it is kept.
  assert.equal(narrowLabels({ team: '' }, { labels: { team: 'x' } }), { team: '' });
});

test('a label named __proto__ is an ordinary key, not a prototype change', () => {
  const wasm = JSON.parse('{"labels":{"__proto__":"x","ok":"y"}}') as WasmDecision;
  const out = narrowLabels({}, wasm);
  assert.is(Object.getPrototypeOf(out), Object.prototype);
  assert.equal(Object.keys(out).sort(), ['__proto__', 'ok']);
});

test('narrow returns both halves', () => {
  const { decision, labels } = narrow(open, { team: 'a' }, { restrict: ['headers'], labels: { tenant: 't', team: 'b' } });
  assert.is(decision.captureHeaders, false);
  assert.equal(labels, { team: 'a', tenant: 't' });
});

test('a failed call keeps no bodies and says why', () => {
  const closed = failClosedDecision(open);
  assert.is(closed.captureRequestBody, false);
  assert.is(closed.captureResponseBody, false);
  assert.is(closed.captureHeaders, true);
  assertNarrower(open, closed);
  const bodiesAlreadyOff = decide([{ name: 'x', match: { path: '/**' }, restrict: ['request_body', 'response_body'] }]);
  assert.is(failClosedDecision(bodiesAlreadyOff), bodiesAlreadyOff);
  assert.is(failClosedReason('timeout'), 'wasm policy failed (timeout): bodies not kept');
});

test('invalid guest paths do not compile', () => {
  assert.throws(() => compileWasmJsonPath('card'), /must start with "\$"/);
  assert.throws(() => compileWasmJsonPath('$.**'), /cannot end with/);
  assert.is(compileWasmJsonPath('$.a'), compileWasmJsonPath('$.a'), 'compiled once, then cached');
});

test('end to end: the governed record redacts the guest\'s field and everything the YAML redacts', () => {
  const yaml = decide([{ name: 'r', match: { path: '/api/**' }, redact: { headers: ['Authorization'], json_fields: ['$.secret'] } }]);
  const body = JSON.stringify({ secret: 's3', card: '4111111111111111', note: 'keep' });
  const exchange: RawExchange = {
    id: '1', time: 0, method: 'POST', target: '/api/pay?x=1', path: '/api/pay', ruleIndexes: [0], labels: {},
    requestHeaders: ['Authorization', 'Bearer t', 'Content-Type', 'application/json'], responseHeaders: [],
    status: 200, durationMs: 1, requestBody: new TextEncoder().encode(body), requestTruncated: false,
    responseBody: null, responseTruncated: false,
  };
  const record = governExchange(exchange, narrowDecision(yaml, { redact: { json_fields: ['$.card'] } }), { random: () => 0 });
  assert.equal(record.request_body, { secret: '[REDACTED]', card: '[REDACTED]', note: 'keep' });
  assert.is((record.headers as Record<string, string>).Authorization, '[REDACTED]');
});

test.run();
