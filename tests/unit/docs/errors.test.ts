// Every layer's errors.ts holds one catalogue made with defineErrorCodes; this test finds them all by walking the
// built tree (a new plugin's errors.ts is picked up without being listed here), checks the one shape, and keeps
// docs/errors.md, the list users read, generated from them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorCatalogueOf, type ErrorCatalogue } from '@vigil/plugin-sdk';
import { repoRoot } from '../../support/paths.js';

/** Built trees and the source trees they come from. */
const TREES: [built: string, source: string][] = [
  ['dist/runtime', 'runtime'], ['dist/gateway', 'gateway'], ['dist/plugins', 'plugins'], ['dist/policies', 'policies'], ['dist/sandbox', 'sandbox'],
  ['plugin-sdk/dist', 'plugin-sdk/src'], ['clients/node/dist', 'clients/node/src'], ['dist/middleware', 'middleware'],
];
/** Never scanned for codes: generated, installed or built files, and tests (which assert on literal codes on purpose). */
const NOT_SOURCE = new Set(['node_modules', 'dist', '.git', 'tests', 'fixtures']);
const DOC = 'docs/errors.md';

const CODE = /\bVIGIL_ERR_[A-Z0-9_]*[A-Z0-9](?![A-Z0-9_*…{])/g;

const posix = (path: string): string => path.split(sep).join('/');

function* walk(dir: string, skip: ReadonlySet<string> = new Set()): Generator<string> {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) { if (!skip.has(e.name)) yield* walk(path, skip); } else yield path;
  }
}

interface Found {
  /** The source file, relative to the repository: `runtime/http/errors.ts`. */
  file: string;
  exports: Record<string, unknown>;
}

async function errorModules(): Promise<Found[]> {
  const found: Found[] = [];
  for (const [built, source] of TREES) {
    for (const path of walk(join(repoRoot, built))) {
      if (!path.endsWith(`${sep}errors.js`)) continue;
      const file = posix(join(source, relative(join(repoRoot, built), path))).replace(/\.js$/, '.ts');
      found.push({ file, exports: await import(pathToFileURL(path).href) as Record<string, unknown> });
    }
  }
  return found;
}

const modules = await errorModules();
const catalogues = modules.map((m) => ({
  file: m.file,
  named: Object.entries(m.exports).flatMap(([name, value]) => {
    const catalogue = errorCatalogueOf(value);
    return catalogue ? [{ name, catalogue, codes: value as Record<string, string> }] : [];
  }),
}));

/** Source .ts and .md files (relative paths) with their text; docs/errors.md itself is generated from the catalogues. */
const sources = [...walk(repoRoot, NOT_SOURCE)]
  .map((path) => posix(relative(repoRoot, path)))
  .filter((file) => /\.(ts|md)$/.test(file) && !file.endsWith('.d.ts') && file !== DOC)
  .map((file) => ({ file, text: readFileSync(join(repoRoot, file), 'utf8') }));

test('the errors.ts files are found in the built tree, and each still has its source', () => {
  assert.ok(modules.length >= 10, `only ${modules.length} errors.js found: run node scripts/build.mjs first`);
  for (const m of modules) assert.ok(existsSync(join(repoRoot, m.file)), `${m.file} is gone but its build output remains`);
});

test('every errors.ts holds exactly one catalogue, named <Area>Errors', () => {
  for (const { file, named } of catalogues) {
    assert.is(named.length, 1, `${file} exports ${named.length} catalogues (${named.map((n) => n.name).join(', ') || 'none'}); ` +
      'define its codes once with defineErrorCodes');
    assert.match(named[0].name, /^[A-Z][A-Za-z]*Errors$/, `${file}: the catalogue is named ${named[0].name}`);
  }
});

test('keys equal the code\'s suffix, after one prefix per file', () => {
  for (const { file, named } of catalogues) {
    for (const { codes, catalogue } of named) {
      for (const [key, code] of Object.entries(codes)) assert.is(code, `VIGIL_ERR_${catalogue.prefix}_${key}`, file);
      assert.equal(catalogue.codes.map((c) => c.code).sort(), Object.values(codes).sort(), file);
    }
  }
});

test('no other export of an errors.ts holds codes: the catalogue is the one place', () => {
  for (const m of modules) {
    for (const [name, value] of Object.entries(m.exports)) {
      if (errorCatalogueOf(value) || value === null || typeof value !== 'object') continue;
      const codes = Object.values(value).filter((v) => typeof v === 'string' && v.startsWith('VIGIL_ERR_'));
      assert.is(codes.length, 0, `${m.file} exports ${name} holding ${codes.join(', ')}; use the catalogue's keys`);
    }
  }
});

test('prefixes are unique across files', () => {
  const seen = new Map<string, string>();
  for (const { file, named } of catalogues) {
    for (const { catalogue } of named) {
      assert.not.ok(seen.has(catalogue.prefix), `prefix ${catalogue.prefix} is used by ${seen.get(catalogue.prefix)} and ${file}`);
      seen.set(catalogue.prefix, file);
    }
  }
});

const defined = new Set(catalogues.flatMap((c) => c.named.flatMap((n) => n.catalogue.codes.map((x) => x.code))));
test('every code the sources and READMEs name is defined in a catalogue', () => {
  const unknown = sources.flatMap(({ file, text }) =>
    [...new Set(text.match(CODE) ?? [])].filter((code) => !defined.has(code)).map((code) => `${file}: ${code}`));
  assert.equal(unknown, [], 'codes that no catalogue defines (renamed or never defined)');
});

test('no code is written as a literal in source: it comes from a catalogue', () => {
  // Comments may name codes (the test above keeps them honest); code must not spell them.
  const literal = /['"`]VIGIL_ERR_(?!\$\{)/;
  const offenders = sources
    .filter(({ file }) => file.endsWith('.ts'))
    .filter(({ text }) => literal.test(text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')))
    .map(({ file }) => file);
  assert.equal(offenders, []);
});

test('an HttpError is made only by httpError, from a code whose entry holds its status', () => {
  // `new HttpError(status, …)` would write the status a second time, where it can drift from the entry and the docs.
  const defining = new Set(['plugin-sdk/src/errors.ts']);
  const offenders = sources
    .filter(({ file, text }) => file.endsWith('.ts') && !defining.has(file) && /\bnew HttpError\(/.test(text))
    .map(({ file }) => file);
  assert.equal(offenders, [], 'throw httpError(Errors.CODE, message) instead');
});

test('a meaning leaves the status to the entry: no "(404) …" in the prose', () => {
  const stated = catalogues.flatMap(({ file, named }) => named.flatMap(({ catalogue }) => catalogue.codes
    .filter((c) => /^\(\d{3}\)/.test(c.meaning)).map((c) => `${file}: ${c.code}`)));
  assert.equal(stated, []);
});

/** One table cell: `|` escaped everywhere; outside code spans, `<` (an HTML tag) and `*` (emphasis) written literally. */
const cell = (text: string): string => text.replace(/\s*\n\s*/g, ' ').split(/(`[^`]*`)/)
  .map((part, i) => (i % 2 ? part : part.replace(/</g, '&lt;').replace(/\*/g, '\\*')))
  .join('').replace(/\|/g, '\\|');

/** docs/errors.md, from the catalogues. */
function render(): string {
  const lines = [
    '# Error codes',
    '',
    '<!-- Generated by tests/unit/docs/errors.test.ts from every errors.ts: edit the catalogues, not this file. -->',
    '',
    'Every error Vigil raises on purpose carries a stable code, `VIGIL_ERR_<AREA>_<WHAT>`. A code keeps its meaning',
    'across releases (a renamed code is a breaking change); messages may change, and say what went wrong, where (file,',
    'line, key path, plugin) and what to do. The code appears:',
    '',
    '- in CLI output: `vigil: VIGIL_ERR_…: message`; a config file problem prints `file:line:column: message` and exits 2;',
    '- in JSON error bodies of the control plane and the gateway: `{ "error": { "code", "message" } }`;',
    '- in logs (the `err.code` field of a JSON log line) and in a job\'s `last_error`;',
    '- in metrics and records that count failures: `vigil_proxy_failures_total{code}`, a gateway record\'s `error`.',
    '',
    'Each area below is one `errors.ts` in the source tree, where the code is defined. Status is the HTTP status the',
    'code is answered with, written once in its entry (handlers throw by code); — marks a code that is no HTTP answer.',
  ];
  const all = catalogues.flatMap(({ file, named }) => named.map(({ catalogue }) => ({ file, catalogue })))
    .sort((a, b) => a.catalogue.prefix.localeCompare(b.catalogue.prefix));
  for (const { file, catalogue } of all as { file: string; catalogue: ErrorCatalogue }[]) {
    lines.push('', `## ${catalogue.prefix} (\`${file}\`)`, '', '| Code | Status | Meaning | What to do |', '|---|---|---|---|');
    for (const c of [...catalogue.codes].sort((a, b) => a.code.localeCompare(b.code))) {
      lines.push(`| \`${c.code}\` | ${c.status ?? '—'} | ${cell(c.meaning)} | ${cell(c.action)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

test('docs/errors.md is the rendering of the catalogues', () => {
  const path = join(repoRoot, DOC);
  const text = render();
  const committed = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (committed !== text) {
    writeFileSync(path, text);
    assert.unreachable(`${DOC} was out of date and has been regenerated: commit it`);
  }
});

test.run();
