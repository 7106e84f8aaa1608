// Nothing in the repository may cite what a reader of the repository cannot open: the design notes and the issue
// tracker live outside it, so "Budget (DESIGN.md)" or "the table" leaves the reader with a name and no text.
// A budget is written down in bench/README.md, a table beside the code that follows it, a reason in the comment.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { repoRoot } from '../../support/paths.js';

/** Installed and built trees are not ours to word. */
const NOT_OURS = new Set(['node_modules', 'dist']);

function* files(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) { if (!NOT_OURS.has(e.name)) yield* files(path); } else yield path;
  }
}

interface Hit { file: string; line: number; text: string }

function hits(folders: readonly string[], pattern: RegExp): Hit[] {
  const found: Hit[] = [];
  for (const folder of folders) {
    for (const path of files(join(repoRoot, folder))) {
      // Every file, text or not, as grep reads them; the patterns are ASCII, so any decoding finds them.
      readFileSync(path, 'utf8').split('\n').forEach((text, i) => {
        if (pattern.test(text)) found.push({ file: relative(repoRoot, path).split(sep).join('/'), line: i + 1, text: text.trim() });
      });
    }
  }
  return found;
}

const listed = (found: Hit[]): string => found.map((h) => `\n  ${h.file}:${h.line}: ${h.text}`).join('');

test('grep -rn "DESIGN.md\\|issue [0-9]" bench docs plugins runtime finds nothing', () => {
  const found = hits(['bench', 'docs', 'plugins', 'runtime'], /DESIGN.md|issue [0-9]/);
  assert.ok(found.length === 0, `citations a reader cannot open:${listed(found)}`);
});

/**
 * The wider family, in the folders whose every file this rule has been applied to: the design notes by any name, an
 * issue by number or as "the issue", and the product seeds (specs kept outside the repository).
 */
const CHECKED_FOLDERS = ['bench', 'docs', 'runtime', 'plugins/llm', 'plugins/evaluators', 'plugins/exporters', 'plugins/ui'];
const UNOPENABLE = /\bDESIGN\b|\bCONVENTIONS\b|\b[Ii]ssues?\s*#?\d|\b[Tt]he (?:next |(?:[\w-]+ )?[\w-]+'s )?issues?\b|\b[Tt]he seed(?:'s|s)?\b|\bseed(?:-style| item)/;

test('no design note, issue or seed is cited in the folders this rule covers', () => {
  const found = hits(CHECKED_FOLDERS, UNOPENABLE);
  assert.ok(found.length === 0, `citations a reader cannot open:${listed(found)}`);
});

test.run();
