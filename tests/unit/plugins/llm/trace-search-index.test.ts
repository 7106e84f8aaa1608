// The trace search index on a real SQLite file and a real PostgreSQL schema: the migration indexes the traces stored
// before it, and every later write of the `trace` column keeps the index current without the writer doing anything:
// an update (a Langfuse update, OTLP log messages filling an output) replaces the old words, a delete removes them,
// and reindexTrace / reindexAllTraces (SQLite, after a VACUUM) rebuild from the stored text.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openStore, type StoreBackend } from '../../../../runtime/store/index.js';
import { listTraces } from '../../../../plugins/llm/api/traces-query.js';
import { llmMigrations } from '../../../../plugins/llm/migrations.js';
import { reindexAllTraces, reindexTrace } from '../../../../plugins/llm/trace-search-index.js';
import { freshPostgresSchema, postgresAvailable } from '../../../support/postgres.js';
import { tempDir } from '../../../support/tmp.js';

const PROJECT = 'p-search';
const COLUMNS = ['id', 'created_at', 'project_id', 'model', 'status', 'trace'];

const traceJson = (id: string, output: unknown, input: unknown = null) => JSON.stringify({
  id, created_at: new Date(1_700_000_000_000).toISOString(), model: 'm', provider: null, name: null, status: 'ok', error: null, start_time: null,
  latency_ms: null, tokens: null, cost_usd: null, cost_estimated: false, input, output, prompt_template: null, user_id: null, session_id: null,
  tags: [], metadata: { note: 'metadata is not searched: tangerine' },
});
const row = (n: number, output: unknown, input: unknown = null) => {
  const id = `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
  return [id, 1_700_000_000_000 + n, PROJECT, 'm', 'ok', traceJson(id, output, input)];
};
const idOf = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;

interface Ctx { store: StoreBackend; cleanup: () => Promise<void> }

async function backends() {
  const list: { name: string; open: () => Promise<Ctx> }[] = [{
    name: 'sqlite',
    async open() {
      const dir = tempDir('vigil-trace-search-');
      const store = await openStore(`sqlite:${dir.path}/vigil.db`);
      return { store, cleanup: async () => { await store.close(); dir.cleanup(); } };
    },
  }];
  if (await postgresAvailable('trace search index')) {
    list.push({
      name: 'postgres',
      async open() {
        const schema = await freshPostgresSchema('trace_search_index');
        const store = await openStore(schema.url);
        return { store, cleanup: async () => { await store.close(); await schema.drop(); } };
      },
    });
  }
  return list;
}

for (const backend of await backends()) {
  const test = suite<Ctx>(`trace search index (${backend.name})`);
  const found = async (ctx: Ctx, q: string) => (await listTraces(ctx.store.forPlugin('llm'), PROJECT, { q })).data.map((t) => (JSON.parse(t) as { id: string }).id);

  test.before(async (ctx) => {
    Object.assign(ctx, await backend.open());
    // The tables as they were before search; two traces stored then.
    const search = llmMigrations.find((m) => m.name.startsWith('full-text search'))!.version;
    await ctx.store.migrate('llm', llmMigrations.filter((m) => m.version < search));
    await ctx.store.forPlugin('llm').insertMany('llm_traces', COLUMNS, [
      row(1, { role: 'assistant', content: 'an apricot before the migration' }),
      row(2, 'nothing to see', [{ role: 'user', content: 'a question about quinces' }]),
    ]);
    await ctx.store.migrate('llm', llmMigrations);
  });

  test.after(async (ctx) => { await ctx.cleanup?.(); });

  test('the migration indexes the traces stored before it, input and output, never metadata', async (ctx) => {
    assert.equal(await found(ctx, 'apricot'), [idOf(1)]);
    assert.equal(await found(ctx, 'quinces'), [idOf(2)]);
    assert.equal(await found(ctx, 'tangerine'), []);
  });

  test('rows inserted later are indexed; another project never sees them', async (ctx) => {
    await ctx.store.forPlugin('llm').insertMany('llm_traces', COLUMNS, [row(3, 'a fresh apricot jam')]);
    assert.equal(await found(ctx, 'apricot'), [idOf(3), idOf(1)]);
    const other = await listTraces(ctx.store.forPlugin('llm'), 'p-other', { q: 'apricot' });
    assert.equal(other.data, []);
  });

  test('an update of the stored trace replaces its words; a delete removes them', async (ctx) => {
    const llm = ctx.store.forPlugin('llm');
    await llm.run('UPDATE llm_traces SET trace = ? WHERE project_id = ? AND id = ?', [traceJson(idOf(1), 'now about bergamot'), PROJECT, idOf(1)]);
    assert.equal(await found(ctx, 'apricot'), [idOf(3)]);
    assert.equal(await found(ctx, 'bergamot'), [idOf(1)]);
    await llm.run('DELETE FROM llm_traces WHERE project_id = ? AND id = ?', [PROJECT, idOf(3)]);
    assert.equal(await found(ctx, 'apricot'), []);
  });

  test('reindexTrace and reindexAllTraces rebuild from the stored text', async (ctx) => {
    const llm = ctx.store.forPlugin('llm');
    assert.is(await reindexTrace(llm, PROJECT, idOf(1)), true);
    assert.is(await reindexTrace(llm, PROJECT, idOf(99)), false);
    await reindexAllTraces(llm);
    assert.equal(await found(ctx, 'bergamot'), [idOf(1)]);
    assert.equal(await found(ctx, 'quinces'), [idOf(2)]);
  });

  test.run();
}
