import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { coreMigrationOwner, ensureJobTables, jobsMigrations } from '../../../../runtime/jobs/migrations.js';
import { JobTable } from '../../../../runtime/jobs/job-table.js';
import { backendKinds, type BackendKind } from '../store/backend-kinds.js';

function define(kind: BackendKind) {
  const test = suite(`jobs tables (${kind.name})`);
  test.after(() => kind.cleanup());

  test('are created once per store through vigil-core migrations', async () => {
    const store = await kind.open(await kind.fresh());
    const first = ensureJobTables(store);
    assert.is(ensureJobTables(store), first);
    await first;
    const recorded = await store.query<{ plugin: string; version: number }>('SELECT plugin, version FROM vigil_migrations ORDER BY version');
    assert.equal(recorded, jobsMigrations.map((m) => ({ plugin: coreMigrationOwner, version: m.version })));
    assert.equal(await store.query('SELECT COUNT(*) AS n FROM vigil_jobs'), [{ n: 0 }]);
    assert.equal(await store.query('SELECT COUNT(*) AS n FROM vigil_schedules'), [{ n: 0 }]);
  });

  test('refuse an unknown state and a second open job with the same dedupe key', async () => {
    const store = await kind.open(await kind.fresh());
    await ensureJobTables(store);
    const insert = "INSERT INTO vigil_jobs (queue, payload, state, max_attempts, run_at, dedupe_key, created_at, updated_at) VALUES ('q', 'null', ?, 1, 0, ?, 0, 0)";
    await store.run(insert, ['pending', 'k']);
    const dup = await store.run(insert, ['running', 'k']).then(() => null, (e: { code?: string }) => e);
    assert.is(dup?.code, 'VIGIL_ERR_STORE_QUERY');
    // A finished job does not hold its key.
    await store.run(insert, ['done', 'k']);
    const bad = await store.run(insert, ['sleeping', null]).then(() => null, (e: { code?: string }) => e);
    assert.is(bad?.code, 'VIGIL_ERR_STORE_QUERY');
  });

  test('jobs queued before fair claims existed join the default group and are claimed', async () => {
    const store = await kind.open(await kind.fresh());
    await store.migrate(coreMigrationOwner, jobsMigrations.filter((m) => m.version <= 2));
    await store.run("INSERT INTO vigil_jobs (queue, payload, state, max_attempts, run_at, created_at, updated_at) VALUES ('q', '1', 'pending', 1, 0, 0, 0)");
    await ensureJobTables(store);
    assert.equal(await store.query('SELECT fair_group FROM vigil_jobs'), [{ fair_group: '' }]);
    const claimed = await new JobTable(store).claim('q', 'w1', 4, 60_000);
    assert.equal(claimed.map((j) => [j.payload, j.group]), [['1', '']]);
  });

  return test;
}

for (const kind of await backendKinds('jobs_migrations')) define(kind).run();
