import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Migration } from '@vigil/plugin-sdk';
import { StoreErrors } from '../../../../runtime/store/index.js';
import type { StoreBackend } from '../../../../runtime/store/index.js';
import { checkMigrations } from '../../../../runtime/store/migrate.js';
import { backendKinds, rejection, type BackendKind } from './backend-kinds.js';

const base: Migration[] = [
  { version: 1, name: 'notes table', up: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)' },
  { version: 2, name: 'seed note', up: "INSERT INTO notes (id, body) VALUES (1, 'first'); INSERT INTO notes (id, body) VALUES (2, 'second')" },
];

function define(kind: BackendKind) {
  const test = suite<{ store: StoreBackend; url: string }>(`store migrations (${kind.name})`);
  test.before.each(async (ctx) => {
    ctx.url = await kind.fresh();
    ctx.store = await kind.open(ctx.url);
  });
  test.after(() => kind.cleanup());

  test('applies pending migrations in order, several statements each, and records them', async ({ store }) => {
    await store.migrate('notes', base);
    assert.equal(await store.query('SELECT id, body FROM notes ORDER BY id'), [{ id: 1, body: 'first' }, { id: 2, body: 'second' }]);
    const recorded = await store.query<{ plugin: string; version: number; name: string; applied_at: number }>(
      'SELECT plugin, version, name, applied_at FROM vigil_migrations ORDER BY version');
    assert.equal(recorded.map((r) => [r.plugin, r.version, r.name]), [['notes', 1, 'notes table'], ['notes', 2, 'seed note']]);
    assert.ok(recorded.every((r) => typeof r.applied_at === 'number' && Math.abs(r.applied_at - Date.now()) < 60_000));
  });

  test('a recorded migration never runs again; a new one runs alone', async ({ store, url }) => {
    await store.migrate('notes', base);
    await store.migrate('notes', base);
    const again = await kind.open(url);
    await again.migrate('notes', [...base, { version: 3, name: 'third', up: "INSERT INTO notes (id, body) VALUES (3, 'third')" }]);
    assert.equal(await store.query('SELECT COUNT(*) AS n FROM notes'), [{ n: 3 }]);
    assert.equal(await store.query("SELECT COUNT(*) AS n FROM vigil_migrations WHERE plugin = 'notes'"), [{ n: 3 }]);
  });

  test('each plugin has its own version history', async ({ store }) => {
    await store.migrate('notes', base);
    await store.forPlugin('other-plugin').migrate([{ version: 1, name: 'own table', up: 'CREATE TABLE other_plugin_things (id INTEGER)' }]);
    const rows = await store.query<{ plugin: string; version: number }>('SELECT plugin, version FROM vigil_migrations ORDER BY plugin, version');
    assert.equal(rows.map((r) => `${r.plugin}@${r.version}`), ['notes@1', 'notes@2', 'other-plugin@1']);
  });

  test('{ sqlite, postgres } migrations run the SQL of the store\'s dialect', async ({ store }) => {
    await store.migrate('dialects', [{
      version: 1,
      name: 'dialect marker',
      up: {
        sqlite: "CREATE TABLE marker (v TEXT); INSERT INTO marker VALUES ('sqlite')",
        postgres: "CREATE TABLE marker (v TEXT); INSERT INTO marker VALUES ('postgres')",
      },
    }]);
    assert.equal(await store.query('SELECT v FROM marker'), [{ v: kind.name }]);
  });

  test('a gap or a decrease is an error naming the plugin, and nothing is applied', async ({ store }) => {
    const gap = await rejection(() => store.migrate('gappy', [base[0], { ...base[1], version: 3 }]));
    assert.is(gap.code, StoreErrors.MIGRATION_ORDER);
    assert.match(gap.message, /plugin "gappy"/);
    assert.match(gap.message, /version 3 .*after version 1 leaves a gap/);
    const down = await rejection(() => store.migrate('downhill', [base[0], base[1], { version: 2, name: 'again', up: 'SELECT 1' }]));
    assert.match(down.message, /plugin "downhill".*does not increase/);
    const late = await rejection(() => store.migrate('late', [{ ...base[0], version: 2 }]));
    assert.match(late.message, /at the start leaves a gap/);
    const tables = await store.query<{ n: number }>("SELECT COUNT(*) AS n FROM vigil_migrations WHERE plugin IN ('gappy', 'downhill', 'late')")
      .catch(() => [{ n: 0 }]);
    assert.equal(tables, [{ n: 0 }]);
  });

  test('a failing migration keeps none of its statements and is not recorded; earlier ones stay', async ({ store }) => {
    const err = await rejection(() => store.migrate('notes', [
      base[0],
      { version: 2, name: 'half done', up: 'CREATE TABLE half (id INTEGER); INSERT INTO no_such_table VALUES (1)' },
    ]));
    assert.is(err.code, StoreErrors.MIGRATION_FAILED);
    assert.match(err.message, /migration 2 \("half done"\) of plugin "notes" failed/);
    assert.equal(await store.query("SELECT version FROM vigil_migrations WHERE plugin = 'notes'"), [{ version: 1 }]);
    assert.is((await rejection(() => store.query('SELECT COUNT(*) AS n FROM half'))).code, StoreErrors.QUERY);
  });

  test('two stores migrating the same database at once apply each migration once', async ({ url }) => {
    const slow = kind.name === 'postgres' ? 'SELECT pg_sleep(0.2); ' : '';
    const migrations: Migration[] = [
      { version: 1, name: 'hits table', up: 'CREATE TABLE hits (n INTEGER)' },
      { version: 2, name: 'first hit', up: { sqlite: 'INSERT INTO hits VALUES (2)', postgres: `${slow}INSERT INTO hits VALUES (2)` } },
      { version: 3, name: 'second hit', up: 'INSERT INTO hits VALUES (3)' },
    ];
    const a = await kind.open(url);
    const b = await kind.open(url);
    await Promise.all([a.migrate('race', migrations), b.migrate('race', migrations), a.migrate('race', migrations)]);
    assert.equal(await a.query('SELECT n FROM hits ORDER BY n'), [{ n: 2 }, { n: 3 }]);
    assert.equal(await b.query("SELECT COUNT(*) AS n FROM vigil_migrations WHERE plugin = 'race'"), [{ n: 3 }]);
  });

  test('forPlugin(...).table() prefixes the plugin name with dashes as underscores', async ({ store }) => {
    const notes = store.forPlugin('llm-traces');
    assert.is(notes.table('spans'), 'llm_traces_spans');
    assert.is(notes.table('eval-results'), 'llm_traces_eval_results');
    assert.is(notes.dialect, kind.name);
    assert.is((await rejection(async () => notes.table('x; DROP TABLE y'))).code, StoreErrors.IDENTIFIER);
  });

  return test;
}

const kinds = await backendKinds('store_migrate');

const pure = suite('migration list checks');
pure('bad entries name the plugin and the problem', () => {
  assert.throws(() => checkMigrations('p', [{ version: 1.5, name: 'x', up: 'SELECT 1' }]), /plugin "p": entry 0 has version 1.5/);
  assert.throws(() => checkMigrations('p', [{ version: 1, name: '', up: 'SELECT 1' }]), /version 1 has no name/);
  assert.throws(() => checkMigrations('p', [{ version: 1, name: 'x', up: { sqlite: 'SELECT 1' } as never }]), /needs up: a SQL string or \{ sqlite, postgres \}/);
  assert.throws(() => checkMigrations('', []), /needs a plugin name/);
  assert.throws(() => checkMigrations('p', {} as never), /expected an array/);
  checkMigrations('p', []);
  checkMigrations('p', base);
});
pure.run();

for (const kind of kinds) define(kind).run();
