// The journal for real: a journald of a namespace of its own (this machine runs no journald; one started here
// writes a real journal without touching the default one), lines sent with `logger` to its syslog socket, read back
// with the real journalctl through `readJournal` with each filter, the cursor and the output bound, and a log
// watcher over the journal recording the line the test wrote. Needs root and systemd's journald, as CI has; elsewhere it says why it skips.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store } from '@vigil/plugin-sdk';
import { probesMigrations } from '../../../../../plugins/probes/history/migrations.js';
import { readJournal } from '../../../../../plugins/probes/logs/journal.js';
import { readLogs } from '../../../../../plugins/probes/logs/read-logs.js';
import { matchLines } from '../../../../../plugins/probes/logwatch/match-lines.js';
import { pollWatchers } from '../../../../../plugins/probes/logwatch/watch-poller.js';
import { normaliseWatcher } from '../../../../../plugins/probes/logwatch/watcher.js';
import { WatcherStore } from '../../../../../plugins/probes/logwatch/watcher-store.js';
import { openStore, type StoreBackend } from '../../../../../runtime/store/index.js';
import { waitFor } from '../../../../support/net.js';
import { tempDir } from '../../../../support/tmp.js';

const JOURNALD = ['/lib/systemd/systemd-journald', '/usr/lib/systemd/systemd-journald'].find((p) => existsSync(p));
const missing = !JOURNALD ? 'systemd-journald is not installed'
  : process.getuid?.() !== 0 ? 'journald needs root'
    : spawnSync('logger', ['--version']).error ? 'logger (util-linux) is not installed' : undefined;
if (missing && process.env.CI) throw new Error(`the live journal test is required in CI: ${missing}`);

const namespace = `vigiltest${process.pid}`;
const machine = existsSync('/etc/machine-id') ? readFileSync('/etc/machine-id', 'utf8').trim() : '';
const directory = `/var/log/journal/${machine}.${namespace}`;
const socket = `/run/systemd/journal.${namespace}/dev-log`;
let journald: ChildProcess | undefined;
const tmp = tempDir('vigil-journal-live-');
let backend: StoreBackend | undefined;

/** Sends one syslog line to the namespace's journald, as a daemon's syslog() would. */
function log(priority: string, message: string): void {
  const r = spawnSync('logger', ['--socket', socket, '--priority', `user.${priority}`, '--tag', 'vigilprobe', message], { timeout: 5_000 });
  assert.is(r.status, 0, String(r.stderr));
}

test.before(async () => {
  if (missing) return;
  journald = spawn(JOURNALD!, [namespace], { stdio: 'ignore' });
  await waitFor(() => existsSync(socket) || null, { timeoutMs: 10_000, what: 'the namespace\'s journald socket' });
});
test.after(async () => {
  journald?.kill('SIGTERM');
  await backend?.close();
  tmp.cleanup();
  // The namespace's files and sockets: nothing of this test stays on the machine.
  rmSync(directory, { recursive: true, force: true });
  rmSync(`/run/systemd/journal.${namespace}`, { recursive: true, force: true });
});

test('lines written to the journal come back with unit, priority, pid and time; prio, text and cursor filter them', async () => {
  if (missing) { console.log(`SKIP live journal: ${missing}`); return; }
  const before = Date.now();
  log('err', `disk sda: No space left on device (${namespace})`);
  log('info', 'all fine [really] (ok)');
  const all = (await waitFor(async () => {
    const a = await readJournal({ view: 'system', n: 50 }, { directory });
    return a.lines.some((l) => l.message === 'all fine [really] (ok)') ? a : null;
  }, { timeoutMs: 10_000, what: 'the lines in the journal' }))!;
  const mine = all.lines.filter((l) => l.unit === 'vigilprobe');
  assert.equal(mine.map((l) => [l.priority, l.message]), [[3, `disk sda: No space left on device (${namespace})`], [6, 'all fine [really] (ok)']]);
  assert.ok(mine.every((l) => l.pid! > 0 && Date.parse(l.time!) >= before - 1000 && Date.parse(l.time!) <= Date.now()));
  assert.match(all.cursor!, /^s=[0-9a-f]+;i=/);

  const errors = await readJournal({ view: 'system', n: 50, maxPriority: 3 }, { directory });
  assert.ok(errors.lines.some((l) => l.message.startsWith('disk sda')) && errors.lines.every((l) => l.priority! <= 3));
  const text = await readJournal({ view: 'system', n: 50, text: 'REALLY] (OK' }, { directory });
  assert.equal(text.lines.map((l) => l.message), ['all fine [really] (ok)'], 'literal, case-insensitive');
  assert.equal(await readJournal({ view: 'system', n: 50, text: 'nothing like this' }, { directory }), { lines: [], cursor: null });

  assert.equal((await readJournal({ view: 'system', n: 50, afterCursor: all.cursor! }, { directory })).lines, []);
  log('warning', 'a later line');
  const after = (await waitFor(async () => {
    const a = await readJournal({ view: 'system', n: 50, afterCursor: all.cursor! }, { directory });
    return a.lines.length ? a : null;
  }, { timeoutMs: 10_000, what: 'the later line' }))!;
  assert.equal(after.lines.map((l) => l.message), ['a later line']);
  assert.equal((await readLogs({ source: 'system', n: 1 }, { allowedPaths: [], journal: { directory } })).origin, 'journal');
  try {
    await readJournal({ view: 'system', n: 50 }, { directory, maxBytes: 200 });
    assert.unreachable('output past the bound fails the read');
  } catch (err) {
    assert.match((err as Error).message, 'more than 200 bytes of output');
  }
});

test('a watcher over the journal records the line the test writes, not the ones before it', async () => {
  if (missing) { console.log(`SKIP live journal: ${missing}`); return; }
  backend = await openStore(`sqlite:${tmp.path}/store.db`);
  const store: Store = backend.forPlugin('probes');
  await store.migrate(probesMigrations);
  const watchers = new WatcherStore(store);
  await watchers.replace({ enabled: true, rules: [normaliseWatcher({ name: 'disk', pattern: 'vigilprobe: .*No space left', source: 'system' })] }, Date.now());
  const poll = () => pollWatchers({
    store: watchers, now: Date.now, match: async (task) => matchLines(task),
    read: (q) => readLogs(q, { allowedPaths: [], journal: { directory } }),
  });
  await poll();
  log('crit', 'write failed: No space left on device (watched)');
  const recorded = (await waitFor(async () => ((await poll()).recorded.disk?.length ? watchers.recent('disk', 10) : null), { timeoutMs: 10_000, what: 'the watcher recording the line' }))!;
  assert.equal(recorded.map((m) => m.line), ['vigilprobe: write failed: No space left on device (watched)']);
});

test.run();
