import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allowedSqlitePath } from '../../../../plugins/dbbrowser/connection-store.js';
import { tempDir } from '../../../support/tmp.js';

const dir = tempDir('vigil-dbpath-');
const root = join(dir.path, 'root');
const outside = join(dir.path, 'outside');
mkdirSync(join(root, 'sub'), { recursive: true });
mkdirSync(outside);
writeFileSync(join(root, 'sub', 'app.db'), '');
writeFileSync(join(outside, 'secret.db'), '');
symlinkSync(join(outside, 'secret.db'), join(root, 'link-out.db'));
symlinkSync(join(root, 'sub', 'app.db'), join(outside, 'link-in.db'));
test.after(() => dir.cleanup());

const refused = async (path: string, message: RegExp) => {
  try {
    await allowedSqlitePath(path, [root]);
  } catch (err) {
    assert.match((err as Error).message, message, path);
    assert.is((err as { code?: string }).code, 'VIGIL_ERR_DBBROWSER_CONNECTION_INVALID');
    return;
  }
  assert.unreachable(`${path} was allowed`);
};

test('a file under the root is allowed, as its real path', async () => {
  assert.is(await allowedSqlitePath(join(root, 'sub', 'app.db'), [root]), join(root, 'sub', 'app.db'));
  assert.is(await allowedSqlitePath(join(outside, 'link-in.db'), [root]), join(root, 'sub', 'app.db'), 'a link from outside to a file inside');
});

test('outside the root, climbing out with .., a symlink out, the root itself, relative and missing paths are refused', async () => {
  await refused(join(outside, 'secret.db'), /outside the folders/);
  await refused(`${root}/../outside/secret.db`, /outside the folders/);
  await refused(join(root, 'link-out.db'), /outside the folders/);
  await refused(join(root, 'sub'), /is not a file/);
  await refused(root, /outside the folders/);
  await refused('sub/app.db', /must be absolute/);
  await refused(join(root, 'none.db'), /there is no file/);
});

test.run();
