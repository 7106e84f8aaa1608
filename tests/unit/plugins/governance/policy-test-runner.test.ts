import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPolicyCases } from '../../../../plugins/governance/policy-test-runner.js';
import { createWasmPolicy } from '../../../../policies/wasm-policy.js';
import { fixture } from '../../../support/paths.js';
import { recordingIo } from '../../../support/command-io.js';
import { tempDir } from '../../../support/tmp.js';

const dir = tempDir('vigil-policy-test-runner-');
test.after(() => dir.cleanup());
copyFileSync(fixture('wasm', 'echo.wasm'), join(dir.path, 'echo.wasm'));

function write(name: string, text: string): string {
  const path = join(dir.path, name);
  writeFileSync(path, text);
  return path;
}

function io() {
  const { io: value, out, err } = recordingIo(dir.path);
  return { value, out, err };
}

// echo.wasm labels each request `route: <METHOD> <path> → ✓`, and `owner` from X-Owner.
const policyFile = write('policy.yaml', `
rules:
  - name: all
    match: { path: /** }
    labels: { owner: header:X-Owner }
  - name: echoed
    match: { path: /echo/** }
    wasm: ./echo.wasm
`);
const casesFile = write('cases.yaml', `
cases:
  - name: the module labels the requests its rule matches, and keeps the YAML label
    request: { method: GET, path: /echo/1, headers: { X-Owner: ann } }
    expect:
      labels: { owner: ann, route: "GET /echo/1 → ✓" }
  - name: other requests are not seen by the module
    request: { method: GET, path: /plain }
    expect:
      labels: {}
`);
const limits = { callTimeoutMs: 5000 };

test('without -wasm, the modules the rules name apply to the cases their rules match', async () => {
  const t = io();
  const code = await runPolicyCases({ config: policyFile, cases: [casesFile], io: t.value, limits }, undefined);
  assert.is(code, 0, t.out() + t.err());
  assert.match(t.out(), /2 cases: 2 passed, 0 failed/);
});

test('with -wasm, that module applies to every case, whatever the rules name', async () => {
  const noModule = write('no-module.yaml', 'rules:\n  - name: all\n    match: { path: /** }\n    labels: { owner: header:X-Owner }\n');
  const t = io();
  // The policy file names no module; -wasm's applies to both cases, so the second one now gets a route label.
  const echo = await createWasmPolicy({ module: join(dir.path, 'echo.wasm'), callTimeoutMs: 5000 });
  try {
    const code = await runPolicyCases({ config: noModule, cases: [casesFile], io: t.value, limits }, (views) => echo.decide(views));
    assert.is(code, 1);
    assert.match(t.out(), /ok {4}the module labels the requests/);
    assert.match(t.out(), /FAIL {2}other requests are not seen by the module[\s\S]*labels\n\s+expected: \{\}\n\s+actual: {3}\{"route":"GET \/plain → ✓"\}/);
  } finally {
    await echo.close();
  }
});

test('a guest failure fails the case with the guest\'s message, and the record is failed closed', async () => {
  const trapPolicy = write('trap.yaml', `rules:\n  - name: t\n    match: { path: /** }\n    wasm: ${fixture('wasm', 'trap.wasm')}\n`);
  const cases = write('trap-cases.yaml', `
cases:
  - name: body kept
    request: { method: POST, path: /x, body: { a: 1 } }
    expect:
      kept: [request_body.a]
`);
  const t = io();
  assert.is(await runPolicyCases({ config: trapPolicy, cases: [cases], io: t.value, limits }, undefined), 1);
  assert.match(t.out(), /wasm policy\n\s+expected: a decision\n\s+actual: {3}wasm call decide failed \(trap\): policy bug: ünexpected view/);
  assert.match(t.out(), /absent: request_body is null \(dropped: wasm policy failed \(trap\): bodies not kept\)/);
});

test('bad input exits 2: no module anywhere, a module that cannot be loaded, a bad policy file', async () => {
  const plain = write('plain.yaml', 'rules:\n  - name: all\n    match: { path: /** }\n');
  const missing = write('missing.yaml', 'rules:\n  - name: a\n    match: { path: /a }\n  - name: m\n    match: { path: /** }\n    wasm: ./gone.wasm\n');
  const broken = write('broken.yaml', 'rules:\n  - name: a\n    match: { path: /a }\n    wasm: 7\n');
  for (const [config, pattern] of [
    [plain, /plain\.yaml: no rule names a WASM module \(`wasm: \.\/policy\.wasm`\); name one on a rule, or give -wasm POLICY\.wasm/],
    [missing, /missing\.yaml: rules\[1\]\.wasm: cannot read the wasm module .*gone\.wasm/],
    [broken, /rules\[0\]\.wasm/],
  ] as const) {
    const t = io();
    assert.is(await runPolicyCases({ config, cases: [casesFile], io: t.value, limits }, undefined), 2, t.err());
    assert.match(t.err(), pattern);
  }
});

test.run();
