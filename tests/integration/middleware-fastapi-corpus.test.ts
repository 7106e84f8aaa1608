// The FastAPI middleware end to end through a real agent: the governance corpus played by a FastAPI app under uvicorn
// (middleware/python/tests/corpus_app.py) shipping to a real `vigil run`, every stored record byte for byte the
// corpus's (tests/support/governance-corpus/run-through-app.ts); and the README's quick start, installed with pip from
// a copy of the tree into a fresh directory and run as written, storing its record at the agent.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PYTHON } from '../support/conformance/drivers.js';
import { freePort, scaledTimeout, waitFor } from '../support/net.js';
import { fromRoot } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';
import { loadCorpus } from '../support/governance-corpus/corpus-file.js';
import { formatReport, runCorpusThroughApp, startCorpusAgent, type CorpusAgent } from '../support/governance-corpus/run-through-app.js';

const test = suite('FastAPI middleware: the corpus and the quick start through a real agent');
let agent: CorpusAgent;

test.before(async () => {
  agent = await startCorpusAgent();
});

test.after(async () => {
  await agent?.stop();
});

test('the corpus through a FastAPI app with the middleware: every record byte for byte', async () => {
  const report = await runCorpusThroughApp(agent, PYTHON, [fromRoot('middleware/python/tests/corpus_app.py')], { PYTHONDONTWRITEBYTECODE: '1' });
  const text = formatReport(report);
  if (text !== '') console.error(text);
  assert.is(report.cases, loadCorpus().cases.length, 'cases sent');
  assert.is(report.badAnswers.length, 0, 'answers (see above)');
  assert.is(report.mismatches.length, 0, 'records that differ from the corpus (see above)');
});

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** The ```python blocks of the README section headed `heading`. */
function readmeBlocks(heading: string): string[] {
  const text = readFileSync(fromRoot('middleware/python/README.md'), 'utf8');
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `README section "${heading}"`);
  const end = text.indexOf('\n## ', start + 4);
  return [...text.slice(start, end < 0 ? undefined : end).matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]);
}

test('the README quick start, installed with its pip line into a fresh environment, runs as written and its record reaches the agent', async () => {
  const work = tempDir('vigil-fastapi-readme-');
  try {
    const source = join(work.path, 'source');
    cpSync(fromRoot('middleware/python'), source, { recursive: true, filter: (p) => !/__pycache__|\/build$|egg-info/.test(p) });
    // The README's two lines (## Install), with the tree's copy for ./middleware/python and no index to reach.
    const venv = await run(PYTHON, ['-m', 'venv', '--system-site-packages', '.venv'], work.path);
    assert.is(venv.code, 0, venv.out);
    const pip = await run(join(work.path, '.venv/bin/pip'), ['install', '--quiet', '--no-index', '--no-build-isolation', source], work.path);
    assert.is(pip.code, 0, pip.out);
    const install = readFileSync(fromRoot('middleware/python/README.md'), 'utf8');
    assert.ok(install.includes('python3 -m venv --system-site-packages .venv\n.venv/bin/pip install --no-build-isolation ./middleware/python'));
    const [snippet] = readmeBlocks('Quick start');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(readFileSync(fromRoot('middleware/python/README.md'), 'utf8'))![1];
    writeFileSync(join(work.path, 'vigil.yaml'), yaml);
    writeFileSync(join(work.path, 'app.py'), snippet);
    const port = await freePort();
    const child = spawn(join(work.path, '.venv/bin/python'), ['app.py'], {
      cwd: work.path, stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PORT: String(port), VIGIL_AGENT_URL: agent.url, VIGIL_INGEST_TOKEN: agent.token },
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const exited = new Promise<number | null>((r) => child.on('close', r));
    try {
      const res = await waitFor(async () => {
        try {
          return await fetch(`http://127.0.0.1:${port}/api/users/42?token=abc`, { headers: { authorization: 'Bearer sk-live' } });
        } catch {
          return undefined;
        }
      }, { timeoutMs: scaledTimeout(30_000), what: `the quick start app to answer:\n${out}` });
      assert.is(res!.status, 200);
      assert.equal(await res!.json(), { id: '42', email: 'ada@example.com' });
    } finally {
      child.kill('SIGTERM');
      assert.is(await exited, 0, out);
    }
    // SIGTERM ran the app's shutdown, which flushed the record: it is stored by now, or very soon.
    const stored = await waitFor(async () => (await agent.records.take()).find((t) => t.includes('"/api/users/42"')),
      { timeoutMs: scaledTimeout(15_000), what: 'the quick start record at the agent' });
    const record = JSON.parse(stored!);
    assert.equal(record.query, { token: '[REDACTED]' });
    assert.is(record.headers.Authorization, '[REDACTED]');
    assert.equal(record.response_body, { id: '42', email: '[REDACTED]' });
  } finally {
    work.cleanup();
  }
});

test.run();
