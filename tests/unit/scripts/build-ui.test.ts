// scripts/build-ui.mjs on a copy of the tree: it skips an unchanged tree, rebuilds a changed one, and refuses a
// registry whose pages would take a path the control plane owns.
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fromRoot } from '../../support/paths.js';
import { tempDir } from '../../support/tmp.js';

type BuildUi = (root: string, options?: { force?: boolean }) => Promise<boolean>;
const { buildUi } = await import(pathToFileURL(fromRoot('scripts/build-ui.mjs')).href) as { buildUi: BuildUi };

/** A root holding a copy of ui/ and this script, with the real node_modules. */
function copyTree(): { root: string; cleanup(): void } {
  const dir = tempDir('vigil-build-ui-');
  cpSync(fromRoot('ui'), join(dir.path, 'ui'), { recursive: true });
  mkdirSync(join(dir.path, 'dist'));
  symlinkSync(fromRoot('node_modules'), join(dir.path, 'node_modules'));
  return { root: dir.path, cleanup: dir.cleanup };
}

test('builds hashed, pre-compressed assets and an index.html with one module script; skips an unchanged tree', async () => {
  const tree = copyTree();
  try {
    assert.is(await buildUi(tree.root), true);
    const manifest = JSON.parse(readFileSync(join(tree.root, 'dist/ui/manifest.json'), 'utf8')) as { script: string; stylesheet: string; segments: string[] };
    assert.match(manifest.script, /^\/assets\/main-[A-Z0-9]{8}\.js$/);
    const script = join(tree.root, 'dist/ui', manifest.script);
    assert.ok(existsSync(`${script}.gz`) && existsSync(`${script}.br`));
    assert.equal(manifest.segments.sort(), ['about', 'alerts', 'gateway', 'host', 'llm', 'settings']);
    const html = readFileSync(join(tree.root, 'dist/ui/index.html'), 'utf8');
    assert.is([...html.matchAll(/<script/g)].length, 1);
    assert.ok(html.includes(`<script type="module" src="${manifest.script}">`));
    assert.is(await buildUi(tree.root), false, 'nothing changed: skipped');
    writeFileSync(join(tree.root, 'ui/src/styles/tokens.css'), readFileSync(join(tree.root, 'ui/src/styles/tokens.css'), 'utf8') + '\n/* changed */\n');
    assert.is(await buildUi(tree.root), true, 'a changed source rebuilds');
  } finally {
    tree.cleanup();
  }
});

test('an area or page on a path the control plane owns fails the build with the reason', async () => {
  // Edits of the host area's registry entry, whatever pages it has by now.
  const cases: [string, (text: string) => string, RegExp][] = [
    ["id: 'api'", (t) => t.replace("id: 'host',", "id: 'api',").replaceAll("path: '/host", "path: '/api"), /takes \/api, which the control plane owns/],
    ["id: 'Login'", (t) => t.replace("id: 'host',", "id: 'Login',").replaceAll("path: '/host", "path: '/Login"), /lower-case segment/],
    ['a page under /gateway', (t) => t.replace(/pages: \[/, "pages: [{ path: '/gateway/host', title: 'x', load: () => import('./x.js') },"), /must lie under \/host/],
  ];
  for (const [what, edit, message] of cases) {
    const tree = copyTree();
    try {
      const file = join(tree.root, 'ui/src/areas/host/index.ts');
      writeFileSync(file, edit(readFileSync(file, 'utf8')));
      await buildUi(tree.root).then(() => assert.unreachable(`${what} was accepted`), (err: Error) => assert.match(err.message, message));
    } finally {
      tree.cleanup();
    }
  }
});

test.run();
