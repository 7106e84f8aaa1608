import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommandArgs } from '@vigil/plugin-sdk';
import {
  createPolicyCommand, policyBuildCommand, type DecideViews, type PolicyCaseInput,
} from '../../../../plugins/governance/policy-commands.js';
import { buildPolicyView } from '../../../../policies/wasm-view.js';
import { fixture, repoRoot } from '../../../support/paths.js';
import { recordingIo } from '../../../support/command-io.js';
import { tempDir } from '../../../support/tmp.js';

const dir = tempDir('vigil-policy-commands-');
test.after(() => dir.cleanup());

function io(cwd = dir.path) {
  const { io: value, out, err } = recordingIo(cwd);
  return { value, out, err };
}

const args = (positionals: string[], flags: CommandArgs['flags'] = {}): CommandArgs => ({ positionals, flags });

test('policy build compiles to -o and reports the file, its size and the memory cap', async () => {
  await writeFile(join(dir.path, 'p.ts'), 'export function decide(): i32 { return 0; }\n');
  const t = io();
  const code = await policyBuildCommand.run(args(['p.ts'], { o: 'out/p.wasm', 'max-memory-pages': '20' }), t.value);
  assert.is(code, 0, t.err());
  assert.ok(existsSync(join(dir.path, 'out/p.wasm')));
  assert.match(t.out(), /^built out\/p\.wasm \(\d+ bytes, memory capped at 20 pages\)\n$/);
});

test('policy build: a compile error exits 1 with asc\'s diagnostics', async () => {
  await writeFile(join(dir.path, 'bad.ts'), 'export function decide(): i32 { return nope; }\n');
  const t = io();
  assert.is(await policyBuildCommand.run(args(['bad.ts']), t.value), 1);
  assert.match(t.err(), /vigil policy build: asc could not compile bad\.ts/);
  assert.match(t.err(), /nope/);
});

test('policy build: usage errors exit 2', async () => {
  for (const [a, pattern] of [
    [args([]), /name one policy source file/],
    [args(['a.ts', 'b.ts']), /name one policy source file/],
    [args(['a.ts'], { 'max-memory-pages': 'lots' }), /-max-memory-pages takes a whole number/],
    [args(['a.ts'], { 'max-memory-pages': '0' }), /-max-memory-pages takes a whole number/],
  ] as const) {
    const t = io();
    assert.is(await policyBuildCommand.run(a, t.value), 2);
    assert.match(t.err(), pattern);
  }
});

test('policy test hands the runner resolved paths and a decide callback backed by the module', async () => {
  let seen: PolicyCaseInput | undefined;
  let decisions: unknown;
  const command = createPolicyCommand(async (input, decide: DecideViews | undefined) => {
    seen = input;
    decisions = await decide!([buildPolicyView({
      method: 'GET', path: '/x', target: '/x', requestHeaders: ['X-Owner', 'Zoë'], status: 200, labels: {}, matchedRules: [],
    })]);
    input.io.out('ran\n');
    return 0;
  });
  const t = io(repoRoot);
  const code = await command.run(args(['test', 'cases.yaml'], { config: 'policy.yaml', wasm: fixture('wasm', 'echo.wasm') }), t.value);
  assert.is(code, 0, t.err());
  assert.equal(seen?.config, join(repoRoot, 'policy.yaml'));
  assert.equal(seen?.cases, [join(repoRoot, 'cases.yaml')]);
  assert.equal(decisions, [{ labels: { route: 'GET /x → ✓', owner: 'Zoë' } }]);
  assert.is(t.out(), 'ran\n');
});

test('policy test without -wasm hands the runner no decide callback, and the limits for the modules rules name', async () => {
  let seen: PolicyCaseInput | undefined;
  let decideGiven: boolean | undefined;
  const command = createPolicyCommand(async (input, decide) => {
    seen = input;
    decideGiven = decide !== undefined;
    return 0;
  });
  const t = io();
  assert.is(await command.run(args(['test', 'c.yaml'], { config: 'p.yaml', 'timeout-ms': '300', 'max-memory-pages': '8' }), t.value), 0, t.err());
  assert.is(decideGiven, false);
  assert.equal(seen?.limits, { maxMemoryPages: 8, callTimeoutMs: 300 });
  assert.equal(seen?.config, join(dir.path, 'p.yaml'));
});

test('policy test: a guest failure reaches the runner as a rejection', async () => {
  let reason: string | undefined;
  const command = createPolicyCommand(async (_input, decide) => {
    reason = await decide!([]).then(() => 'none').then(() => decide!([buildPolicyView({
      method: 'GET', path: '/', target: '/', requestHeaders: [], status: 200, labels: {}, matchedRules: [],
    })])).then(() => 'none', (e: { reason: string }) => e.reason);
    return 1;
  });
  const t = io();
  assert.is(await command.run(args(['test', 'c.yaml'], { config: 'p.yaml', wasm: fixture('wasm', 'trap.wasm') }), t.value), 1);
  assert.is(reason, 'trap');
});

test('policy test: usage errors, a bad module and a missing runner exit 2', async () => {
  const command = createPolicyCommand(async () => 0);
  const cases: [CommandArgs, RegExp][] = [
    [args(['test', 'c.yaml'], { wasm: 'x.wasm' }), /-config FILE is required/],
    [args(['test', 'c.yaml'], { config: 'p.yaml', wasm: true }), /-wasm takes a FILE/],
    [args(['test'], { config: 'p.yaml', wasm: 'x.wasm' }), /name at least one cases file/],
    [args(['test', 'c.yaml'], { config: 'p.yaml', wasm: 'x.wasm', 'timeout-ms': '-5' }), /-timeout-ms takes a positive number/],
    [args(['test', 'c.yaml'], { config: 'p.yaml', wasm: 'missing.wasm' }), /cannot read the wasm module/],
  ];
  for (const [a, pattern] of cases) {
    const t = io();
    assert.is(await command.run(a, t.value), 2, pattern.source);
    assert.match(t.err(), pattern);
  }
});

test('policy dispatches to its subcommands and refuses the other one\'s flags', async () => {
  const command = createPolicyCommand();
  assert.is(command.name, 'policy');
  for (const [a, pattern] of [
    [args([]), /name a subcommand/],
    [args(['deploy']), /unknown subcommand "deploy"/],
    [args(['build', 'p.ts'], { config: 'x' }), /vigil policy build: unknown flag -config/],
  ] as const) {
    const t = io();
    assert.is(await command.run(a, t.value), 2);
    assert.match(t.err(), pattern);
  }
});

test.run();
