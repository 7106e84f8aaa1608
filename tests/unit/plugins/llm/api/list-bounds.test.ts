// The LLM API's reads at large stored data, in a real runtime (SDK harness: control plane, auth, the llm plugin) on
// SQLite and PostgreSQL, the store filled directly: a trace list holds at most 8 MB of traces a page and pages on by
// cursor; offsets and text filters past their bounds are 400s; a template of 3,000 versions lists its newest 20 with
// exact stats in a few reads (not several per version); the gate names a missing version without listing them all.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestRuntime, type TestRuntime } from '@vigil/plugin-sdk/testing';
import { openStore, type StoreBackend } from '../../../../../runtime/store/index.js';
import { freshPostgresSchema, postgresAvailable } from '../../../../support/postgres.js';

const MB = 1024 * 1024;
const HOUR = 3_600_000;
/** Traces of 1 MB each: 20 of them are 20 MB, more than two pages may hold. */
const BIG_TRACES = 20;
const VERSIONS = 3_000;

interface Ctx { rt: TestRuntime; store: StoreBackend; key: string; projectId: string; now: number; drop?: () => Promise<void> }

/** SQLite (the runtime's default file) always; PostgreSQL when reachable. */
async function backends(): Promise<{ name: string; schema?: () => ReturnType<typeof freshPostgresSchema> }[]> {
  const list: { name: string; schema?: () => ReturnType<typeof freshPostgresSchema> }[] = [{ name: 'sqlite' }];
  if (await postgresAvailable('llm list bounds')) list.push({ name: 'postgres', schema: () => freshPostgresSchema('llm_list_bounds') });
  return list;
}

const traceRow = (projectId: string, i: number, created: number, extra: { template?: string; version?: number; latency?: number; bytes?: number; tags?: string[] } = {}) => {
  const id = `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`;
  // A whole stored trace (answers are checked against the StoredTrace schema in test runs); its output pads it.
  const trace = {
    id, created_at: new Date(created).toISOString(), model: 'm', provider: null, name: null, status: 'ok', error: null, start_time: null,
    latency_ms: extra.latency ?? i, tokens: null, cost_usd: null, cost_estimated: false, input: null, output: 'x'.repeat(extra.bytes ?? 10),
    prompt_template: null, user_id: null, session_id: null, tags: extra.tags ?? [], metadata: null,
  };
  return [id, created, projectId, 'm', i % 10 === 0 ? 'error' : 'ok', extra.latency ?? i, 10, 5, 15, 0.001, extra.template ?? null,
    extra.version ?? null, null, null, JSON.stringify(extra.tags ?? []), JSON.stringify(trace)];
};
const TRACE_COLUMNS = ['id', 'created_at', 'project_id', 'model', 'status', 'latency_ms', 'input_tokens', 'output_tokens', 'total_tokens',
  'cost_usd', 'template', 'version', 'user_id', 'session_id', 'tags', 'trace'];

for (const backend of await backends()) {
  const test = suite<Ctx>(`llm list bounds (${backend.name})`);

  test.before(async (ctx) => {
    const schema = await backend.schema?.();
    ctx.drop = schema?.drop;
    ctx.rt = await startTestRuntime({ plugins: [], config: { llm: {}, ...(schema ? { storage: { url: schema.url } } : {}) } });
    ctx.store = await openStore(schema?.url ?? `sqlite:${ctx.rt.dataDir}/vigil.db`);
    const made = await ctx.rt.fetch('/api/llm/projects', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'big' }) });
    assert.is(made.status, 201);
    ctx.key = ((await made.json()) as { key: string }).key;
    const llm = ctx.store.forPlugin('llm');
    ctx.projectId = (await llm.query<{ id: string }>('SELECT id FROM llm_projects WHERE name = ?', ['big']))[0].id;
    ctx.now = Date.now();
    // 20 traces of 1 MB, a minute apart; 3,000 versions of "many", the newest 20 with traces of known latencies.
    await llm.insertMany('llm_traces', TRACE_COLUMNS, Array.from({ length: BIG_TRACES }, (_, i) => traceRow(ctx.projectId, i, ctx.now - HOUR + i * 60_000, { bytes: MB })));
    await llm.insertMany('llm_prompt_versions', ['project_id', 'template', 'version', 'hash', 'text', 'created_at'],
      Array.from({ length: VERSIONS }, (_, i) => [ctx.projectId, 'many', i + 1, `hash-${i + 1}`, `text ${i + 1}`, ctx.now - VERSIONS + i]));
    const rows = [];
    for (let v = VERSIONS - 24; v <= VERSIONS; v++) {
      // Version v has (v % 7) + 1 calls with latencies 10, 20, …
      for (let c = 0; c <= v % 7; c++) rows.push(traceRow(ctx.projectId, 1_000 + v * 10 + c, ctx.now - 2 * HOUR, { template: 'many', version: v, latency: 10 * (c + 1) }));
    }
    await llm.insertMany('llm_traces', TRACE_COLUMNS, rows);
  });

  test.after(async (ctx) => {
    await ctx.store?.close();
    await ctx.rt?.stop();
    await ctx.drop?.();
  });

  const get = async (ctx: Ctx, path: string) => {
    const res = await ctx.rt.fetch(path, { auth: false, headers: { 'X-Service-Project-Key': ctx.key } });
    return { status: res.status, body: await res.json() as any };
  };

  test('a trace list holds at most 8 MB of traces a page, says so, and pages on by cursor through every trace once', async (ctx) => {
    const seen: string[] = [];
    let path = '/api/v1/traces?limit=200&since=2h';
    let pages = 0;
    for (;;) {
      const { status, body } = await get(ctx, path);
      assert.is(status, 200, JSON.stringify(body).slice(0, 200));
      pages++;
      const bytes = body.data.reduce((n: number, t: unknown) => n + JSON.stringify(t).length, 0);
      assert.ok(bytes <= 8 * MB, `page ${pages}: ${bytes} bytes`);
      seen.push(...body.data.map((t: { id: string }) => t.id));
      if (body.next === null) { assert.is(body.truncated, false); break; }
      assert.is(body.truncated, true, 'only the byte bound ends these pages before 200');
      path = `/api/v1/traces?limit=200&since=2h&before=${body.next}`;
    }
    assert.is(pages, 3);
    assert.is(new Set(seen).size, BIG_TRACES);
    assert.is(seen.length, BIG_TRACES);
    // Newest first, across pages.
    assert.equal(seen, [...seen].sort().reverse());
  });

  test('a deep offset and over-long text filters are 400s that name the parameter', async (ctx) => {
    const deep = await get(ctx, '/api/v1/traces?offset=10001');
    assert.is(deep.status, 400);
    assert.match(deep.body.error.message, /offset/);
    assert.is((await get(ctx, '/api/v1/traces?offset=10000')).status, 200);
    for (const [name, length] of [['tag', 129], ['model', 257], ['user_id', 257], ['template', 257]] as const) {
      const r = await get(ctx, `/api/v1/traces?${name}=${'a'.repeat(length)}`);
      assert.is(r.status, 400, name);
      assert.match(r.body.error.message, new RegExp(name));
    }
    assert.is((await get(ctx, '/api/v1/eval-results?offset=10001')).status, 400);
    assert.is((await get(ctx, '/api/v1/prompt-templates?offset=10001')).status, 400);
  });

  test('a template of 3,000 versions lists its newest 20 with exact stats, in a few reads whatever its versions', async (ctx) => {
    const queries = async () => Number(/vigil_store_queries_total\{op="query"\} (\d+)/.exec(await ctx.rt.metrics())?.[1] ?? NaN);
    const before = await queries();
    const list = await get(ctx, '/api/v1/prompt-templates');
    const used = await queries() - before;
    assert.is(list.status, 200);
    const many = list.body.data.find((t: { name: string }) => t.name === 'many');
    assert.is(many.version_count, VERSIONS);
    assert.is(many.latest_version, VERSIONS);
    assert.equal(many.versions.map((v: { version: number }) => v.version), Array.from({ length: 20 }, (_, i) => VERSIONS - 19 + i));
    // Other processes' work (the persist queue's polling) runs meanwhile: a margin, far below one read per version.
    assert.ok(used < 40, `${used} queries for the list`);
    for (const v of many.versions) {
      const calls = (v.version % 7) + 1;
      assert.is(v.requests, calls, `v${v.version}`);
      const lat = Array.from({ length: calls }, (_, c) => 10 * (c + 1));
      const at = (pct: number) => lat[Math.max(1, Math.ceil((pct * calls) / 100)) - 1];
      assert.equal([v.p50_latency_ms, v.p95_latency_ms, v.p99_latency_ms], [at(50), at(95), at(99)], `v${v.version}`);
      assert.is(v.error_rate, v.errors / calls);
    }
    // The list's stats are the version route's.
    const one = await get(ctx, `/api/v1/prompt-templates/many/versions/${VERSIONS - 3}`);
    const listed = many.versions.find((v: { version: number }) => v.version === VERSIONS - 3);
    const { version: _v, hash: _h, created_at: _c, ...figures } = listed;
    assert.equal(one.body.stats, figures);
  });

  test('the gate names a missing version of a 3,000-version template in one short line', async (ctx) => {
    const r = await get(ctx, `/api/v1/gate?template=many&candidate=${VERSIONS + 5}`);
    assert.is(r.status, 400);
    assert.is(r.body.error.message, `template "many" has no version ${VERSIONS + 5}; it has versions 1 to ${VERSIONS}`);
    const ok = await get(ctx, '/api/v1/gate?template=many');
    assert.is(ok.status, 200);
    assert.is(ok.body.candidate.version, VERSIONS);
    assert.is(ok.body.baseline.version, VERSIONS - 1);
  });

  test.run();
}
