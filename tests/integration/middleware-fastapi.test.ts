// The FastAPI middleware (middleware/python, vigil-fastapi) under Debian's python3 with python3-fastapi, -uvicorn and
// -yaml: its unittest suite (the corpus through the ported engine and through a FastAPI app under uvicorn, records
// from a real uvicorn app, byte-identical responses on and off, an agent that is down or hangs, delivery, bounds,
// options and config errors) must run every test it declares and pass; the engine imports the standard library only.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PYTHON } from '../support/conformance/drivers.js';
import { fromRoot } from '../support/paths.js';

const PACKAGE = fromRoot('middleware/python');

function python(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(PYTHON, args, { cwd: PACKAGE, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const killer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => { clearTimeout(killer); resolve({ code, stdout, stderr }); });
  });
}

test('the unittest suite runs every test it declares, none skipped, and passes', async () => {
  const declared = readdirSync(join(PACKAGE, 'tests')).filter((f) => /^test_.*\.py$/.test(f))
    .reduce((n, f) => n + (readFileSync(join(PACKAGE, 'tests', f), 'utf8').match(/^ {4}def test_/gm) ?? []).length, 0);
  assert.ok(declared >= 20, `${declared} tests declared`);
  const run = await python(['-W', 'error::ResourceWarning', '-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v']);
  assert.is(run.code, 0, run.stderr.slice(-4000));
  assert.match(run.stderr, new RegExp(`\\nRan ${declared} tests? in `), `all ${declared} tests ran:\n${run.stderr.slice(-2000)}`);
  assert.match(run.stderr, /\nOK\n?$/);
  assert.not.match(run.stderr, /skipped/);
});

test('the engine imports the standard library only; the package adds PyYAML (the config) and nothing else', async () => {
  const run = await python(['-c', `
import ast, pathlib, sys, json
bad = []
for path in pathlib.Path("src/vigil_fastapi").rglob("*.py"):
    engine = "engine" in path.parts
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        for name in names:
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or top == "__future__" or (top == "yaml" and not engine):
                continue
            bad.append(f"{path}: {name}")
sys.path.insert(0, "src")
import vigil_fastapi
print(json.dumps({"bad": bad, "exports": sorted(vigil_fastapi.__all__), "typed": pathlib.Path("src/vigil_fastapi/py.typed").exists()}))
`]);
  assert.is(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.equal(out.bad, []);
  assert.ok(out.typed);
  assert.equal(out.exports, ['VigilConfigError', 'VigilMiddleware', 'VigilMiddlewareError', 'VigilOptionsError', '__version__']);
});

test.run();
