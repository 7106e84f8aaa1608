// Writes tests/fixtures/governance-corpus/corpus.json from the case definitions (tests/support/governance-corpus/),
// each case run through the TypeScript governance engine. Run after a build:
//   node scripts/build.mjs && node scripts/governance-corpus.mjs
// tests/unit/gateway/governance-corpus.test.ts fails while the file differs from what this writes.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { corpusText, CORPUS_PATH } = await import(join(root, 'dist/tests/support/governance-corpus/build-corpus.js'));
const text = await corpusText();
writeFileSync(join(root, CORPUS_PATH), text);
const cases = JSON.parse(text).cases;
console.log(`${CORPUS_PATH}: ${cases.length} cases, ${cases.filter((c) => c.record === null).length} without a record`);
