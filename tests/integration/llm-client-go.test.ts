// Issue 36: the Go client (clients/go). It vets and is gofmt-clean, its own tests pass (`go test`, Debian's Go 1.19,
// no network), and its conformance driver passes every scenario of the driver protocol against a scripted ingest
// server: batching, 413 splitting, Retry-After, 5xx retries, no retry on 400 and 401, the bounded buffer.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { fromRoot } from '../support/paths.js';
import { goSandbox, mustRun, runTool, toolchainPresent } from '../support/client-toolchain.js';
import { registerDriverScenarios, type RunDriver } from '../support/client-driver-scenarios.js';
import { tempDir } from '../support/tmp.js';

const test = suite('Go client');
const cwd = fromRoot('clients/go');

if (toolchainPresent('Go client', [['go', 'version'], ['gofmt', '-l', cwd]], 'golang-go')) {
  const go = goSandbox();
  const bin = tempDir('vigil-go-driver-');
  const driver = join(bin.path, 'conformance-driver');
  let runDriver: RunDriver;

  test.before(async () => {
    await mustRun('go', ['build', '-o', driver, './cmd/conformance-driver'], { cwd, env: go.env });
    runDriver = (input, env) => runTool(driver, [], { cwd, env, input: JSON.stringify(input), timeoutMs: 60_000 });
  });
  test.after(() => { go.cleanup(); bin.cleanup(); });

  test('go vet finds nothing and gofmt would change nothing', async () => {
    await mustRun('go', ['vet', './...'], { cwd, env: go.env });
    assert.is(await mustRun('gofmt', ['-l', '.'], { cwd, env: go.env }), '');
  });

  test('the module needs nothing but the standard library', async () => {
    const list = await mustRun('go', ['list', '-deps', '-f', '{{if not .Standard}}{{.ImportPath}}{{end}}', './...'], { cwd, env: go.env });
    assert.equal(list.trim().split('\n').sort(), [
      'github.com/vigil-dev/vigil/clients/go/cmd/conformance-driver',
      'github.com/vigil-dev/vigil/clients/go/vigil',
    ]);
  });

  test('go test passes (batching, retries, the recording transport and its streams)', async () => {
    const out = await mustRun('go', ['test', '-count=1', './...'], { cwd, env: go.env, timeoutMs: 300_000 });
    assert.match(out, /^ok\s+github\.com\/vigil-dev\/vigil\/clients\/go\/vigil/m);
  });

  registerDriverScenarios(test, 'Go', () => runDriver);
}

test.run();
