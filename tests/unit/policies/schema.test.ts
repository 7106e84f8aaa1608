import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { compileConfigSchema } from '../../../runtime/config/ajv-instance.js';
import { rulesSchema, serviceSchema, DEFAULT_LISTEN, type RuleConfig } from '../../../policies/schema.js';
import { validatePolicy } from '../../../policies/validate.js';
import { fromRoot } from '../../support/paths.js';

// The config layer (Ajv 2020, strict) is what validates these sections when a config file is loaded.
const rules = compileConfigSchema(rulesSchema);
const service = compileConfigSchema(serviceSchema);

const rule = (extra: Record<string, unknown>) => [{ name: 'r', match: { path: '/a' }, ...extra }];

test("the seed-style example's sections are valid", () => {
  const example = parse(readFileSync(fromRoot('examples/policy.yaml'), 'utf8'));
  assert.ok(rules(example.rules), JSON.stringify(rules.errors));
  assert.ok(service(example.service), JSON.stringify(service.errors));
});

test('every rule field of the seed is accepted, plus match.methods', () => {
  assert.ok(rules(rule({
    match: { path: '/api/**', methods: ['GET', 'post'] },
    restrict: ['request_body', 'response_body', 'headers'],
    redact: { headers: ['Authorization'], query_params: ['token'], json_fields: ['$.a.b', '$.*.x', '$.**.y'] },
    labels: { tenant: 'header:X-Tenant-Id' },
    sample: 0.25,
    keep_errors: true,
    meter: { tokens: '$.usage.total_tokens' },
  })), JSON.stringify(rules.errors));
});

test('unknown keys are rejected at every level', () => {
  assert.not.ok(rules(rule({ extra: 1 })));
  assert.not.ok(rules([{ name: 'r', match: { path: '/a', host: 'x' } }]));
  assert.not.ok(rules(rule({ redact: { json_field: ['$.a'] } })));
  assert.not.ok(rules(rule({ meter: { tokens: '$.a', cost: 1 } })));
  assert.not.ok(service({ upstream: 'http://x', timeout: 1 }));
});

test('name and match.path are required', () => {
  assert.not.ok(rules([{ match: { path: '/a' } }]));
  assert.not.ok(rules([{ name: 'r' }]));
  assert.not.ok(rules([{ name: 'r', match: {} }]));
  assert.not.ok(rules([{ name: '', match: { path: '/a' } }]));
});

test('sample must be in [0, 1]', () => {
  assert.ok(rules(rule({ sample: 0 })));
  assert.ok(rules(rule({ sample: 1 })));
  assert.not.ok(rules(rule({ sample: -0.1 })));
  assert.not.ok(rules(rule({ sample: 1.01 })));
  assert.not.ok(rules(rule({ sample: '0.5' })));
});

test('restrict items, label sources and label names are checked', () => {
  assert.not.ok(rules(rule({ restrict: ['body'] })));
  assert.not.ok(rules(rule({ labels: { tenant: 'X-Tenant-Id' } })));
  assert.not.ok(rules(rule({ labels: { tenant: 'header:' } })));
  assert.not.ok(rules(rule({ labels: { tenant: 'query:tenant' } })));
  assert.not.ok(rules(rule({ labels: { 'bad-name': 'header:X-A' } })));
  assert.not.ok(rules(rule({ labels: { __reserved: 'header:X-A' } })));
  assert.not.ok(rules(rule({ redact: { headers: ['Bad Header'] } })));
  assert.not.ok(rules(rule({ redact: { json_fields: ['card.number'] } })));
  assert.not.ok(rules(rule({ match: { path: 'api/**' } })));
});

test('service: upstream is a required http(s) URL; listen is a port or host:port, default 8080', () => {
  assert.ok(service({ upstream: 'https://api.example.com/v1' }));
  assert.not.ok(service({}));
  assert.not.ok(service({ upstream: 'ftp://x' }));
  assert.not.ok(service({ upstream: 'api.example.com' }));
  for (const listen of [8080, '8080', '127.0.0.1:8080', '[::1]:8080', 'localhost:0']) {
    assert.ok(service({ upstream: 'http://x', listen }), String(listen));
  }
  for (const listen of ['x', 70000, ':', 'host:port']) assert.not.ok(service({ upstream: 'http://x', listen }), String(listen));
  const filled: Record<string, unknown> = { upstream: 'http://x' };
  assert.ok(service(filled));
  assert.is(filled.listen, DEFAULT_LISTEN);
  assert.is(DEFAULT_LISTEN, 8080);
});

test('wasm names a module file: a non-empty string, accepted by the policy validator too', () => {
  assert.ok(rules(rule({ wasm: './card-numbers.wasm' })), JSON.stringify(rules.errors));
  assert.not.ok(rules(rule({ wasm: '' })));
  assert.not.ok(rules(rule({ wasm: ['a.wasm'] })));
  assert.not.ok(rules(rule({ wasm: 1 })));
  assert.not.throws(() => validatePolicy({ rules: rule({ wasm: 'p.wasm' }) as RuleConfig[] }));
  assert.throws(() => validatePolicy({ rules: rule({ wasm: 7 }) as unknown as RuleConfig[] }), /rules\[0\]\.wasm/);
});

test.run();
