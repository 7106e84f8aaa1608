import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin } from '@vigil/plugin-sdk';
import { startTestRuntime } from '@vigil/plugin-sdk/testing';
import plugin from '../../../../plugins/governance/index.js';
import type { PolicyService } from '../../../../gateway/govern/policy-service.js';
import { testCommand } from '../../../../plugins/governance/test-command.js';
import { recordingIo } from '../../../support/command-io.js';
import { REVIEW_USAGE } from '../../../../plugins/governance/review/review-command.js';

test('owns the rules and declares the policy service and its commands', () => {
  assert.is(plugin.name, 'governance');
  assert.equal(plugin.configKeys, ['rules']);
  assert.equal(plugin.provides, ['policy']);
  assert.equal(plugin.commands?.map((c) => c.name), ['test', 'policy', 'scan', 'review']);
  assert.equal(plugin.commands?.[0].flags, testCommand.flags);
});

test('the listed test command runs the real one when invoked', async () => {
  const { io, err } = recordingIo(process.cwd());
  assert.is(await plugin.commands![0].run({ flags: {}, positionals: [] }, io), 2);
  assert.match(err(), /vigil test -config/);
});

test('the listed review command has the real usage and runs it when invoked', async () => {
  const review = plugin.commands!.find((c) => c.name === 'review')!;
  assert.is(review.usage, REVIEW_USAGE);
  const { io, err } = recordingIo(process.cwd());
  assert.is(await review.run({ flags: { head: 'x.yaml' }, positionals: [] }, io), 2);
  assert.match(err(), /vigil review: --base BASE is required/);
});

test('checkConfig names the rule position inside the section, and the message without it', () => {
  try {
    plugin.checkConfig!([{ name: 'a', match: { path: '/**' } }, { name: 'a', match: { path: '/x' } }]);
    assert.unreachable();
  } catch (err) {
    assert.equal((err as { keyPath: unknown }).keyPath, [1, 'name']);
    assert.match((err as Error).message, /^rule name "a" is already used by rules\[0\]/);
  }
});

/** Starts a runtime whose config holds `rules`, with a plugin that keeps the policy service. */
async function withPolicy(rules: unknown[], body: (policy: PolicyService) => Promise<void>): Promise<void> {
  let policy!: PolicyService;
  const holder = definePlugin({ name: 'holder', version: '0', needs: ['policy'], setup: (ctx) => { policy = ctx.services.get('policy'); } });
  const rt = await startTestRuntime({ plugins: [holder], config: { rules } });
  try {
    await body(policy);
  } finally {
    await rt.stop();
  }
}

test('the service: the compiled rules, the workers\' JSON, governJson and the detectors', async () => {
  await withPolicy([{ name: 'pay', match: { path: '/api/pay/**' }, redact: { json_fields: ['$.card'] } }], async (policy) => {
    assert.equal(policy.current.compiled.decide('POST', '/api/pay/1').matchedRules, ['pay']);
    assert.equal((JSON.parse(policy.current.workerJson) as { rules: { name: string }[] }).rules.map((r) => r.name), ['pay']);
    assert.equal(policy.governJson({ card: '4111 1111 1111 1111', note: 'mail ada@example.com' }, { json_fields: ['$.card'], detect: ['email'] }),
      { card: '[REDACTED]', note: 'mail [REDACTED]' });
    assert.equal(policy.detectors.detect('ada@example.com').map((d) => d.kind), ['email']);
  });
});

test('a plugin that needs the policy enables governance without a rules key: no rules, everything captured', async () => {
  let policy!: PolicyService;
  const holder = definePlugin({ name: 'holder', version: '0', needs: ['policy'], setup: (ctx) => { policy = ctx.services.get('policy'); } });
  const rt = await startTestRuntime({ plugins: [holder] });
  try {
    assert.equal(policy.current.compiled.rules, []);
    assert.ok(policy.current.compiled.decide('GET', '/x').captureRequestBody);
  } finally {
    await rt.stop();
  }
});

test.run();
