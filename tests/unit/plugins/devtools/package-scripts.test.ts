import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPackageScripts, MAX_PACKAGE_JSON_BYTES } from '../../../../plugins/devtools/package-scripts.js';
import { commandLine, runnableName } from '../../../../plugins/devtools/project-script.js';
import { tempDir } from '../../../support/tmp.js';

const fixtures = fileURLToPath(new URL('../../../../../tests/unit/plugins/devtools/fixtures/', import.meta.url));
const dir = tempDir('vigil-pkg-');
test.after(() => dir.cleanup());

const folder = (name: string, files: Record<string, string>) => {
  const path = join(dir.path, name);
  mkdirSync(path);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(path, file), text);
  return path;
};

test('scripts of a pnpm project run with pnpm (its lockfile), as argv; option-looking and spaced names are left out', async () => {
  const found = await readPackageScripts(join(fixtures, 'pnpm-app'));
  assert.ok(found);
  assert.is(found!.runner, 'pnpm');
  assert.is(found!.runner_reason, 'pnpm-lock.yaml');
  assert.equal(found!.scripts.map((s) => s.name), ['dev', 'build', 'test']);
  assert.equal(found!.scripts[1].argv, ['pnpm', 'run', 'build']);
  assert.is(found!.scripts[1].detail, 'tsc -p . && vite build');
  assert.is(found!.skipped, 2);
});

test('the runner: packageManager first, then the lockfile, else npm', async () => {
  const scripts = JSON.stringify({ scripts: { go: 'echo go' } });
  assert.is((await readPackageScripts(folder('yarn', { 'package.json': scripts, 'yarn.lock': '' })))!.runner, 'yarn');
  assert.is((await readPackageScripts(folder('bun', { 'package.json': scripts, 'bun.lockb': '' })))!.runner, 'bun');
  assert.is((await readPackageScripts(folder('plain', { 'package.json': scripts })))!.runner, 'npm');
  const declared = await readPackageScripts(folder('declared', { 'package.json': JSON.stringify({ packageManager: 'pnpm@9.1.0', scripts: { go: 'x' } }), 'yarn.lock': '' }));
  assert.is(declared!.runner, 'pnpm');
  assert.equal(declared!.scripts[0].argv, ['pnpm', 'run', 'go']);
});

test('no package.json is null; a bad or oversized one is a sentence', async () => {
  assert.is(await readPackageScripts(folder('none', {})), null);
  for (const [name, text, message] of [
    ['broken', '{"scripts": ', /not valid JSON/],
    ['array', '[1]', /does not hold an object/],
    ['huge', `{"x":"${'a'.repeat(MAX_PACKAGE_JSON_BYTES)}"}`, /more than the 1048576 read/],
  ] as const) {
    try {
      await readPackageScripts(folder(name, { 'package.json': text }));
      assert.unreachable(name);
    } catch (err) {
      assert.match((err as Error).message, message, name);
    }
  }
  const noScripts = await readPackageScripts(folder('no-scripts', { 'package.json': '{"scripts": ["x"]}' }));
  assert.equal(noScripts!.scripts, []);
});

test('names a run may take, and the command line shown before it runs', () => {
  for (const ok of ['build', 'test:unit', 'lint-fix', 'build/all', 'ä']) assert.ok(runnableName(ok), ok);
  for (const bad of ['', '-x', '--help', 'a b', 'VAR=1', 'x\ny', 'a'.repeat(201)]) assert.not.ok(runnableName(bad), bad);
  assert.is(commandLine(['npm', 'run', 'test:unit']), 'npm run test:unit');
  assert.is(commandLine(['make', "it's"]), "make 'it'\\''s'");
});

test.run();
