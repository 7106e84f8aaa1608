// What lint cannot see: SQL. A table belongs to the layer whose migration creates it (a plugin, or gateway/ for the
// record store and the field observations); no plugin names a table another one owns, in a literal or through
// `store.table(…)`, which always gives the calling plugin's own. And middleware/ imports no plugin (lint holds the
// same; this reads the source, so a `new URL(…)` or dynamic import counts too).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { repoRoot } from '../../support/paths.js';

const posix = (path: string): string => path.split(sep).join('/');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) { if (!['node_modules', 'dist', 'assembly', 'fixtures'].includes(e.name)) out.push(...sources(path)); }
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The code of a file without its comments, so that prose naming a table is not taken for SQL. */
const code = (file: string): string =>
  readFileSync(join(repoRoot, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/** The layer a source file belongs to: `plugins/<name>`, `gateway`, `runtime`, … */
const layerOf = (file: string): string => (file.startsWith('plugins/') ? file.split('/').slice(0, 2).join('/') : file.split('/')[0]);

const plugins = readdirSync(join(repoRoot, 'plugins'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const owned = ['gateway', 'runtime', ...plugins.map((p) => `plugins/${p}`)].flatMap((dir) => sources(dir));

/** Every table a migration creates, with the layer that owns it. */
function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of owned) {
    for (const m of code(file).matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_][a-z0-9_]*)/gi)) owners.set(m[1].toLowerCase(), layerOf(file));
  }
  return owners;
}

/** Tables a plugin's file names in `text`: literally, or through `store.table('x')` (its own prefix: `<plugin>_x`). */
function tablesNamed(file: string, text: string, known: ReadonlyMap<string, string>): Set<string> {
  const named = new Set<string>();
  for (const m of text.matchAll(/\b[a-z][a-z0-9]*_[a-z0-9_]+\b/g)) if (known.has(m[0])) named.add(m[0]);
  const plugin = file.split('/')[1];
  for (const m of text.matchAll(/\.table\(\s*['"`]([a-z0-9_]+)['"`]\s*\)/g)) named.add(`${plugin}_${m[1]}`);
  return named;
}

test('the migrations name owners for the tables this test guards (the search is not empty)', () => {
  const owners = tableOwners();
  assert.is(owners.get('capture_records'), 'gateway');
  assert.is(owners.get('capture_fields'), 'gateway');
  assert.is(owners.get('llm_traces'), 'plugins/llm');
  assert.ok(owners.size >= 20, `${owners.size} tables found`);
});

test('no plugin names a table another plugin or gateway/ owns', () => {
  const owners = tableOwners();
  const found: string[] = [];
  for (const plugin of plugins) {
    for (const file of sources(`plugins/${plugin}`)) {
      for (const table of tablesNamed(file, code(file), owners)) {
        const owner = owners.get(table);
        if (owner !== undefined && owner !== `plugins/${plugin}`) found.push(`${file}: ${table} (owned by ${owner})`);
      }
    }
  }
  assert.equal(found, []);
});

test('the search finds a foreign table when a plugin names one', () => {
  const owners = tableOwners();
  // As if apitools still read capture_fields itself, and evaluators named the LLM's traces through its own store.
  const probe = (file: string, text: string) =>
    [...tablesNamed(file, text, owners)].filter((t) => owners.has(t) && owners.get(t) !== layerOf(file));
  assert.equal(probe('plugins/apitools/x.ts', "store.query('SELECT name FROM capture_fields')"), ['capture_fields']);
  assert.equal(probe('plugins/llm/x.ts', "store.query(`SELECT * FROM ${store.table('traces')}`)"), []);
  assert.equal(probe('plugins/evaluators/x.ts', "store.query('SELECT id FROM llm_traces')"), ['llm_traces']);
});

test('middleware/ imports nothing inside a plugin', () => {
  const found: string[] = [];
  for (const file of sources('middleware')) {
    for (const m of code(file).matchAll(/(?:from\s*|import\(\s*|new URL\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = posix(normalize(join(dirname(file), m[1])));
      if (target.startsWith('plugins/')) found.push(`${file}: ${m[1]}`);
    }
  }
  assert.equal(found, []);
  assert.ok(sources('middleware').some((f) => code(f).includes('/gateway/')), 'the middleware runs the gateway\'s kernel');
});

test('plugin-sdk/src names no table and imports no layer above it', () => {
  const owners = tableOwners();
  for (const file of sources('plugin-sdk/src')) {
    const text = code(file);
    for (const table of owners.keys()) assert.not.ok(new RegExp(`\\b${table}\\b`).test(text), `${file} names ${table}`);
    for (const m of text.matchAll(/from\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = posix(relative(repoRoot, join(repoRoot, dirname(file), m[1])));
      assert.ok(target.startsWith('plugin-sdk/'), `${file} imports ${m[1]}`);
    }
  }
});

test.run();
