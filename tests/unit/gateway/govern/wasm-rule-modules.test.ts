import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gzipSync } from 'node:zlib';
import { compilePolicy } from '../../../../policies/compile.js';
import type { RuleConfig } from '../../../../policies/schema.js';
import type { WasmDecision } from '../../../../policies/wasm-decision.js';
import type { WasmPolicy } from '../../../../policies/wasm-policy.js';
import type { PolicyView } from '../../../../policies/wasm-view.js';
import { WasmCallError, WasmSandboxUnavailableError } from '../../../../sandbox/wasm/errors.js';
import type { RawExchange } from '../../../../gateway/govern/types.js';
import { toGovernedRecord } from '../../../../gateway/govern/govern.js';
import {
  applyWasmModules, governedJsonBody, governNarrowed, modulesFor, modulesInRuleOrder,
} from '../../../../gateway/govern/wasm-rule-modules.js';

const rules: RuleConfig[] = [
  { name: 'all', match: { path: '/**' }, labels: { tenant: 'header:X-Tenant' }, redact: { json_fields: ['$.cvc'] } },
  { name: 'pay', match: { path: '/pay/**' }, wasm: '/m/a.wasm' },
  { name: 'admin', match: { path: '/admin/**' }, wasm: '/m/b.wasm', restrict: ['response_body'] },
  { name: 'pay-again', match: { path: '/pay/**' }, wasm: '/m/a.wasm' },
  { name: 'both', match: { path: '/**/both' }, wasm: '/m/b.wasm' },
];
const policy = compilePolicy({ rules });

function exchange(target: string, body: unknown = { pan: '4111111111111111', cvc: '123' }, headers: string[] = ['Content-Type', 'application/json']): RawExchange {
  const d = policy.decide('POST', target);
  return {
    id: target, time: 1, method: 'POST', target, path: target, ruleIndexes: [...d.ruleIndexes], labels: { tenant: 'acme' },
    requestHeaders: headers, responseHeaders: ['Content-Type', 'application/json'], status: 200, durationMs: 1,
    requestBody: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), requestTruncated: false,
    responseBody: Buffer.from('{"ok":true}'), responseTruncated: false,
  };
}
const item = (e: RawExchange) => ({ exchange: e, decision: policy.decisionFor(e.ruleIndexes), modules: modulesFor(rules, e.ruleIndexes) });

/** A policy answering each view with `answer(view)`, recording the views of each call. */
function fake(answer: (view: PolicyView) => WasmDecision | Error): WasmPolicy & { calls: PolicyView[][] } {
  const calls: PolicyView[][] = [];
  return {
    calls,
    decide: async () => { throw new Error('not used'); },
    async decideSettled(views) {
      calls.push([...views]);
      const out = views.map(answer);
      // One guest call: a failure covers every view of it.
      const failure = out.find((o) => o instanceof Error);
      return failure ? views.map(() => failure as WasmCallError) : (out as WasmDecision[]);
    },
    close: async () => {},
  };
}

test('modules run in rule order, each once, on the requests its rules match', () => {
  assert.equal(modulesInRuleOrder(rules), ['/m/a.wasm', '/m/b.wasm']);
  assert.equal(modulesFor(rules, policy.decide('GET', '/pay/1').ruleIndexes), ['/m/a.wasm'], 'named by two matching rules, applied once');
  assert.equal(modulesFor(rules, policy.decide('GET', '/admin/both').ruleIndexes), ['/m/b.wasm']);
  assert.equal(modulesFor(rules, policy.decide('GET', '/pay/both').ruleIndexes), ['/m/a.wasm', '/m/b.wasm']);
  assert.equal(modulesFor(rules, policy.decide('GET', '/other').ruleIndexes), []);
});

test('each module sees only its requests, one call per batch; the next module sees what the previous one left', async () => {
  const a = fake(() => ({ redact: { json_fields: ['$.pan'] }, labels: { by_a: 'yes' } }));
  const b = fake((v) => ({ labels: { saw_a: v.labels.by_a ?? 'no' }, restrict: ['request_body'] }));
  const items = [exchange('/pay/1'), exchange('/admin/1'), exchange('/other'), exchange('/pay/both')].map(item);
  const out = await applyWasmModules(items, modulesInRuleOrder(rules), async (m) => (m === '/m/a.wasm' ? a : b));
  assert.equal(a.calls.map((c) => c.map((v) => v.path)), [['/pay/1', '/pay/both']]);
  assert.equal(b.calls.map((c) => c.map((v) => v.path)), [['/admin/1', '/pay/both']]);
  assert.equal(out.map((o) => o.labels), [
    { tenant: 'acme', by_a: 'yes' },
    { tenant: 'acme', saw_a: 'no' },
    { tenant: 'acme' },
    { tenant: 'acme', by_a: 'yes', saw_a: 'yes' },
  ]);
  assert.is(out[2].decision, items[2].decision, 'no module: the YAML decision itself');
  assert.equal(out[3].decision.jsonFields.map((p) => p.expression), ['$.cvc', '$.pan']);
  assert.is(out[3].decision.captureRequestBody, false);
  assert.ok(out.every((o) => o.failures.length === 0));
});

test('a guest failure fails its requests closed, and only those; a module that cannot be had fails its requests as unavailable', async () => {
  const trap = fake(() => new WasmCallError('trap', 'boom'));
  const items = [exchange('/pay/1'), exchange('/admin/1')].map(item);
  const unavailable: string[] = [];
  const out = await applyWasmModules(items, modulesInRuleOrder(rules), async (m) => {
    if (m === '/m/a.wasm') return trap;
    throw new WasmSandboxUnavailableError('VIGIL_ERR_WASM_BUSY', 'queue full');
  }, { onUnavailable: (m) => unavailable.push(m) });
  assert.equal(out[0].failures, ['wasm policy failed (trap): bodies not kept']);
  assert.equal(out[1].failures, ['wasm policy failed (unavailable): bodies not kept']);
  assert.equal(unavailable, ['/m/b.wasm']);
  for (const o of out) {
    assert.is(o.decision.captureRequestBody, false);
    assert.is(o.decision.captureResponseBody, false);
    assert.is(o.decision.captureHeaders, true, 'headers stay as the YAML policy says');
  }
});

test('governNarrowed: the record keeps no body after a failure and says why first; narrowed labels and redactions apply', async () => {
  const [failed] = await applyWasmModules([item(exchange('/pay/1'))], ['/m/a.wasm'], async () => fake(() => new WasmCallError('timeout', 'slow')));
  const r = toGovernedRecord(governNarrowed(exchange('/pay/1'), failed, { random: () => 0 }));
  assert.is(r.request_body, null);
  assert.is(r.response_body, null);
  assert.is(r.dropped_reason, 'wasm policy failed (timeout): bodies not kept');

  const [ok] = await applyWasmModules([item(exchange('/pay/1'))], ['/m/a.wasm'], async () =>
    fake((v) => ({ redact: { json_fields: ['$.pan'] }, labels: { tenant: 'evil', k: 'v', leak: `pan ${v.body_fields?.request?.['$.pan']}` } })));
  const good = toGovernedRecord(governNarrowed(exchange('/pay/1'), ok, { random: () => 0 }));
  assert.equal(good.request_body, { pan: '[REDACTED]', cvc: '[REDACTED]' });
  assert.equal(good.labels, { tenant: 'acme', k: 'v', leak: '[REDACTED]' }, 'never overwritten; never a redacted value');
  assert.is(good.dropped_reason, null);

  // A failure and a body problem of its own: both reasons, the policy's first.
  const truncated = { ...exchange('/pay/1'), requestTruncated: true };
  const both = governNarrowed(truncated, { ...ok, failures: ['wasm policy failed (trap): bodies not kept'] }, { random: () => 0 });
  assert.match(both.dropped_reason ?? '', /^wasm policy failed \(trap\): bodies not kept; request_body: truncated/);
});

test('governedJsonBody sees compressed and header-less JSON, and nothing short of complete JSON', () => {
  const decode = governedJsonBody();
  const json = ['Content-Type', 'application/json'];
  assert.equal(decode(gzipSync(Buffer.from('{"pan":"4111111111111111"}')), [...json, 'Content-Encoding', 'gzip'], false), { pan: '4111111111111111' });
  assert.equal(decode(gzipSync(Buffer.from('{"a":1}')), null, false), { a: 1 }, 'headers restricted: gzip sniffed');
  assert.is(decode(Buffer.from('{"a":1}'), json, true), undefined, 'truncated');
  assert.is(decode(Buffer.from('{"a":'), json, false), undefined, 'malformed');
  assert.is(decode(Buffer.from('plain words'), ['Content-Type', 'text/plain'], false), undefined);
  assert.is(governedJsonBody(4)(gzipSync(Buffer.from('{"a":"long"}')), [...json, 'Content-Encoding', 'gzip'], false), undefined, 'bounded');
});

test.run();
