import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store } from '@vigil/plugin-sdk';
import { captureMigrations } from '../../../../gateway/records/migrations.js';
import { DELETE_CHUNK, deleteExpired } from '../../../../gateway/records/retention.js';
import { ROLLUP_COLUMNS } from '../../../../gateway/records/record-writer.js';
import { RULE_PATH_COLUMNS } from '../../../../gateway/records/rule-paths.js';
import { backendKinds } from '../../runtime/store/backend-kinds.js';

const kinds = await backendKinds('capture_retention');
const NOW = Date.UTC(2024, 4, 1, 12, 0, 0);
const HOUR = 3_600_000;
const MINUTE = 60_000;

async function insertRecords(store: Store, times: number[], prefix: string): Promise<void> {
  const rows = times.map((time, i) => [`${prefix}-${i}`, time, '[]', 'unmatched', 200, '{}', '{}']);
  for (let i = 0; i < rows.length; i += 1000) {
    await store.insertMany('capture_records', ['id', 'time', 'route', 'primary_route', 'status', 'labels', 'record'], rows.slice(i, i + 1000));
  }
}

async function insertRollup(store: Store, bucket: number): Promise<void> {
  await store.insertMany('capture_rollups', ROLLUP_COLUMNS, [[bucket, '/a', 'GET', '2xx', '', ...ROLLUP_COLUMNS.slice(5).map(() => 1)]]);
}

const ids = async (store: Store) => (await store.query<{ id: string }>('SELECT id FROM capture_records ORDER BY id')).map((r) => r.id);
const buckets = async (store: Store) => (await store.query<{ bucket: number | string }>('SELECT bucket FROM capture_rollups ORDER BY bucket')).map((r) => Number(r.bucket));

for (const kind of kinds) {
  const retention = suite(`capture retention (${kind.name})`);
  retention.after(() => kind.cleanup());

  const open = async () => {
    const store = (await kind.open(await kind.fresh())).forPlugin('capture');
    await store.migrate(captureMigrations);
    return store;
  };

  retention('deletes records older than the retention, keeps the rest (the boundary itself is kept)', async () => {
    const store = await open();
    await insertRecords(store, [NOW - 3 * HOUR, NOW - 2 * HOUR - 1, NOW - 2 * HOUR, NOW - HOUR, NOW], 'r');
    const deleted = await deleteExpired(store, { now: NOW, recordsMs: 2 * HOUR, rollupsMs: 90 * 24 * HOUR });
    assert.is(deleted.records, 2);
    assert.equal(await ids(store), ['r-2', 'r-3', 'r-4']);
  });

  retention('a backlog larger than one chunk is deleted completely, in several statements', async () => {
    const store = await open();
    const old = Array.from({ length: DELETE_CHUNK * 2 + 7 }, (_, i) => NOW - 10 * HOUR - i);
    await insertRecords(store, old, 'old');
    await insertRecords(store, [NOW - 1], 'new');
    const deleted = await deleteExpired(store, { now: NOW, recordsMs: HOUR, rollupsMs: HOUR });
    assert.is(deleted.records, old.length);
    assert.equal(await ids(store), ['new-0']);
  });

  retention('rollups go only once their whole minute is past the rollup retention', async () => {
    const store = await open();
    const cutoff = NOW - 24 * HOUR;
    // Minutes that ended before the cutoff go; the one ending exactly at it, and later ones, stay.
    for (const b of [cutoff - 2 * MINUTE, cutoff - MINUTE - 1, cutoff - MINUTE, cutoff - MINUTE + 1, NOW]) await insertRollup(store, b);
    const deleted = await deleteExpired(store, { now: NOW, recordsMs: HOUR, rollupsMs: 24 * HOUR });
    assert.is(deleted.rollups, 2);
    assert.equal(await buckets(store), [cutoff - MINUTE, cutoff - MINUTE + 1, NOW]);
  });

  retention('rule paths go only once their whole hour is past the rollup retention', async () => {
    const store = await open();
    const cutoff = NOW - 24 * HOUR;
    const hours = [cutoff - 2 * HOUR, cutoff - HOUR - 1, cutoff - HOUR, cutoff - HOUR + 1, NOW];
    await store.insertMany('capture_rule_paths', RULE_PATH_COLUMNS, hours.map((b) => [b, 'r', 'GET', '/a', 1]));
    const deleted = await deleteExpired(store, { now: NOW, recordsMs: HOUR, rollupsMs: 24 * HOUR });
    assert.is(deleted.rulePaths, 2);
    const left = await store.query<{ bucket: number | string }>('SELECT bucket FROM capture_rule_paths ORDER BY bucket');
    assert.equal(left.map((r) => Number(r.bucket)), [cutoff - HOUR, cutoff - HOUR + 1, NOW]);
  });

  retention('nothing expired: nothing deleted', async () => {
    const store = await open();
    await insertRecords(store, [NOW], 'r');
    await insertRollup(store, NOW - MINUTE);
    assert.equal(await deleteExpired(store, { now: NOW, recordsMs: HOUR, rollupsMs: HOUR }), { records: 0, rollups: 0, rulePaths: 0, fields: 0 });
    assert.equal(await ids(store), ['r-0']);
  });

  retention.run();
}
