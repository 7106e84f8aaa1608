import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gatewayPolicy, PolicyVersions } from '../../../../gateway/govern/policy-versions.js';
import type { GatewayPolicy } from '../../../../gateway/govern/policy-service.js';
import type { RuleConfig } from '../../../../policies/schema.js';
import { fixture } from '../../../support/paths.js';
import { tempDir } from '../../../support/tmp.js';

const dir = tempDir('vigil-policy-versions-');
test.after(() => dir.cleanup());

const rules: RuleConfig[] = [{ name: 'pay', match: { path: '/api/pay/**' }, redact: { json_fields: ['$.card'] } }];

test('a version holds the compiled rules and the workers\' JSON, made once', () => {
  const v = gatewayPolicy(rules, (p) => p);
  assert.equal(v.compiled.decide('POST', '/api/pay/1').matchedRules, ['pay']);
  assert.equal(JSON.parse(v.workerJson), { rules });
});

test('wasm paths are resolved for the workers, with the module\'s digest; the rules as written are not changed', () => {
  copyFileSync(fixture('wasm', 'echo.wasm'), join(dir.path, 'echo.wasm'));
  const written: RuleConfig[] = [{ name: 'e', match: { path: '/**' }, wasm: './echo.wasm' }];
  const v = gatewayPolicy(written, (p) => join(dir.path, p));
  const telemetry = JSON.parse(v.workerJson) as { rules: RuleConfig[]; modules: Record<string, string> };
  assert.is(telemetry.rules[0].wasm, join(dir.path, 'echo.wasm'));
  assert.match(telemetry.modules[join(dir.path, 'echo.wasm')], /^[0-9a-f]{64}$/);
  assert.is(written[0].wasm, './echo.wasm');
  writeFileSync(join(dir.path, 'echo.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  const rebuilt = JSON.parse(gatewayPolicy(written, (p) => join(dir.path, p)).workerJson) as typeof telemetry;
  assert.is.not(rebuilt.modules[join(dir.path, 'echo.wasm')], telemetry.modules[join(dir.path, 'echo.wasm')], 'a module rebuilt in place is a new version');
});

test('a replacement is checked by every subscriber before any takes it; one refusal keeps everyone on the current version', () => {
  const first = gatewayPolicy(rules, (p) => p);
  const versions = new PolicyVersions(first);
  const applied: string[] = [];
  versions.subscribe({ apply: () => applied.push('a') });
  const stopRefusing = versions.subscribe({
    check: (next: GatewayPolicy) => { if (next.compiled.rules.length > 1) throw new Error('rules: no'); },
    apply: () => applied.push('b'),
  });
  const two = gatewayPolicy([...rules, { name: 'x', match: { path: '/x' } }], (p) => p);
  assert.throws(() => versions.replace(two), /rules: no/);
  assert.is(versions.current, first);
  assert.equal(applied, []);
  stopRefusing();
  versions.replace(two);
  assert.is(versions.current, two);
  assert.equal(applied, ['a']);
});

test.run();
