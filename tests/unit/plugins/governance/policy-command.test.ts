import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import governance from '../../../../plugins/governance/index.js';
import { policyCommand } from '../../../../plugins/governance/policy-command.js';
import { createPolicyCommand } from '../../../../plugins/governance/policy-commands.js';
import { fixture } from '../../../support/paths.js';
import { recordingIo } from '../../../support/command-io.js';
import { tempDir } from '../../../support/tmp.js';

const dir = tempDir('vigil-cli-policy-');
test.after(() => dir.cleanup());

function io() {
  const { io: value, out, err } = recordingIo(dir.path);
  return { value, out, err };
}

test('the light descriptor matches the command it loads: name, summary, usage and flags', () => {
  const real = createPolicyCommand();
  assert.is(policyCommand.name, real.name);
  assert.is(policyCommand.summary, real.summary);
  assert.is(policyCommand.usage, real.usage);
  assert.equal(policyCommand.flags, real.flags);
});

test('it is one of the governance plugin\'s commands', () => {
  assert.ok(governance.commands?.includes(policyCommand));
});

test('policy test runs the `vigil test` cases with the module a rule names (the runner is connected)', async () => {
  copyFileSync(fixture('wasm', 'echo.wasm'), join(dir.path, 'echo.wasm'));
  writeFileSync(join(dir.path, 'policy.yaml'), 'rules:\n  - name: e\n    match: { path: /** }\n    wasm: ./echo.wasm\n');
  writeFileSync(join(dir.path, 'cases.yaml'), 'cases:\n  - name: labelled\n    request: { path: /a }\n    expect:\n      labels: { route: "GET /a → ✓" }\n');
  const t = io();
  const code = await policyCommand.run({ positionals: ['test', 'cases.yaml'], flags: { config: 'policy.yaml' } }, t.value);
  assert.is(code, 0, t.out() + t.err());
  assert.match(t.out(), /ok {4}labelled/);
});

test('policy build runs asc and writes the module', async () => {
  writeFileSync(join(dir.path, 'p.ts'), 'export function decide(): i32 { return 0; }\n');
  const t = io();
  assert.is(await policyCommand.run({ positionals: ['build', 'p.ts'], flags: {} }, t.value), 0, t.err());
  assert.ok(existsSync(join(dir.path, 'p.wasm')));
});

test.run();
