// The watcher poll on a fake clock, over a real file and a real store (SQLite, and PostgreSQL where reachable): the
// first read only notes where the file ends; a line the test writes is recorded once; the same line again within
// 5 minutes is not, and after 5 minutes it is; the `host.log_match` source counts the window's lines, and gives no
// verdict for a window in which the source was not read; a pattern that runs out of time is reported, not recorded.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store } from '@vigil/plugin-sdk';
import { probesMigrations } from '../../../../../plugins/probes/history/migrations.js';
import { readLogs } from '../../../../../plugins/probes/logs/read-logs.js';
import { logMatchSource } from '../../../../../plugins/probes/logwatch/log-match-source.js';
import { matchLines } from '../../../../../plugins/probes/logwatch/match-lines.js';
import { pollWatchers } from '../../../../../plugins/probes/logwatch/watch-poller.js';
import { normaliseWatcher } from '../../../../../plugins/probes/logwatch/watcher.js';
import { WatcherStore } from '../../../../../plugins/probes/logwatch/watcher-store.js';
import { tempDir } from '../../../../support/tmp.js';
import { backendKinds, type BackendKind } from '../../../runtime/store/backend-kinds.js';

const T0 = Date.UTC(2026, 0, 1, 12);
const MINUTE = 60_000;

function define(kind: BackendKind) {
  const test = suite(`log watchers (${kind.name})`);
  const dir = tempDir('vigil-logwatch-');
  const logs = join(dir.path, 'logs');
  mkdirSync(logs);
  const file = join(logs, 'app.log');
  let store: Store;
  let watchers: WatcherStore;
  let clock = T0;
  const poll = () => pollWatchers({
    store: watchers, now: () => clock,
    read: (q) => readLogs(q, { allowedPaths: [logs], journalDirs: [join(dir.path, 'none')] }),
    // The worker's task itself, run here: the pool is the runtime's, tested with it.
    match: async (task) => matchLines(task),
  });

  test.before(async () => {
    store = (await kind.open(await kind.fresh())).forPlugin('probes');
    await store.migrate(probesMigrations);
    watchers = new WatcherStore(store);
    writeFileSync(file, 'ERROR old line from before the watcher\n');
    await watchers.replace({
      enabled: true,
      rules: [
        normaliseWatcher({ name: 'disk', pattern: 'No space left', source: 'file', path: file }),
        normaliseWatcher({ name: 'oom', pattern: 'out of memory', ignore_case: true, source: 'file', path: file }),
      ],
    }, T0);
  });
  test.after(async () => {
    await kind.cleanup();
    dir.cleanup();
  });

  test('the first poll notes where the file ends: lines from before never fire', async () => {
    appendFileSync(file, 'kernel: No space left on device (before)\n');
    const report = await poll();
    assert.is(report.sources, 1, 'two watchers of one file: one read');
    assert.equal(report.recorded, {});
    assert.is((await watchers.cursor(`file:${file}`))?.polled_at, T0);
  });

  test('a new line is recorded once; again within 5 minutes it is not; after 5 minutes it is', async () => {
    appendFileSync(file, 'app: write failed: No space left on device\nkernel: Out Of Memory: killed 7\n');
    clock = T0 + 20_000;
    let report = await poll();
    assert.equal(report.recorded, { disk: ['app: write failed: No space left on device'], oom: ['kernel: Out Of Memory: killed 7'] });

    appendFileSync(file, 'app: write failed: No space left on device\napp: write failed: No space left on device\n');
    clock = T0 + 4 * MINUTE;
    report = await poll();
    assert.equal(report.recorded.disk, [], 'the same line within 5 minutes is not recorded again');

    appendFileSync(file, 'app: write failed: No space left on device\n');
    clock = T0 + 20_000 + 5 * MINUTE + 1;
    report = await poll();
    assert.equal(report.recorded.disk, ['app: write failed: No space left on device'], 'past 5 minutes it is');
    assert.equal((await watchers.recent('disk', 10)).map((m) => m.seen_at), [T0 + 20_000 + 5 * MINUTE + 1, T0 + 20_000]);
  });

  test('host.log_match: the window\'s recorded lines; no verdict for a window the source was not read in; an unknown watcher throws', async () => {
    const source = logMatchSource(watchers);
    assert.equal(await source.read({ from: T0, to: T0 + MINUTE }, { target: 'disk' }), { value: 1, samples: 1 });
    assert.equal(await source.read({ from: T0 + 2 * MINUTE, to: T0 + 3 * MINUTE }, { target: 'disk' }), { value: 0, samples: 1 }, 'read later: observed, nothing matched');
    assert.equal(await source.read({ from: T0 + 10 * MINUTE, to: T0 + 11 * MINUTE }, { target: 'disk' }), { value: null, samples: 0 }, 'not read since');
    try {
      await source.read({ from: T0, to: T0 + MINUTE }, { target: 'nope' });
      assert.unreachable();
    } catch (err) {
      assert.match((err as Error).message, 'no log watcher "nope"');
    }
  });

  test('a pattern that runs out of time is reported on its source and records nothing; the other watcher goes on', async () => {
    const config = await watchers.config();
    await watchers.replace({ ...config, rules: [...config.rules, normaliseWatcher({ name: 'evil', pattern: '^(a|a)*$', source: 'file', path: file })] }, clock);
    appendFileSync(file, `${'a'.repeat(40)}b\nkernel: out of memory (later)\n`);
    clock += 20_000;
    const report = await poll();
    assert.is(report.recorded.evil, undefined);
    assert.equal(report.recorded.oom, ['kernel: out of memory (later)']);
    assert.match((await watchers.cursor(`file:${file}`))?.last_error ?? '', 'watcher "evil": the pattern ran past');
  });

  test('watching off: nothing is read; a watcher removed takes its matches along', async () => {
    const config = await watchers.config();
    await watchers.replace({ ...config, enabled: false }, clock);
    appendFileSync(file, 'No space left again\n');
    assert.equal(await poll(), { sources: 0, lines: 0, recorded: {} });
    await watchers.replace({ enabled: true, rules: config.rules.filter((w) => w.name !== 'disk') }, clock);
    assert.equal(await watchers.recent('disk', 10), []);
  });

  return test;
}

const kinds = await backendKinds('probes_logwatch');
for (const kind of kinds) define(kind).run();
