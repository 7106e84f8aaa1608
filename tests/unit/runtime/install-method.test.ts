import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { installMethod } from '../../../runtime/install-method.js';
import { tempDir } from '../../support/tmp.js';

test('a checkout (a .git directory, or a worktree\'s .git file) is a git checkout, wherever it lies', () => {
  const dir = tempDir();
  try {
    const clone = join(dir.path, 'node_modules', 'vigil');
    mkdirSync(join(clone, '.git'), { recursive: true });
    assert.is(installMethod(clone, {}, '/usr/bin/node'), 'git checkout');
    const worktree = join(dir.path, 'wt');
    mkdirSync(worktree);
    writeFileSync(join(worktree, '.git'), 'gitdir: /elsewhere');
    assert.is(installMethod(worktree, {}, '/usr/bin/node'), 'git checkout');
  } finally {
    dir.cleanup();
  }
});

test('npx, global and project installs are told apart by where the package lies', () => {
  assert.is(installMethod('/home/ada/.npm/_npx/4f2a/node_modules/vigil', {}, '/usr/bin/node'), 'npx');
  assert.is(installMethod('/usr/lib/node_modules/vigil', {}, '/usr/bin/node'), 'global npm package');
  assert.is(installMethod('/opt/npm/lib/node_modules/vigil', { npm_config_prefix: '/opt/npm' }, '/usr/bin/node'), 'global npm package');
  assert.is(installMethod('/srv/app/node_modules/vigil', {}, '/usr/bin/node'), 'npm package');
  assert.is(installMethod('/srv/vigil-0.1.0', {}, '/usr/bin/node'), 'source tree');
});

test.run();
