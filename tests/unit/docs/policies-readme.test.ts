// policies/README.md is the layer's map (issue 21 found it naming 9 of 17 files and a folder that did not exist):
// every source file and folder of policies/ has its row, and every file a row names exists.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/paths.js';

const dir = join(repoRoot, 'policies');
const readme = readFileSync(join(dir, 'README.md'), 'utf8');

test('every file and folder of policies/ is named in its README', () => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const name = e.isDirectory() ? `${e.name}/` : e.name;
    if (name === 'README.md') continue;
    assert.ok(readme.includes(`\`${name}\``), `policies/README.md does not name \`${name}\``);
  }
});

test('every file the README\'s table names exists', () => {
  const named = [...readme.matchAll(/^\| `([a-z][a-z0-9-]*(?:\.ts|\/))` \|/gm)].map((m) => m[1]);
  assert.ok(named.length >= readdirSync(dir).length - 1, `the table names ${named.length} files`);
  for (const name of named) {
    assert.ok(existsSync(join(dir, name)), `policies/README.md names ${name}, which is not in policies/`);
  }
});

test.run();
