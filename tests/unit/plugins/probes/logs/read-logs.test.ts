// Log files as /api/logs reads them: real lines written to a temporary file and read back with the filters, the
// cursor that reads only what was added (a rotated file from its start, a line without its newline left for later),
// the allow-list (symbolic links resolved), and the fallback without a journal, which says so.
import { appendFileSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { allowedLogFile, LogFileRefused, readLogFile } from '../../../../../plugins/probes/logs/log-file.js';
import { readLogs, type LogReaderOptions } from '../../../../../plugins/probes/logs/read-logs.js';
import { tempDir } from '../../../../support/tmp.js';

const dir = tempDir('vigil-logs-');
const logs = join(dir.path, 'logs');
const empty = join(dir.path, 'no-journal');
mkdirSync(logs);
mkdirSync(empty);
const app = join(logs, 'app.log');
const options: LogReaderOptions = { allowedPaths: [logs], journalDirs: [empty] };
test.after(() => dir.cleanup());

test('a file\'s newest lines, filtered by text (case-insensitive, literal) and bounded by n', async () => {
  writeFileSync(app, ['boot ok', 'ERROR disk sda full', 'user login', 'error: (retry) disk sdb full', 'done', ''].join('\n'));
  const all = await readLogs({ source: 'file', path: app, n: 10 }, options);
  assert.is(all.origin, 'file');
  assert.equal(all.lines.map((l) => l.message), ['boot ok', 'ERROR disk sda full', 'user login', 'error: (retry) disk sdb full', 'done']);
  assert.equal(all.lines[0], { time: null, priority: null, unit: null, pid: null, message: 'boot ok' });
  const errors = await readLogs({ source: 'file', path: app, n: 10, text: 'error' }, options);
  assert.equal(errors.lines.map((l) => l.message), ['ERROR disk sda full', 'error: (retry) disk sdb full']);
  assert.equal((await readLogs({ source: 'file', path: app, n: 1, text: '(retry)' }, options)).lines.map((l) => l.message), ['error: (retry) disk sdb full']);
  assert.equal((await readLogs({ source: 'file', path: app, n: 2 }, options)).lines.map((l) => l.message), ['error: (retry) disk sdb full', 'done']);
  assert.match((await readLogs({ source: 'file', path: app, n: 2, maxPriority: 3 }, options)).note ?? '', 'journal only');
});

test('the cursor reads only what was added; a line without its newline waits; a rotated file is read from its start', async () => {
  writeFileSync(app, 'one\ntwo\n');
  const first = await readLogs({ source: 'file', path: app, n: 100 }, options);
  appendFileSync(app, 'three\nfour (half');
  const next = await readLogs({ source: 'file', path: app, n: 100, cursor: first.cursor! }, options);
  assert.equal(next.lines.map((l) => l.message), ['three']);
  appendFileSync(app, ' done)\n');
  const rest = await readLogs({ source: 'file', path: app, n: 100, cursor: next.cursor! }, options);
  assert.equal(rest.lines.map((l) => l.message), ['four (half done)']);
  assert.equal((await readLogs({ source: 'file', path: app, n: 100, cursor: rest.cursor! }, options)).lines, []);
  renameSync(app, `${app}.1`);
  writeFileSync(app, 'after rotation\n');
  assert.equal((await readLogs({ source: 'file', path: app, n: 100, cursor: rest.cursor! }, options)).lines.map((l) => l.message), ['after rotation']);
});

test('a read is bounded: of a file larger than the bound, only its tail, the cut first line dropped', async () => {
  const big = join(logs, 'big.log');
  writeFileSync(big, Array.from({ length: 2000 }, (_, i) => `line ${String(i).padStart(4, '0')} ${'x'.repeat(40)}`).join('\n') + '\n');
  const read = await readLogFile(big, undefined, 4096);
  assert.ok(read.lines.length > 50 && read.lines.length < 100, `${read.lines.length} lines`);
  assert.match(read.lines.at(-1)!, /^line 1999 /);
  assert.ok(read.lines.every((l) => /^line \d{4} x{40}$/.test(l)), 'no cut line');
  const resumed = await readLogFile(big, `${read.cursor.split(':')[0]}:0`, 4096);
  assert.is(resumed.truncated, true, 'a cursor far behind skips to the bound and says so');
});

test('only files under the allowed folders: a link out of them, a relative path and a folder are refused', async () => {
  const link = join(logs, 'passwd.log');
  symlinkSync('/etc/passwd', link);
  for (const path of [link, '/etc/passwd', 'app.log', `${logs}/../logs/../../etc/passwd`, join(logs, 'missing.log')]) {
    try {
      await allowedLogFile(path, [logs]);
      assert.unreachable(path);
    } catch (err) {
      assert.instance(err, LogFileRefused, path);
    }
  }
  assert.is(await allowedLogFile(`${logs}/../logs/app.log`, [logs]), app);
  mkdirSync(join(logs, 'nginx'));
  try {
    await readLogs({ source: 'file', path: join(logs, 'nginx'), n: 1 }, options);
    assert.unreachable('a folder');
  } catch (err) {
    assert.match((err as Error).message, 'not a regular file');
  }
});

test('without a journal: the view\'s syslog file, and a note that says so; without that either, no lines and why', async () => {
  const syslog = join(logs, 'syslog');
  writeFileSync(syslog, 'Dec  3 10:00:01 host CRON[1]: job ran\nDec  3 10:00:02 host kernel: oops\n');
  const fallbackFiles = { system: [join(logs, 'messages'), syslog], kernel: [join(logs, 'kern.log')], user: [] };
  const system = await readLogs({ source: 'system', n: 10, text: 'cron' }, { ...options, fallbackFiles });
  assert.is(system.origin, 'file');
  assert.is(system.path, syslog);
  assert.equal(system.lines.map((l) => l.message), ['Dec  3 10:00:01 host CRON[1]: job ran']);
  assert.match(system.note!, 'no journal');
  const kernel = await readLogs({ source: 'kernel', n: 10 }, { ...options, fallbackFiles });
  assert.is(kernel.origin, 'none');
  assert.equal(kernel.lines, []);
  assert.match(kernel.note!, 'kern.log');
  const user = await readLogs({ source: 'user', n: 10 }, { ...options, fallbackFiles });
  assert.is(user.origin, 'none');
  assert.match(user.note!, 'no file to fall back to');
  // A fallback file outside the allowed folders is not read either.
  assert.is((await readLogs({ source: 'system', n: 10 }, { allowedPaths: [empty], journalDirs: [empty], fallbackFiles })).origin, 'none');
});

test.run();
