// The Python client (clients/python, vigil-llm) under Debian's python3: its unittest suite (recording, scopes,
// wrap_openai on a stand-in of the openai package speaking to tests/support/fake-openai.ts, the exit flush, the pure
// parts) must run every test it declares and pass; the package must import the standard library only.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeOpenAI } from '../support/fake-openai.js';
import { PYTHON } from '../support/conformance/drivers.js';
import { fromRoot } from '../support/paths.js';

const CLIENT = fromRoot('clients/python');

function python(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(PYTHON, args, { cwd: CLIENT, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const killer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('close', (code) => { clearTimeout(killer); resolve({ code, stdout, stderr }); });
  });
}

test('the unittest suite runs every test it declares, none skipped, and passes', async () => {
  const declared = readdirSync(join(CLIENT, 'tests')).filter((f) => /^test_.*\.py$/.test(f))
    .reduce((n, f) => n + (readFileSync(join(CLIENT, 'tests', f), 'utf8').match(/^ {4}(async )?def test_/gm) ?? []).length, 0);
  assert.ok(declared >= 30, `${declared} tests declared`);
  const fake = await startFakeOpenAI({ delayMs: 2 });
  try {
    const run = await python(['-W', 'error::ResourceWarning', '-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v'], { FAKE_OPENAI_URL: fake.baseURL });
    assert.is(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`\\nRan ${declared} tests? in `), `all ${declared} tests ran:\n${run.stderr.slice(-2000)}`);
    assert.match(run.stderr, /\nOK\n?$/);
    assert.not.match(run.stderr, /skipped/);
  } finally {
    await fake.close();
  }
});

test('the package imports the standard library only, and imports cleanly without anything else on the path', async () => {
  const run = await python(['-c', `
import ast, pathlib, sys, json
own = {"vigil_llm"}
bad = []
for path in pathlib.Path("src/vigil_llm").glob("*.py"):
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        for name in names:
            top = name.split(".")[0]
            if top not in sys.stdlib_module_names and top not in own and top != "__future__":
                bad.append(f"{path.name}: {name}")
sys.path.insert(0, "src")
import vigil_llm
print(json.dumps({"bad": bad, "exports": sorted(vigil_llm.__all__)}))
`]);
  assert.is(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.equal(out.bad, []);
  for (const name of ['Vigil', 'wrap_openai', 'TraceItem', 'VigilClientError', 'current_trace']) assert.ok(out.exports.includes(name), name);
});

test.run();
