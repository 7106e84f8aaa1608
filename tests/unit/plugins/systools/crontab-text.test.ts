import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyEdit, CronEditError, crontabRevision, crontabText, describeLines, describeLinesSliced, MAX_CRONTAB_BYTES, parseCrontab } from '../../../../plugins/systools/cron/crontab-text.js';

/** A crontab as people keep them: a header, variables with odd spacing, comments, blank lines, a disabled entry. */
const TABLE = [
  '# Edit this file to introduce tasks to be run by cron.',
  '# m h  dom mon dow   command',
  '',
  'MAILTO="ops@example.com"',
  'PATH = /usr/local/bin:/usr/bin:/bin',
  '  # indented note, two spaces',
  '0 3 * * 1-5\t/usr/local/bin/backup --all   # trailing comment',
  '#*/5 * * * * /usr/bin/poll',
  '',
  '\t',
  '@reboot sleep 30 && /opt/app/start',
  '',
].join('\n');

test('each line is read for what it is; the header\'s "m h dom" line is a comment, not an entry', () => {
  const lines = describeLines(parseCrontab(TABLE));
  assert.equal(lines.map((l) => l.kind), ['comment', 'comment', 'blank', 'variable', 'variable', 'comment', 'entry', 'entry', 'blank', 'blank', 'entry']);
  assert.is(lines[3].name, 'MAILTO');
  assert.is(lines[4].value, '/usr/local/bin:/usr/bin:/bin');
  assert.is(lines[6].human, 'every weekday at 03:00');
  assert.is(lines[6].enabled, true);
  assert.is(lines[7].enabled, false);
  assert.is(lines[7].command, '/usr/bin/poll');
  assert.is(lines[10].schedule, '@reboot');
});

test('an unchanged table is written back byte for byte', () => {
  assert.is(crontabText(parseCrontab(TABLE)), TABLE);
  assert.is(crontabText(parseCrontab('')), '');
});

test('each edit changes only its line; everything else stays byte for byte', () => {
  const before = parseCrontab(TABLE);
  const others = (after: string[], skip: number[]) => after.filter((_, i) => !skip.includes(i));
  const disabled = applyEdit(before, { op: 'disable', line: 6 });
  assert.is(disabled.lines[6], '# 0 3 * * 1-5\t/usr/local/bin/backup --all   # trailing comment');
  assert.equal(others(disabled.lines, [6]), others(before.lines, [6]));
  // Enabling it again gives the very line back.
  assert.is(crontabText(applyEdit(disabled, { op: 'enable', line: 6 })), TABLE);
  assert.is(applyEdit(before, { op: 'enable', line: 7 }).lines[7], '*/5 * * * * /usr/bin/poll');
  const edited = applyEdit(before, { op: 'edit', line: 10, schedule: '@daily', command: '/opt/app/rotate' });
  assert.is(edited.lines[10], '@daily /opt/app/rotate');
  assert.equal(others(edited.lines, [10]), others(before.lines, [10]));
  // A disabled entry edited stays disabled.
  assert.is(applyEdit(before, { op: 'edit', line: 7, schedule: '*/10 * * * *', command: '/usr/bin/poll' }).lines[7], '# */10 * * * * /usr/bin/poll');
  const deleted = applyEdit(before, { op: 'delete', line: 6 });
  assert.equal(deleted.lines, [...before.lines.slice(0, 6), ...before.lines.slice(7)]);
  const added = crontabText(applyEdit(before, { op: 'add', schedule: '15 4 * * sun', command: 'echo hi' }));
  assert.is(added, `${TABLE}15 4 * * sun echo hi\n`);
  assert.is(crontabText(applyEdit(parseCrontab(''), { op: 'add', schedule: '@hourly', command: 'date' })), '@hourly date\n');
});

test('bad edits are refused with the reason: a bad schedule, a command with a line break, a line that is not an entry', () => {
  const c = parseCrontab(TABLE);
  const refused = (fn: () => unknown, kind: string, message: RegExp) =>
    assert.throws(fn, (err: Error) => err instanceof CronEditError && err.kind === kind && message.test(err.message));
  refused(() => applyEdit(c, { op: 'add', schedule: '0 25 * * *', command: 'x' }), 'schedule', /hour field has 25/);
  refused(() => applyEdit(c, { op: 'add', schedule: '0 1 * * *', command: 'a\nb' }), 'command', /line break/);
  refused(() => applyEdit(c, { op: 'add', schedule: '0 1 * * *', command: '  ' }), 'command', /empty/);
  refused(() => applyEdit(c, { op: 'delete', line: 3 }), 'line', /variable line, not an entry/);
  refused(() => applyEdit(c, { op: 'disable', line: 0 }), 'line', /comment line/);
  refused(() => applyEdit(c, { op: 'delete', line: 99 }), 'line', /beyond its end/);
});

test('the revision changes with any byte of the text', () => {
  assert.is(crontabRevision(TABLE), crontabRevision(`${TABLE}`));
  assert.is.not(crontabRevision(TABLE), crontabRevision(`${TABLE} `));
});

test('a crontab at the 256 KiB bound is read in slices: the same lines, and the event loop gets turns meanwhile', async () => {
  const line = '*/5 1-5,7 1,15 jan-jun mon-fri /usr/local/bin/some-job --with args\n';
  const big = parseCrontab(line.repeat(Math.floor(MAX_CRONTAB_BYTES / line.length)));
  let turns = 0;
  const tick = setInterval(() => { turns++; }, 0);
  const sliced = await describeLinesSliced(big);
  clearInterval(tick);
  assert.equal(sliced, describeLines(big));
  assert.ok(sliced.length > 3000, `${sliced.length} lines`);
  assert.ok(turns > 0, 'a timer ran while the lines were read');
});

test.run();
