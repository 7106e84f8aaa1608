// The built web UI (dist/ui, written by scripts/build-ui.mjs), read into memory once at start: a few hundred
// kilobytes, each file with its stored br and gzip forms, so answering never touches the disk.
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Encoding } from './content-encoding.js';
import { notBuilt } from './errors.js';

/** `dist/ui/manifest.json` */
export interface UiManifest {
  /** `/assets/main-<hash>.js` */
  script: string;
  stylesheet: string;
  /** The login form's stylesheet, given to the control plane (`pageStylesheet`). */
  loginStylesheet: string;
  preload: string[];
  /** Files of ui/static by their own name (`favicon.svg`), as the hashed URL they are served at. */
  static: Record<string, string>;
  /** The areas of the front end's registry (ui/src/areas/index.ts), as the build read them. */
  areas: { id: string; title: string; requires: string[]; pages: string[] }[];
  /** First path segments of the front end's pages: `/<segment>` and below answer with the page. */
  segments: string[];
}

export interface Asset {
  contentType: string;
  /** The file, and its compressed forms where the build kept them (only when smaller). */
  forms: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
}

export interface BuiltUi {
  manifest: UiManifest;
  /** By file name under /assets/. */
  assets: Map<string, Asset>;
  /** index.html as built: the display settings go onto its <html> per request (index-page.ts). */
  indexTemplate: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** The default location: dist/ui beside dist/plugins/ui, where this module runs from. */
export const DEFAULT_UI_DIR = new URL('../../ui/', import.meta.url);

/** Reads `dir`; throws VIGIL_ERR_UI_NOT_BUILT naming what is missing. */
export async function loadBuiltUi(dir: string): Promise<BuiltUi> {
  let manifest: UiManifest;
  let indexTemplate: string;
  try {
    manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as UiManifest;
    indexTemplate = await readFile(join(dir, 'index.html'), 'utf8');
  } catch (err) {
    throw notBuilt(dir, (err as Error).message);
  }
  const assets = new Map<string, Asset>();
  const names = await readdir(join(dir, 'assets')).catch((err: Error) => { throw notBuilt(dir, err.message); });
  for (const name of names) {
    if (name.endsWith('.gz') || name.endsWith('.br')) continue;
    const path = join(dir, 'assets', name);
    const forms: Asset['forms'] = { identity: await readFile(path) };
    for (const [coding, ext] of [['gzip', '.gz'], ['br', '.br']] as const) {
      const stored = await readFile(path + ext).catch(() => undefined);
      if (stored) forms[coding] = stored;
    }
    assets.set(name, { contentType: CONTENT_TYPES[extname(name)] ?? 'application/octet-stream', forms });
  }
  for (const url of [manifest.script, manifest.stylesheet, manifest.loginStylesheet]) {
    if (!assets.has(url.replace(/^\/assets\//, ''))) throw notBuilt(dir, `${url} is named by manifest.json but missing`);
  }
  return { manifest, assets, indexTemplate };
}
