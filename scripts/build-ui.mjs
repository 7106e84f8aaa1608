// Builds the web UI (ui/) into static assets for plugins/ui:
//   dist/ui/index.html            the shell page: one module script, one stylesheet, no inline script or style; a
//                                 template plugins/ui completes with the display settings (no flash of the wrong theme)
//   dist/ui/assets/<name>-<hash>  the bundle (esbuild, ESM, code-split: pages and charts load with import()), the
//                                 CSS, the login page's CSS and the static files of ui/static/, each with .gz and .br
//                                 siblings when they are smaller
//   dist/ui/manifest.json         what plugins/ui needs to serve them: the entry files and the areas' URL segments
// The build is skipped when nothing it reads changed (ui/, this script, the bundled packages' versions).
import { build, version as esbuildVersion } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

/** Path segments the control plane or its plugins own: an area id or system page may not take one. */
const RESERVED_SEGMENTS = new Set(['api', 'assets', 'login', 'logout', 'metrics', 'v1', 'favicon.ico']);
/** Packages bundled into the assets: a new version must rebuild them. */
const BUNDLED = ['preact', '@preact/signals', '@preact/signals-core', 'uplot', '@xterm/xterm', '@xterm/addon-fit'];
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.map', '.txt']);

async function* walk(dir) {
  let entries;
  try { entries = await readdir(dir, { withFileTypes: true }); } catch { return; }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else yield p;
  }
}

/** A digest of everything the build reads, so an unchanged tree skips the build. */
async function fingerprint(root) {
  const hash = createHash('sha256');
  hash.update(`esbuild ${esbuildVersion}\n`);
  for (const name of BUNDLED) {
    const pkg = JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8'));
    hash.update(`${name} ${pkg.version}\n`);
  }
  hash.update(await readFile(fileURLToPath(import.meta.url)));
  for await (const file of walk(join(root, 'ui'))) {
    hash.update(`${relative(root, file)}\n`);
    hash.update(await readFile(file));
  }
  return hash.digest('hex');
}

const contentHash = (bytes) => createHash('sha256').update(bytes).digest('base64url').replace(/[-_]/g, '').slice(0, 10).toUpperCase();

/**
 * The areas' URL segments and pages, read from the registry itself (ui/src/areas/index.ts) so there is one list:
 * the registry is bundled for Node with every lazy `import()` left out, then evaluated. Area definitions are data;
 * a definition that touches the DOM at import time fails the build here.
 */
async function readRegistry(root) {
  const result = await build({
    entryPoints: [join(root, 'ui/src/areas/index.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
    plugins: [{
      name: 'pages-stay-lazy',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined));
      },
    }],
  });
  const code = result.outputFiles[0].text;
  const registry = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  const areas = registry.areas.map((a) => ({ id: a.id, title: a.title, requires: a.requires, pages: a.pages.map((p) => p.path) }));
  for (const area of areas) {
    const outside = area.pages.find((p) => p !== `/${area.id}` && !p.startsWith(`/${area.id}/`));
    if (outside) throw new Error(`ui: page ${outside} of area "${area.id}" must lie under /${area.id}`);
  }
  const systemPages = registry.systemPages.map((p) => p.path);
  // Every area owns its segment, pages or not: an area that is off still answers there with how to turn it on.
  const segments = new Set();
  for (const path of [...areas.map((a) => `/${a.id}`), ...areas.flatMap((a) => a.pages), ...systemPages]) {
    const segment = path.split('/')[1];
    if (!segment || !/^[a-z][a-z0-9-]*$/.test(segment)) throw new Error(`ui: page path ${path} must start with /<lower-case segment>`);
    if (RESERVED_SEGMENTS.has(segment)) throw new Error(`ui: page path ${path} takes /${segment}, which the control plane owns; choose another`);
    segments.add(segment);
  }
  return { areas, segments: [...segments] };
}

async function compress(file) {
  if (!COMPRESSIBLE.has(extname(file))) return;
  const bytes = await readFile(file);
  const gz = gzipSync(bytes, { level: 9 });
  const br = brotliCompressSync(bytes, {
    params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  // A variant that saves nothing is not written: the plugin then serves the file as it is.
  if (gz.length < bytes.length) await writeFile(`${file}.gz`, gz);
  if (br.length < bytes.length) await writeFile(`${file}.br`, br);
}

const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** Builds dist/ui unless its inputs are unchanged; returns whether it built. `force` rebuilds anyway. */
export async function buildUi(root, { force = false, log = () => {} } = {}) {
  const out = join(root, 'dist/ui');
  const stampFile = join(out, '.build-stamp');
  const stamp = await fingerprint(root);
  if (!force) {
    const previous = await readFile(stampFile, 'utf8').catch(() => '');
    const complete = await stat(join(out, 'manifest.json')).then(() => true, () => false);
    if (previous === stamp && complete) return false;
  }

  const assets = join(out, 'assets');
  await rm(assets, { recursive: true, force: true });
  for (const name of ['index.html', 'manifest.json', '.build-stamp']) await rm(join(out, name), { force: true });
  await mkdir(assets, { recursive: true });

  const registry = await readRegistry(root);
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: 'ui/src/main.tsx', login: 'ui/src/styles/login.css' },
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    // Browsers from 2023 on: every one with ES modules, CSS nesting and the features the shell uses.
    target: ['chrome115', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: assets,
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'eof',
    charset: 'utf8',
    logLevel: 'silent',
  });
  for (const w of result.warnings) log(`ui build warning: ${w.text}`);

  const outputs = Object.entries(result.metafile.outputs);
  const url = (path) => `/assets/${basename(path)}`;
  const [mainJs, main] = outputs.find(([, o]) => o.entryPoint === 'ui/src/main.tsx');
  const [loginCss] = outputs.find(([path, o]) => o.entryPoint === 'ui/src/styles/login.css' && path.endsWith('.css'));
  // esbuild writes an empty JS file for a CSS entry point; nothing loads it.
  for (const [path, o] of outputs) if (o.entryPoint === 'ui/src/styles/login.css' && path.endsWith('.js')) await rm(join(root, path));
  // Chunks the entry imports statically are fetched in parallel with it instead of after it.
  const preload = main.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => url(i.path));

  const statics = {};
  for await (const file of walk(join(root, 'ui/static'))) {
    const bytes = await readFile(file);
    const ext = extname(file);
    const name = `${basename(file, ext)}-${contentHash(bytes)}${ext}`;
    await writeFile(join(assets, name), bytes);
    statics[basename(file)] = `/assets/${name}`;
  }

  const head = [
    `<link rel="stylesheet" href="${attr(url(main.cssBundle))}">`,
    ...(statics['favicon.svg'] ? [`<link rel="icon" type="image/svg+xml" href="${attr(statics['favicon.svg'])}">`] : []),
    ...preload.map((href) => `<link rel="modulepreload" href="${attr(href)}">`),
    `<script type="module" src="${attr(url(mainJs))}"></script>`,
  ].join('\n');
  const template = await readFile(join(root, 'ui/index.html'), 'utf8');
  if (!template.includes('<!-- assets -->')) throw new Error('ui/index.html: the <!-- assets --> placeholder is missing');
  await writeFile(join(out, 'index.html'), template.replace('<!-- assets -->', head));

  const manifest = {
    script: url(mainJs),
    stylesheet: url(main.cssBundle),
    loginStylesheet: url(loginCss),
    preload,
    static: statics,
    areas: registry.areas,
    segments: registry.segments,
  };
  await writeFile(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  // index.html is not compressed here: plugins/ui fills in the display settings per request and compresses the
  // few variants itself.
  for await (const file of walk(assets)) await compress(file);
  await writeFile(stampFile, stamp);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(fileURLToPath(import.meta.url), '..', '..');
  const built = await buildUi(root, { force: process.argv.includes('--force'), log: console.error });
  console.log(built ? 'ui: built dist/ui' : 'ui: unchanged');
}
