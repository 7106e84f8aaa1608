import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { wasmOutputProblem, WASM_DECISION_LIMITS } from '../../../policies/wasm-decision.js';

const ok = (decisions: unknown[], expected = decisions.length) => wasmOutputProblem({ decisions }, expected);

test('valid batches pass', () => {
  assert.is(ok([{}]), undefined);
  assert.is(ok([
    { restrict: ['request_body', 'response_body', 'headers'] },
    { redact: { headers: ['authorization'], query_params: ['token'], json_fields: ['$.a.b', '$.**.x', "$['odd key'][0]"] } },
    { labels: { tenant: 'acmé', _x9: '' } },
  ]), undefined);
  assert.is(ok([]), undefined);
});

test('exactly one decision per view', () => {
  assert.match(ok([{}], 2)!, /returned 1 decisions for 2 views/);
  assert.match(ok([{}, {}], 1)!, /returned 2 decisions for 1 views/);
});

test('anything outside the shape is a problem', () => {
  const bad: [unknown, RegExp][] = [
    [null, /must be object/],
    [[], /must be object/],
    [{}, /must have required property 'decisions'/],
    [{ decisions: [], extra: 1 }, /must NOT have additional properties/],
    [{ decisions: {} }, /must be array/],
    [{ decisions: [{ capture: true }] }, /must NOT have additional properties/],
    [{ decisions: [{ restrict: ['everything'] }] }, /must be equal to one of the allowed values/],
    [{ decisions: [{ restrict: ['headers', 'headers'] }] }, /duplicate/],
    [{ decisions: [{ restrict: 'headers' }] }, /must be array/],
    [{ decisions: [{ redact: { cookies: ['a'] } }] }, /must NOT have additional properties/],
    [{ decisions: [{ redact: { headers: [''] } }] }, /must NOT have fewer than 1 characters/],
    [{ decisions: [{ redact: { json_fields: ['card'] } }] }, /must match pattern/],
    [{ decisions: [{ labels: { tenant: 42 } }] }, /must be string/],
    [{ decisions: [{ labels: { 'bad-name': 'x' } }] }, /property name must be valid|must match pattern/],
    [{ decisions: [{ labels: { t: 'x'.repeat(WASM_DECISION_LIMITS.labelValueLength + 1) } }] }, /must NOT have more than/],
    [{ decisions: [{ redact: { json_fields: Array(WASM_DECISION_LIMITS.jsonFields + 1).fill('$.a') } }] }, /must NOT have more than/],
  ];
  for (const [value, pattern] of bad) {
    const expected = Array.isArray((value as { decisions?: unknown })?.decisions) ? (value as { decisions: unknown[] }).decisions.length : 1;
    const problem = wasmOutputProblem(value, expected);
    assert.ok(problem, `${JSON.stringify(value).slice(0, 80)} should be refused`);
    assert.match(problem!, pattern);
  }
});

test('too many labels are refused (each is a metric dimension)', () => {
  const labels = Object.fromEntries(Array.from({ length: WASM_DECISION_LIMITS.labels + 1 }, (_, i) => [`l${i}`, 'v']));
  assert.match(ok([{ labels }])!, /must NOT have more than 16 properties/);
});

test.run();
