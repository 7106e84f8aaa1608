// docs/README.md is the map a newcomer reads: it lists every guide and every folder README, one line each. A Markdown
// file it does not list is a page nobody finds, and a link to a file that moved is a dead end; both fail here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { repoRoot } from '../../support/paths.js';

const INDEX = 'docs/README.md';
/** Never part of the docs: installed, built or generated trees, and local data (what .gitignore keeps out). */
const NOT_DOCS = new Set(['node_modules', 'dist', 'coverage']);
const NOT_DOCS_AT_ROOT = new Set(['release', 'export']);

const posix = (path: string): string => path.split(sep).join('/');

function* markdownFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      const skipped = e.name.startsWith('.') || NOT_DOCS.has(e.name) || (dir === repoRoot && NOT_DOCS_AT_ROOT.has(e.name));
      if (!skipped) yield* markdownFiles(path);
    } else if (e.name.endsWith('.md')) {
      yield posix(relative(repoRoot, path));
    }
  }
}

/** `listing` is false for a link to a section (`file.md#part`): a cross-reference, while the file's own line lists it. */
interface IndexLink { target: string; listing: boolean; line: number; text: string }

/** Relative links of the index (web links and in-page anchors left out), resolved to repository paths. */
function indexLinks(): IndexLink[] {
  assert.ok(existsSync(join(repoRoot, INDEX)), `${INDEX} does not exist: the docs have no index`);
  const lines = readFileSync(join(repoRoot, INDEX), 'utf8').split('\n');
  const links: IndexLink[] = [];
  lines.forEach((text, i) => {
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const href = m[1];
      if (/^[a-z]+:/i.test(href) || href.startsWith('#')) continue;
      const [path, anchor] = href.split('#');
      const target = posix(relative(repoRoot, join(repoRoot, dirname(INDEX), path)));
      links.push({ target, listing: anchor === undefined, line: i + 1, text });
    }
  });
  return links;
}

test('every Markdown file of the repository is listed in docs/README.md', () => {
  const listed = new Set(indexLinks().filter((l) => l.listing).map((l) => l.target));
  const missing = [...markdownFiles(repoRoot)].filter((f) => f !== INDEX && !listed.has(f)).sort();
  assert.equal(missing, [], `${INDEX} does not list: ${missing.join(', ')}`);
});

test('every file docs/README.md links to exists', () => {
  const links = indexLinks();
  assert.ok(links.length > 0, `${INDEX} links to nothing`);
  for (const l of links) {
    assert.ok(existsSync(join(repoRoot, l.target)), `${INDEX}:${l.line} links to ${l.target}, which does not exist`);
  }
});

test('docs/README.md lists each Markdown file once, on a list line of its own with what it holds', () => {
  const seen = new Map<string, number>();
  for (const l of indexLinks().filter((x) => x.listing && x.target.endsWith('.md'))) {
    const before = seen.get(l.target);
    assert.is(before, undefined, `${INDEX} lists ${l.target} on lines ${before} and ${l.line}`);
    seen.set(l.target, l.line);
    assert.match(l.text, /^\s*- \[[^\]]+\]\([^)]+\)\S*:? \S/, `${INDEX}:${l.line}: "- [name](path): what it holds" expected`);
  }
});

test('the top README links to the docs index', () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  assert.ok(readme.includes('](docs/README.md)'), 'README.md does not link to docs/README.md');
});

test.run();
