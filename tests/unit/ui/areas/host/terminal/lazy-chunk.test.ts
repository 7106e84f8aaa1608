// xterm.js (about 350 KB) loads with the terminal page only: the shell's script and the chunks it preloads hold none
// of it, and the page's own chunk does. Read from the built assets (dist/ui, written by scripts/build.mjs).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromRoot } from '../../../../../support/paths.js';

/** A string only xterm.js's code holds: the class of its hidden input. */
const XTERM = 'xterm-helper-textarea';
const assets = fromRoot('dist/ui/assets');
const read = (url: string): string => readFileSync(join(assets, url.replace(/^\/assets\//, '')), 'utf8');

test('the first load holds no xterm; the terminal page\'s chunk does', () => {
  const manifest = JSON.parse(readFileSync(fromRoot('dist/ui/manifest.json'), 'utf8')) as { script: string; preload: string[] };
  for (const url of [manifest.script, ...manifest.preload]) assert.not.ok(read(url).includes(XTERM), `${url} holds xterm`);
  const page = readdirSync(assets).filter((f) => /^terminal-page-[A-Z0-9]+\.js$/.test(f));
  assert.is(page.length, 1, 'one chunk for the terminal page');
  assert.ok(read(page[0]).includes(XTERM), 'xterm is in the page\'s chunk');
});

test.run();
