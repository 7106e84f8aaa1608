// scripts/build.mjs on a copy of the tree: a dist file whose source is gone is removed (a deleted test must stop
// running, a removed module must stop being importable), folders it leaves empty go too, and every file that still
// has a source stays.
import { copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fromRoot } from '../../support/paths.js';
import { tempDir } from '../../support/tmp.js';

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

test('the build prunes dist files without a source, and the folders they leave empty', () => {
  const dir = tempDir('vigil-build-prune-');
  try {
    const root = dir.path;
    mkdirSync(join(root, 'scripts'));
    for (const script of ['build.mjs', 'build-ui.mjs']) copyFileSync(fromRoot(`scripts/${script}`), join(root, 'scripts', script));
    symlinkSync(fromRoot('node_modules'), join(root, 'node_modules'));
    write(join(root, 'policies/kept.ts'), 'export const kept = 1;\n');
    write(join(root, 'tests/unit/kept.test.ts'), 'export {};\n');
    const stale = ['dist/policies/renamed.js', 'dist/tests/unit/deleted.test.js', 'dist/runtime/gone/deep/module.js', 'plugin-sdk/dist/old.js'];
    for (const file of stale) write(join(root, file), 'throw new Error("stale");\n');

    const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    // This tree has no web UI to bundle: that step may fail here, and nothing else may.
    const problems = r.stderr.split('\n').filter((l) => l.startsWith('build:') && !l.startsWith('build: web UI') && !/^build: 1 file\(s\) failed$/.test(l));
    assert.equal(problems, [], r.stderr);

    for (const file of stale) assert.not.ok(existsSync(join(root, file)), `${file} is still there`);
    assert.not.ok(existsSync(join(root, 'dist/runtime/gone')), 'the folder the stale module left empty is still there');
    assert.ok(existsSync(join(root, 'dist/policies/kept.js')), 'a file with a source was removed or not built');
    assert.ok(existsSync(join(root, 'dist/tests/unit/kept.test.js')), 'a test with a source was removed or not built');
  } finally {
    dir.cleanup();
  }
});

test.run();
