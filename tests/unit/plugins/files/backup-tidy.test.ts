// The backup's weekly tidy-up: copies of files deleted from a source leave the backup, only when asked, once a week.
import { mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BackupRunner } from '../../../../plugins/files/backup/backup-runner.js';
import { tempDir } from '../../../support/tmp.js';

const WEEK = 7 * 86_400_000;

function setup() {
  const tmp = tempDir('vigil-backup-');
  const source = join(tmp.path, 'docs');
  const dest = join(tmp.path, 'usb');
  mkdirSync(join(source, 'old', 'deep'), { recursive: true });
  mkdirSync(dest);
  writeFileSync(join(source, 'keep.txt'), 'keep');
  writeFileSync(join(source, 'gone.txt'), 'gone');
  writeFileSync(join(source, 'old', 'deep', 'gone-too.txt'), 'x');
  const copy = (...p: string[]) => join(dest, 'vigil-backup', 'docs', ...p);
  return { tmp, source, dest, copy, state: join(tmp.path, 'backup.json') };
}

test('without the tidy-up, a file deleted from the source keeps its copy', async () => {
  const s = setup();
  try {
    const runner = new BackupRunner(s.state);
    await runner.configure({ sources: [s.source], dest: s.dest, schedule: 'off', tidy: false });
    assert.is((await runner.run()).copied, 3);
    rmSync(join(s.source, 'gone.txt'));
    const second = await runner.run();
    assert.is(second.removed, 0);
    assert.ok(existsSync(s.copy('gone.txt')));
  } finally {
    s.tmp.cleanup();
  }
});

test('with the tidy-up, copies of deleted files and folders go, once a week, and what remains is untouched', async () => {
  const s = setup();
  let now = Date.parse('2026-12-01T00:00:00Z');
  try {
    const runner = new BackupRunner(s.state, () => now);
    await runner.configure({ sources: [s.source], dest: s.dest, schedule: 'weekly', tidy: true });
    assert.is((await runner.run()).removed, 0, 'the first run tidies too, with nothing to remove');
    rmSync(join(s.source, 'gone.txt'));
    rmSync(join(s.source, 'old'), { recursive: true });
    now += WEEK;
    const first = await runner.run();
    assert.is(first.ok, true, String(first.error));
    assert.is(first.removed, 2, 'a file and a folder');
    assert.not.ok(existsSync(s.copy('gone.txt')));
    assert.not.ok(existsSync(s.copy('old')));
    assert.ok(existsSync(s.copy('keep.txt')));
    assert.ok(existsSync(join(s.dest, 'vigil-backup', '.last-run')), 'the marker is not a copy of anything and stays');
    // Within the week, a deletion waits for the next tidy-up.
    rmSync(join(s.source, 'keep.txt'));
    now += 60_000;
    assert.is((await runner.run()).removed, 0);
    assert.ok(existsSync(s.copy('keep.txt')));
    now += WEEK;
    assert.is((await runner.run()).removed, 1);
    assert.not.ok(existsSync(s.copy('keep.txt')));
  } finally {
    s.tmp.cleanup();
  }
});

test('a source that cannot be read is never tidied against: its copies stay', async () => {
  const s = setup();
  try {
    const runner = new BackupRunner(s.state);
    await runner.configure({ sources: [s.source], dest: s.dest, schedule: 'off', tidy: true });
    await runner.run();
    rmSync(s.source, { recursive: true });
    const run = await runner.run();
    assert.is(run.ok, false, 'the missing source fails the run');
    assert.is(run.removed, 0);
    assert.ok(existsSync(s.copy('keep.txt')));
  } finally {
    s.tmp.cleanup();
  }
});

test.run();
