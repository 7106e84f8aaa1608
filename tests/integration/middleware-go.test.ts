// Issue 36: the Go middleware (middleware/go), a port of the TypeScript governance engine. It vets and is
// gofmt-clean, needs nothing but the standard library and Debian's yaml.v3, and its own tests pass (`go test`, no
// network): byte-identical answers with and without it, an agent down or hanging never delays the app, the corpus
// through the engine byte for byte, and generated inputs answered alike by both engines (the differential file is
// made here, by the TypeScript engine). Then the governance corpus runs end to end: a Go app with the middleware,
// shipping to a real `vigil run` agent, each stored record compared with the corpus's.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromRoot } from '../support/paths.js';
import { codeBlocks, goSandbox, mustRun, toolchainPresent } from '../support/client-toolchain.js';
import { differentialCases, differentialConfig } from '../support/go-engine-differential.js';
import { runCorpusThroughApp, startCorpusAgent, type CorpusAgent, type CorpusReport } from '../support/governance-corpus/run-through-app.js';
import { CORPUS_FILE, loadCorpus } from '../support/governance-corpus/corpus-file.js';
import { goRecordDifferences } from '../support/go-record-differences.js';
import { tempDir } from '../support/tmp.js';

const test = suite('Go middleware');
const cwd = fromRoot('middleware/go');

if (toolchainPresent('Go middleware', [['go', 'version'], ['gofmt', '-l', cwd]], 'golang-go golang-gopkg-yaml.v3-dev')) {
  const go = goSandbox();
  const work = tempDir('vigil-go-middleware-');
  const app = join(work.path, 'corpusapp');
  let agent: CorpusAgent | undefined;

  test.before(async () => {
    await mustRun('go', ['build', '-o', app, './internal/corpusapp'], { cwd, env: go.env });
  });
  test.after(async () => {
    await agent?.stop();
    go.cleanup();
    work.cleanup();
  });

  test('go vet finds nothing and gofmt would change nothing', async () => {
    await mustRun('go', ['vet', './...'], { cwd, env: go.env });
    assert.is(await mustRun('gofmt', ['-l', '.'], { cwd, env: go.env }), '');
  });

  test('the module needs nothing but the standard library and yaml.v3', async () => {
    const list = await mustRun('go', ['list', '-deps', '-f', '{{if not .Standard}}{{.ImportPath}}{{end}}', './...'], { cwd, env: go.env });
    assert.equal(list.trim().split('\n').sort(), [
      'github.com/vigil-dev/vigil/middleware/go',
      'github.com/vigil-dev/vigil/middleware/go/internal/benchapp',
      'github.com/vigil-dev/vigil/middleware/go/internal/corpusapp',
      'gopkg.in/yaml.v3',
    ]);
  });

  test('go test passes, with the TypeScript engine\'s answers to generated inputs', async () => {
    const file = join(work.path, 'differential.json');
    writeFileSync(file, JSON.stringify({ ...differentialCases(), configText: differentialConfig() }));
    const out = await mustRun('go', ['test', '-count=1', '-v', './...'], {
      cwd, env: { ...go.env, VIGIL_DIFFERENTIAL_FILE: file, CORPUS_FILE }, timeoutMs: 300_000,
    });
    assert.match(out, /^ok\s+github\.com\/vigil-dev\/vigil\/middleware\/go\s/m);
    assert.match(out, /folds, \d+ detector texts, \d+ records compared; 0 differ/);
    assert.match(out, new RegExp(`${loadCorpus().cases.length} corpus cases, 0 differ`));
    assert.not.match(out, /--- SKIP/);
  });

  test('the README\'s usage compiles', async () => {
    const readme = readFileSync(join(cwd, 'README.md'), 'utf8');
    const [snippet] = codeBlocks(readme, '## Usage', 'go');
    const dir = join(work.path, 'readme');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'main.go'), snippet);
    writeFileSync(join(dir, 'go.mod'), [
      'module example.com/readme', '', 'go 1.19', '',
      'require github.com/vigil-dev/vigil/middleware/go v0.0.0', '', 'require gopkg.in/yaml.v3 v3.0.1', '',
      `replace github.com/vigil-dev/vigil/middleware/go => ${cwd}`, '',
      'replace gopkg.in/yaml.v3 => /usr/share/gocode/src/gopkg.in/yaml.v3', '',
    ].join('\n'));
    // Offline, so no `go mod tidy` (it would look up yaml.v3's test dependencies): go.mod is written whole.
    await mustRun('go', ['build', '-mod=mod', '-o', join(work.path, 'readme-app'), '.'], { cwd: dir, env: go.env });
  });

  test('the governance corpus end to end: a Go app with the middleware, shipping to a real agent', async () => {
    agent = await startCorpusAgent();
    // The cases net/http answers itself (400 to targets its URL parser refuses) never reach a handler.
    const served = join(work.path, 'served.json');
    await mustRun(app, ['-served', CORPUS_FILE, served], { cwd });
    const report: CorpusReport = await runCorpusThroughApp(agent, app, [], {}, { corpusFile: served });
    assert.is(report.cases, loadCorpus(served).cases.length);
    assert.ok(report.cases >= loadCorpus().cases.length - 8, `${report.cases} cases served`);
    assert.equal(report.badAnswers, []);
    const { remaining, responseHeaderOrderOnly } = goRecordDifferences(loadCorpus(served), report.mismatches);
    if (remaining.length > 0) console.error(remaining.map((m) => `  ${m.case}: ${m.diff}`).join('\n'));
    assert.equal(remaining.map((m) => m.case), [], 'records that differ from the corpus beyond what README.md lists');
    // Most responses carry several headers, so most records differ from the corpus only in net/http's order of them.
    assert.ok(responseHeaderOrderOnly > 0);
  });
}

test.run();
