import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMakeDatabase, parseMakeDatabaseSliced, readMakeTargets } from '../../../../plugins/devtools/make-targets.js';
import { tempDir } from '../../../support/tmp.js';

// The fixtures live beside the sources (the build copies only .ts): resolve them from the source tree.
const fixtures = fileURLToPath(new URL('../../../../../tests/unit/plugins/devtools/fixtures/', import.meta.url));
const dir = tempDir('vigil-make-');
test.after(() => dir.cleanup());

test('a tricky Makefile: make itself lists the targets, with includes, computed names and double-colon rules, and no special or pattern rules', async () => {
  const found = await readMakeTargets(join(fixtures, 'tricky-make'));
  assert.ok(found);
  assert.is(found!.makefile, 'Makefile');
  const names = found!.targets.map((t) => t.name);
  assert.equal(names, ['all', 'app', 'build-app', 'clean', 'debug', 'deploy', 'generated', 'lint', 'test']);
  const byName = new Map(found!.targets.map((t) => [t.name, t]));
  assert.is(byName.get('all')!.default_goal, true, '.DEFAULT_GOAL is marked and sorted first');
  assert.is(byName.get('clean')!.phony, true);
  assert.is(byName.get('app')!.phony, false);
  assert.is(byName.get('generated')!.detail, 'rules.mk:2', 'a target of an included file says where it is');
  assert.is(byName.get('deploy')!.detail, 'Makefile:27', 'a double-colon target is listed once, at its first rule');
  assert.equal(byName.get('test')!.argv, ['make', 'test']);
  for (const absent of ['.PHONY', '.SUFFIXES', '%.o', 'main.o', 'Makefile', 'rules.mk', 'optional-missing.mk', 'CFLAGS']) assert.not.ok(byName.has(absent), absent);
});

test('no makefile: null; a makefile make complains of: its targets and make\'s own words', async () => {
  assert.is(await readMakeTargets(dir.path), null);
  writeFileSync(join(dir.path, 'makefile'), 'all:\n\techo ok\ninclude does-not-exist.mk\n');
  const found = await readMakeTargets(dir.path);
  assert.is(found!.makefile, 'makefile');
  assert.equal(found!.targets.map((t) => t.name), ['all']);
  assert.match(found!.problem ?? '', /does-not-exist\.mk: No such file or directory/);
});

test('the parser: Not-a-target blocks, target-specific variables, names make would read as options or assignments', () => {
  const db = [
    '# Variables', '.DEFAULT_GOAL := build', 'CC = cc', '', '# Files', '',
    '# Not a target:', 'main.o:', '#  Implicit rule search has not been done.', '',
    'build: main.o', '#  Phony target (prerequisite of .PHONY).', '#  recipe to execute (from \'Makefile\', line 3):', '\tcc main.o', '',
    '# makefile (from \'Makefile\', line 7)', 'debug: CFLAGS += -g', 'debug: build', '',
    '-weird:', '', 'a=b:', '', '.PHONY: build', '', '%.o: %.c', '', '.hidden-file:', '',
    '# Finished Make data base on Fri Dec  4 22:00:00 2026', 'after: nothing',
  ].join('\n');
  const { targets, skipped } = parseMakeDatabase(db);
  assert.equal(targets.map((t) => t.name), ['build', '.hidden-file', 'debug']);
  assert.is(targets[0].default_goal, true);
  assert.is(targets[0].phony, true);
  assert.is(targets[0].detail, 'Makefile:3');
  assert.is(skipped, 1, '-weird is left out and counted (a=b never parses as a target)');
});

test('a big database is read in slices, giving the event loop back, with the same answer; targets past 500 are counted', async () => {
  const blocks = Array.from({ length: 3000 }, (_, i) => `t${i}: d${i}\n#  recipe to execute (from 'Makefile', line ${i + 1}):\n\techo ${i}\n\n# Not a target:\nd${i}:\n\n`);
  const text = `.DEFAULT_GOAL := t7\n# Files\n\n${blocks.join('')}`;
  assert.ok(text.length > 200_000);
  // Other work queued on the event loop runs between the slices (each slice ends in setImmediate, as this does).
  let turns = 0;
  let reading = true;
  const other = () => { turns++; if (reading) setImmediate(other); };
  setImmediate(other);
  const sliced = await parseMakeDatabaseSliced(text);
  reading = false;
  assert.ok(turns > 2, `other work ran ${turns} times while the database was read`);
  assert.equal(sliced, parseMakeDatabase(text));
  assert.is(sliced.targets.length, 500);
  assert.is(sliced.skipped, 2500);
  assert.is(sliced.targets[0].name, 't7');
});

test.run();
