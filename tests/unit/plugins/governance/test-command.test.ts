import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { testCommand } from '../../../../plugins/governance/test-command.js';
import { recordingIo } from '../../../support/command-io.js';
import { fixture, fromRoot, repoRoot } from '../../../support/paths.js';

async function run(flags: Record<string, string | boolean>, positionals: string[]) {
  const { io, out, err } = recordingIo(repoRoot);
  const code = await testCommand.run({ flags, positionals }, io);
  return { code, out: out(), err: err() };
}

const policy = fromRoot('examples/policy.yaml');

test('the example cases pass against the example policy: exit 0', async () => {
  const r = await run({ config: policy }, [fromRoot('examples/policy.cases.yaml')]);
  assert.is(r.code, 0, r.out + r.err);
  assert.match(r.out, /\n11 cases: 11 passed, 0 failed\n$/);
  assert.match(r.out, /ok {4}card fields are masked at the three path forms/);
  assert.is(r.err, '');
});

test('relative paths resolve from the working directory', async () => {
  const r = await run({ config: 'examples/policy.yaml' }, ['examples/policy.cases.yaml']);
  assert.is(r.code, 0, r.out + r.err);
});

test('a failing cases file exits non-zero and prints expected against actual, per case', async () => {
  const r = await run({ config: policy }, [fixture('policies/failing.cases.yaml')]);
  assert.is(r.code, 1);
  assert.match(r.out, /4 cases: 1 passed, 3 failed/);
  assert.match(r.out, /FAIL {2}expects a kept card number \(wrong\) {2}\(tests\/fixtures\/policies\/failing\.cases\.yaml:3:5\)/);
  assert.match(r.out, /request_body\.card\.number \(kept\)\n {8}expected: "4111111111111111"\n {8}actual: {3}"\[REDACTED\]"/);
  assert.match(r.out, /request_body\.amount \(redacted\)\n {8}expected: "\[REDACTED\]"\n {8}actual: {3}7/);
  assert.match(r.out, /captured\.request_body\n {8}expected: captured\n {8}actual: {3}not captured/);
  assert.match(r.out, /matched_rules\n {8}expected: \["admin"\]\n {8}actual: {3}\["all-traffic","admin"\]/);
  assert.match(r.out, /request_body\.card\.numbr \(redacted\)\n {8}expected: a value present in the input\n {8}actual: {3}not in the input: check the path/);
  assert.match(r.out, /ok {4}passes/);
});

test('usage errors exit 2', async () => {
  const noConfig = await run({}, [fromRoot('examples/policy.cases.yaml')]);
  assert.is(noConfig.code, 2);
  assert.match(noConfig.err, /-config FILE is required/);
  const noCases = await run({ config: policy }, []);
  assert.is(noCases.code, 2);
  assert.match(noCases.err, /name at least one cases file/);
});

test('a policy with an unknown key is rejected before any case runs: exit 2, file, line and key path', async () => {
  const r = await run({ config: fixture('policies/unknown-key.policy.yaml') }, [fromRoot('examples/policy.cases.yaml')]);
  assert.is(r.code, 2);
  assert.is(r.out, '');
  assert.match(r.err, /unknown-key\.policy\.yaml:8:7: .*rules\[0\]\.redact\.json_feilds/);
});

test('duplicate rule names and bad globs are reported at their line', async () => {
  const dup = await run({ config: fixture('policies/duplicate-rule.policy.yaml') }, [fromRoot('examples/policy.cases.yaml')]);
  assert.is(dup.code, 2);
  assert.match(dup.err, /duplicate-rule\.policy\.yaml:6:\d+: rules\[2\]\.name: rule name "payments" is already used by rules\[0\]/);
  const glob = await run({ config: fixture('policies/bad-glob.policy.yaml') }, [fromRoot('examples/policy.cases.yaml')]);
  assert.is(glob.code, 2);
  assert.match(glob.err, /bad-glob\.policy\.yaml:6:\d+: rules\[1\]\.match\.path: .*"\*\*" must be a whole segment/);
});

test('a file without rules, a missing file and a bad cases file exit 2', async () => {
  const none = await run({ config: fixture('policies/no-rules.policy.yaml') }, [fromRoot('examples/policy.cases.yaml')]);
  assert.is(none.code, 2);
  assert.match(none.err, /no "rules" key/);
  const missing = await run({ config: fixture('policies/nope.yaml') }, [fromRoot('examples/policy.cases.yaml')]);
  assert.is(missing.code, 2);
  assert.match(missing.err, /nope\.yaml/);
  const unknown = await run({ config: policy }, [fixture('policies/unknown-key.cases.yaml')]);
  assert.is(unknown.code, 2);
  assert.match(unknown.err, /unknown-key\.cases\.yaml:5:7: .*cases\[0\]\.expect\.redact/);
  const twice = await run({ config: policy }, [fixture('policies/two-bodies.cases.yaml')]);
  assert.is(twice.code, 2);
  assert.match(twice.err, /cases\[0\]\.request has body and raw; give the body one way only/);
});

test('the command declares its name, flag and usage for the CLI', () => {
  assert.is(testCommand.name, 'test');
  assert.equal(Object.keys(testCommand.flags ?? {}), ['config']);
  assert.match(testCommand.usage, /^vigil test -config policy\.yaml CASES\.yaml/);
});

test.run();
