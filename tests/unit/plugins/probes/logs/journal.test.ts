// The journal reader: the argument list (values escaped, never a shell), entries as `journalctl -o json` prints
// them, the real journalctl accepting every filter against an empty journal folder and refusing a bad cursor, and
// the "is there a journal" check that decides the fallback to files.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { journalArgs, journalPresent, parseJournalEntry, readJournal } from '../../../../../plugins/probes/logs/journal.js';
import { tempDir } from '../../../../support/tmp.js';

test('the argument list: one argument per value, text escaped so --grep matches it literally', () => {
  const args = journalArgs({ view: 'system', n: 50, maxPriority: 3, text: 'a.b*(c) $(rm -rf /)' }, { directory: '/x' });
  assert.ok(args.includes('--lines=50'));
  assert.ok(args.includes('--priority=0..3'));
  assert.ok(args.includes('--system'));
  assert.ok(args.includes('--directory=/x'));
  assert.ok(args.includes('--grep=a\\.b\\*\\(c\\) \\$\\(rm -rf /\\)'), args.join(' '));
  assert.ok(args.includes('--case-sensitive=false'));
  assert.ok(journalArgs({ view: 'user', n: 1 }).includes('--user'));
  assert.ok(journalArgs({ view: 'kernel', n: 1 }).includes('_TRANSPORT=kernel'));
  const both = journalArgs({ view: 'system', n: 1, afterCursor: 's=1;i=2', sinceMs: 1_700_000_000_000 });
  assert.ok(both.includes('--after-cursor=s=1;i=2') && !both.some((a) => a.startsWith('--since')), 'journalctl takes a cursor or a time, not both');
  assert.ok(journalArgs({ view: 'system', n: 1, sinceMs: 1_700_000_000_500 }).includes('--since=@1700000000'));
});

test('entries as journalctl prints them: unit first, priority and pid as numbers, a non-UTF-8 message as bytes', () => {
  const entry = parseJournalEntry(JSON.stringify({
    __CURSOR: 's=ab;i=1f', __REALTIME_TIMESTAMP: '1733230000123456', PRIORITY: '3', _SYSTEMD_UNIT: 'nginx.service',
    SYSLOG_IDENTIFIER: 'nginx', _PID: '812', MESSAGE: 'upstream timed out',
  }));
  assert.equal(entry, {
    cursor: 's=ab;i=1f',
    line: { time: new Date(1733230000123).toISOString(), priority: 3, unit: 'nginx.service', pid: 812, message: 'upstream timed out' },
  });
  const bytes = parseJournalEntry(JSON.stringify({ __CURSOR: 'c', MESSAGE: [104, 105, 0xff], SYSLOG_IDENTIFIER: 'kernel' }));
  assert.is(bytes?.line.message, 'hi\ufffd');
  assert.is(bytes?.line.unit, 'kernel');
  assert.is(bytes?.line.priority, null);
  const huge = parseJournalEntry(JSON.stringify({ __CURSOR: 'c', MESSAGE: 'x'.repeat(10_000) }));
  assert.is(huge?.line.message.length, 4096);
  assert.is(parseJournalEntry(JSON.stringify({ __CURSOR: 'c', MESSAGE: null }))?.line.message, '');
  assert.is(parseJournalEntry('not json'), undefined);
  assert.is(parseJournalEntry('{"MESSAGE":"no cursor"}'), undefined);
});

test('the real journalctl accepts every filter (an empty journal answers nothing) and refuses a cursor it cannot seek', async () => {
  const dir = tempDir('vigil-journal-');
  try {
    for (const view of ['system', 'user', 'kernel'] as const) {
      const answer = await readJournal({ view, n: 10, maxPriority: 4, text: 'disk (full)?' }, { directory: dir.path });
      assert.equal(answer, { lines: [], cursor: null }, view);
      assert.equal(await readJournal({ view, n: 10, sinceMs: Date.now() - 60_000 }, { directory: dir.path }), { lines: [], cursor: null });
    }
    try {
      await readJournal({ view: 'system', n: 10, afterCursor: 's=zz' }, { directory: dir.path });
      assert.unreachable('a bad cursor is refused');
    } catch (err) {
      assert.match((err as Error).message, /^journalctl: .*cursor/i);
    }
  } finally {
    dir.cleanup();
  }
});

test('a journal is there when a machine-id folder holds a .journal file; journalctl alone is not enough', async () => {
  const dir = tempDir('vigil-journal-dirs-');
  try {
    assert.is(await journalPresent([join(dir.path, 'missing'), dir.path]), false);
    const machine = '3d1219c7c4c5404aaa1f6d2a48adfda4';
    mkdirSync(join(dir.path, `${machine}.test`));
    writeFileSync(join(dir.path, `${machine}.test`, 'system.journal'), '');
    assert.is(await journalPresent([dir.path]), false, 'a namespace\'s journal is not the one plain journalctl reads');
    mkdirSync(join(dir.path, machine));
    writeFileSync(join(dir.path, machine, 'user-1000.journal~'), '');
    assert.is(await journalPresent([dir.path]), true);
  } finally {
    dir.cleanup();
  }
});

test.run();
