// The weekly digest is sent once across a restart: two starts of a real runtime (SDK harness) on one SQLite data
// directory. Between them the schedule's leases are deleted, as if the next hour had come (the hourly check runs
// again), and so are the channels' deliveries, as a retention shorter than a week prunes them: the digests' own
// ledger (alerts_digests, the stored sent time) is what keeps the second start from sending last week's digest again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { lastWeek } from '../../../../plugins/alerts/digest/llm-digest-data.js';
import { startReceivers, type Receivers } from '../../../support/channel-receivers.js';
import { waitFor } from '../../../support/net.js';
import { tempDir } from '../../../support/tmp.js';

const work = tempDir('vigil-digest-restart-');
let rx: Receivers;

const start = (): Promise<TestRuntime> => startTestRuntime({
  plugins: [],
  config: {
    data_dir: work.path,
    llm: { projects: [{ name: 'shop', key: 'digest-restart-key-0123456789' }] },
    channels: { backoff: '100ms', targets: [{ id: 'hook', type: 'webhook', url: rx.url('/hook') }] },
    alerts: { digests: { channels: ['hook'] } },
  },
});

/** Runs one statement on the stopped runtime's SQLite file. */
const sql = (statement: string): Promise<void> => new Promise((resolve, reject) => {
  const db = new sqlite3.Database(join(work.path, 'vigil.db'));
  db.run(statement, (err) => db.close(() => (err ? reject(err) : resolve())));
});

/** Reads rows from the running runtime's SQLite file (WAL: a read-only connection sees its commits). */
const rows = <T>(statement: string): Promise<T[]> => new Promise((resolve, reject) => {
  const db = new sqlite3.Database(join(work.path, 'vigil.db'), sqlite3.OPEN_READONLY);
  db.all(statement, (err, found) => db.close(() => (err ? reject(err) : resolve(found as T[]))));
});

test.before(async () => { rx = await startReceivers(); });
test.after(async () => {
  await rx?.close();
  work.cleanup();
});

test('a second start sends no second digest for the same week, though the channels pruned its deliveries', async () => {
  const monday = new Date(lastWeek(Date.now()).from).toISOString().slice(0, 10);
  const first = await start();
  try {
    await waitFor(() => rx.received('/hook').length >= 1 || null, { timeoutMs: 10_000, what: 'the first start\'s digest' });
    // The ledger is written once the channels hold the deliveries, which may be after the webhook received the
    // digest (the delivery job runs beside the digest job): wait for its row before stopping.
    await waitFor(async () => (await rows<{ id: string }>('SELECT id FROM alerts_digests')).length >= 1 || null, { timeoutMs: 10_000, intervalMs: 250, what: 'the digest ledger\'s row' });
  } finally {
    await first.stop();
  }
  assert.equal(rx.received('/hook').map((r) => (JSON.parse(r.raw.toString()) as { event_id: string }).event_id), [`llm:digest:shop:${monday}`]);

  await sql('DELETE FROM vigil_schedules');
  await sql('DELETE FROM channels_deliveries');
  await sql('DELETE FROM channels_messages');
  const second = await start();
  try {
    // The check ran at start: give a queued digest the time the first start needed to arrive.
    await new Promise((r) => setTimeout(r, 3_000));
    assert.is(rx.received('/hook').length, 1, 'the week\'s digest was sent again after a restart');
  } finally {
    await second.stop();
  }
});

test.run();
