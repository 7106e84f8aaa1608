// The governance conformance corpus through every TypeScript stack: a real `vigil run` gateway in front of an
// upstream that plays the cases' responses, and an Express app and a Koa app with the Vigil middleware mounted,
// shipping to a real `vigil run` agent. Each stored record must be the corpus's, byte for byte (ids, times and
// durations aside); a mismatch prints every differing case with where it differs.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fromRoot } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';
import { writeConfig } from '../support/vigil-process.js';
import {
  formatReport, runCorpusThroughApp, runCorpusThroughGateway, startCorpusAgent, type CorpusAgent, type CorpusReport,
} from '../support/governance-corpus/run-through-app.js';
import { loadCorpus } from '../support/governance-corpus/corpus-file.js';

const test = suite('governance corpus: gateway, Express and Koa store the same records');
const APP = fromRoot('dist/tests/support/governance-corpus/corpus-app.js');
const total = loadCorpus().cases.length;
let agent: CorpusAgent;

test.before(async () => {
  agent = await startCorpusAgent();
});

test.after(async () => {
  await agent?.stop();
});

function passes(report: CorpusReport): void {
  assert.is(report.cases, total, `${report.stack}: cases sent`);
  console.log(`governance corpus: ${report.stack}: ${report.cases} cases in ${report.ms} ms`);
  const text = formatReport(report);
  if (text !== '') console.error(text);
  assert.is(report.badAnswers.length, 0, `${report.stack}: answers (see above)`);
  assert.is(report.mismatches.length, 0, `${report.stack}: records that differ from the corpus (see above)`);
}

test('through a real gateway', async () => {
  passes(await runCorpusThroughGateway());
});

for (const framework of ['express', 'koa'] as const) {
  test(`through ${framework} with the middleware, shipping to a real agent`, async () => {
    passes(await runCorpusThroughApp(agent, process.execPath, [APP, framework]));
  });
}

test('the runner names every case a middleware governs otherwise, and only those', async () => {
  const work = tempDir('vigil-corpus-wrong-');
  try {
    // The app governs the `names` cases with a policy that redacts nothing (extraEnv overrides the protocol's env).
    const wrong = writeConfig(work.path, 'rules:\n  - name: all\n    match: { path: /** }\n', 'wrong.yaml');
    // Part of a config: the app is handed these cases alone, so it still answers each with its own response.
    const only = (c: { config: string; family: string }) => c.config === 'names' && c.family === 'query parameters';
    const report = await runCorpusThroughApp(agent, process.execPath, [APP, 'express'], { VIGIL_CONFIG: wrong }, { only });
    const cases = loadCorpus().cases.filter(only);
    const differ = cases.filter((c) => c.record !== null && (c.record.includes('[REDACTED]') || c.record.includes('"more"')));
    assert.ok(differ.length > 0 && differ.length < cases.length);
    assert.equal(report.mismatches.map((m) => m.case).sort(), differ.map((c) => `[names] ${c.name}`).sort());
  } finally {
    work.cleanup();
  }
});

test.run();
