import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FolderRoots, subfolders } from '../../../../plugins/devtools/folder-roots.js';
import { tempDir } from '../../../support/tmp.js';

const dir = tempDir('vigil-roots-');
const root = join(dir.path, 'root');
const outside = join(dir.path, 'outside');
mkdirSync(join(root, 'app', 'src'), { recursive: true });
mkdirSync(join(root, 'app', 'node_modules'));
mkdirSync(join(root, 'app', '.git'));
mkdirSync(outside);
writeFileSync(join(root, 'file.txt'), '');
symlinkSync(outside, join(root, 'escape'));
symlinkSync(join(root, 'app'), join(root, 'app-link'));
test.after(() => dir.cleanup());

const refusedWith = async (roots: FolderRoots, path: string, code: string, message: RegExp) => {
  try {
    await roots.folder(path);
  } catch (err) {
    assert.is((err as { code?: string }).code, code, path);
    assert.match((err as Error).message, message, path);
    return;
  }
  assert.unreachable(`${path} was allowed`);
};

test('folders under a root are allowed as their real paths; a symlink pointing outside is refused', async () => {
  const roots = await FolderRoots.resolve([root]);
  assert.is(await roots.folder(join(root, 'app')), join(root, 'app'));
  assert.is(await roots.folder(join(root, 'app-link')), join(root, 'app'), 'a link inside the roots counts as where it points');
  assert.is(await roots.folder(root), root);
  await refusedWith(roots, join(root, 'escape'), 'VIGIL_ERR_DEVTOOLS_FOLDER_REFUSED', /escape \(really .*outside\) is outside/);
  await refusedWith(roots, outside, 'VIGIL_ERR_DEVTOOLS_FOLDER_REFUSED', /outside/);
  await refusedWith(roots, join(root, 'app', '..', '..', 'outside'), 'VIGIL_ERR_DEVTOOLS_FOLDER_REFUSED', /outside/);
  await refusedWith(roots, 'relative/app', 'VIGIL_ERR_DEVTOOLS_FOLDER_REFUSED', /absolute/);
  await refusedWith(roots, join(root, 'file.txt'), 'VIGIL_ERR_DEVTOOLS_FOLDER_REFUSED', /not a folder/);
  await refusedWith(roots, join(root, 'nope'), 'VIGIL_ERR_DEVTOOLS_FOLDER_MISSING', /no folder/);
});

test('the parent stops at the root; sub-folders skip hidden ones, node_modules and links', async () => {
  const roots = await FolderRoots.resolve([root]);
  assert.is(roots.parentOf(join(root, 'app')), root);
  assert.is(roots.parentOf(root), null);
  assert.equal(await subfolders(join(root, 'app')), { names: ['src'], more: false });
  assert.equal((await subfolders(root)).names, ['app']);
});

test.run();
