// Transpiles the TypeScript sources file by file with esbuild (no bundling), mirroring the tree:
//   app/ runtime/ gateway/ plugins/ policies/ sandbox/ tests/ bench/  ->  dist/<same path>.js
//   plugin-sdk/src/                                      ->  plugin-sdk/dist/
//   clients/node/src/ (@vigil/llm-client)                ->  clients/node/dist/, and dist/clients/node/src/ (so that
//                                                            unit tests import its internal modules by relative path)
//   ui/src/                                              ->  dist/ui/src/ (for the front end's unit tests in Node)
//   middleware/ (@vigil/express, @vigil/koa, their core) ->  dist/middleware/ (beside the layers they import)
// then bundles the web UI into dist/ui/ (scripts/build-ui.mjs), unless its sources are unchanged.
// Type checking is separate (`npm run typecheck`, also run by `npm test`). A file that fails to transpile is
// reported and the others are still written, so one broken file never blocks the rest.
// Flags: --types also emits the .d.ts files of plugin-sdk and clients/node (for publishing); --clean removes dist first.
import { transform } from 'esbuild';
import { readdir, readFile, writeFile, mkdir, stat, rm, copyFile } from 'node:fs/promises';
import { join, dirname, relative, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { buildUi } from './build-ui.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const trees = [
  ['app', 'dist/app'], ['runtime', 'dist/runtime'], ['gateway', 'dist/gateway'], ['plugins', 'dist/plugins'], ['policies', 'dist/policies'],
  ['sandbox', 'dist/sandbox'], ['tests', 'dist/tests'], ['bench', 'dist/bench'],
  ['plugin-sdk/src', 'plugin-sdk/dist'], ['clients/node/src', 'clients/node/dist'], ['clients/node/src', 'dist/clients/node/src'],
  ['ui/src', 'dist/ui/src'], ['middleware', 'dist/middleware'],
];
// Folders never transpiled: AssemblyScript guests and fixtures are not Node code.
const skipDirs = new Set(['assembly', 'fixtures', 'node_modules', 'dist']);
// Non-TS files copied verbatim (e.g. SQL, wasm built into the tree, JSON).
const copyExt = new Set(['.json', '.sql', '.wasm', '.html', '.css', '.js', '.mjs']);

const args = new Set(process.argv.slice(2));
if (args.has('--clean')) {
  await rm(join(root, 'dist'), { recursive: true, force: true });
  await rm(join(root, 'plugin-sdk/dist'), { recursive: true, force: true });
  await rm(join(root, 'clients/node/dist'), { recursive: true, force: true });
}

async function* walk(dir) {
  let entries;
  try { entries = await readdir(dir, { withFileTypes: true }); } catch { return; }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) { if (!skipDirs.has(e.name)) yield* walk(p); }
    else yield p;
  }
}

async function newer(src, out) {
  try { return (await stat(src)).mtimeMs > (await stat(out)).mtimeMs; } catch { return true; }
}

let built = 0, failed = 0;
const jobs = [];
for (const [from, to] of trees) {
  for await (const file of walk(join(root, from))) {
    const ext = extname(file);
    const rel = relative(join(root, from), file);
    if ((ext === '.ts' || ext === '.tsx') && !file.endsWith('.d.ts')) {
      const out = join(root, to, rel.slice(0, -ext.length) + '.js');
      jobs.push((async () => {
        if (!(await newer(file, out))) return;
        try {
          const src = await readFile(file, 'utf8');
          const result = await transform(src, {
            loader: ext.slice(1), format: 'esm', target: 'node20', sourcemap: 'inline', sourcefile: relative(root, file),
            jsx: 'automatic', jsxImportSource: 'preact',
          });
          await mkdir(dirname(out), { recursive: true });
          await writeFile(out, result.code);
          built++;
        } catch (err) {
          failed++;
          console.error(`build: ${relative(root, file)}: ${err.message}`);
        }
      })());
    } else if (copyExt.has(ext)) {
      const out = join(root, to, rel);
      jobs.push((async () => {
        if (!(await newer(file, out))) return;
        await mkdir(dirname(out), { recursive: true });
        await copyFile(file, out);
      })());
    }
  }
}
await Promise.all(jobs);

// A dist file whose source is gone (renamed or deleted) is removed, so a deleted test stops running and a removed
// module cannot be imported by mistake.
let pruned = 0;
for (const [from, to] of trees) {
  for await (const out of walk(join(root, to))) {
    const rel = relative(join(root, to), out);
    const sources = extname(rel) === '.js' ? [rel.slice(0, -3) + '.ts', rel.slice(0, -3) + '.tsx', rel] : [rel];
    const exists = await Promise.all(sources.map((s) => stat(join(root, from, s)).then(() => true, () => false)));
    if (!exists.some(Boolean)) { await rm(out); pruned++; }
  }
  await removeEmptyDirs(join(root, to));
}

async function removeEmptyDirs(dir) {
  let entries;
  try { entries = await readdir(dir, { withFileTypes: true }); } catch { return; }
  for (const e of entries) if (e.isDirectory()) await removeEmptyDirs(join(dir, e.name));
  if ((await readdir(dir)).length === 0) await rm(dir, { recursive: true });
}

// The middleware packages' entry points: each re-exports its build beside the layers it imports (dist/middleware/),
// so that `import '@vigil/express'` through the workspace link runs the same files as the tests.
for (const name of ['express', 'koa']) {
  const out = join(root, 'middleware', name, 'dist', 'index.js');
  const target = `../../../dist/middleware/${name}/src/index.js`;
  const text = `export * from '${target}';\nexport { default } from '${target}';\n`;
  if ((await readFile(out, 'utf8').catch(() => '')) !== text) {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, text);
  }
}

try {
  const uiBuilt = await buildUi(root, { force: args.has('--clean'), log: console.error });
  if (uiBuilt && args.has('--verbose')) console.log('build: web UI bundled into dist/ui');
} catch (err) {
  failed++;
  console.error(`build: web UI: ${err.message}`);
}

if (args.has('--types')) {
  for (const project of ['plugin-sdk/tsconfig.json', 'clients/node/tsconfig.json']) {
    const r = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) failed++;
  }
}
if (failed) { console.error(`build: ${failed} file(s) failed`); process.exit(1); }
if (args.has('--verbose')) console.log(`build: ${built} file(s) transpiled, ${pruned} stale file(s) removed`);
