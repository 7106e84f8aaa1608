// The dashboard's reads of LLM projects (/api/llm/projects/:project/…, dashboard token), on SQLite and PostgreSQL:
// each answers what its /api/v1 twin answers to the project's key, stays within the named project, pages by keyset
// cursor without gaps or repeats, diffs any two prompt versions, and the live stream hears of stored batches without
// their content.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { llmClient, traceItem, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { openSse } from '../support/sse-client.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'llm-dashboard-api-test-token';

interface Ctx {
  work: ReturnType<typeof tempDir>;
  vigil: VigilProcess;
  base: string;
  api: ReturnType<typeof llmClient>;
  keys: { alpha: string; beta: string };
  /** Every id ingested into alpha, in the order sent. */
  alphaIds: string[];
  drop?: () => Promise<void>;
}

const dash = (ctx: Ctx, path: string) => ctx.api.dashboard(TOKEN, path);
/** The same read through the public API (alpha's key) and the dashboard (alpha by name). */
async function both(ctx: Ctx, publicPath: string, dashboardPath: string) {
  const [pub, board] = await Promise.all([ctx.api.get(ctx.keys.alpha, publicPath), dash(ctx, dashboardPath)]);
  return { pub, board };
}

function define(backend: 'sqlite' | 'postgres') {
  const test = suite<Ctx>(`llm dashboard API (${backend})`);

  test.before(async (ctx) => {
    ctx.work = tempDir('vigil-llm-dash-');
    let storage = '';
    if (backend === 'postgres') {
      const schema = await freshPostgresSchema('llm_dashboard_api');
      ctx.drop = () => schema.drop();
      storage = `storage: { url: "${schema.url}" }\n`;
    }
    const port = await freePort();
    ctx.base = `http://127.0.0.1:${port}`;
    const file = writeConfig(ctx.work.path, `data_dir: ${ctx.work.path}/data
${storage}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
ui: {}
llm: { persist: { backoff: 50ms } }
`);
    ctx.vigil = await startVigil(file, ctx.base, { cwd: ctx.work.path });
    ctx.api = llmClient(ctx.base);
    const create = async (name: string) => {
      const r = await ctx.api.dashboard(TOKEN, '/api/llm/projects', { method: 'POST', body: JSON.stringify({ name }) });
      assert.is(r.status, 201, JSON.stringify(r.body));
      return r.body.key as string;
    };
    ctx.keys = { alpha: await create('alpha'), beta: await create('beta') };

    // alpha: "support" v1 (20 calls, 2 errors), v2 (20 calls, 6 errors, slower, dearer), v3 (5 calls); "search" v1.
    const support = ['You are a support agent.\nAnswer {{question}}.', 'You are a support agent.\nAnswer {{question}} politely.', 'You are a kind support agent.\nAnswer {{question}} politely.\nSign as Vigil.'];
    const items: Json[] = [];
    const add = (raw: string, n: number, errors: number, latency: number, cost: number, extra: Json = {}) => {
      for (let i = 0; i < n; i++) {
        items.push(traceItem({
          prompt_template: { name: 'support', raw }, latency_ms: latency + i, cost_usd: cost,
          user_id: `u-${i % 3}`, session_id: `s-${i % 2}`, tags: i % 2 ? ['eu'] : ['us', 'beta-users'],
          ...(i < errors ? { status: 'error', error: 'upstream timeout' } : {}), ...extra,
        }));
      }
    };
    add(support[0], 20, 2, 100, 0.001);
    add(support[1], 20, 6, 300, 0.002, { model: 'gpt-4o' });
    add(support[2], 5, 0, 200, 0.001);
    for (let i = 0; i < 4; i++) items.push(traceItem({ prompt_template: { name: 'search', raw: 'Find {{q}}' }, model: 'claude-3-5-haiku-20241022' }));
    ctx.alphaIds = [];
    // One item per batch: created_at grows with the order sent, so the newest-first order is known.
    for (const item of items) {
      const r = await ctx.api.ingest(ctx.keys.alpha, { traces: [item] });
      assert.is(r.status, 202, JSON.stringify(r.body));
      ctx.alphaIds.push(r.body.ids[0]);
    }
    const beta = await ctx.api.ingest(ctx.keys.beta, { traces: [traceItem({ prompt_template: { name: 'support', raw: 'beta only text' }, user_id: 'u-0', tags: ['eu'] })] });
    await ctx.api.waitForTraces(ctx.keys.beta, beta.body.ids);
    await ctx.api.waitForTraces(ctx.keys.alpha, [ctx.alphaIds.at(-1)!]);
    await waitFor(async () => (await ctx.api.get(ctx.keys.alpha, '/api/v1/stats?range=1h')).body.requests === items.length, { what: 'alpha\'s traces all stored' });
  });

  test.after(async (ctx) => {
    await ctx.vigil?.stop('SIGKILL');
    await ctx.drop?.();
    ctx.work?.cleanup();
  });

  test('traces: the dashboard lists what the public API lists, for every filter', async (ctx) => {
    const queries = ['', '?limit=7', '?limit=5&offset=10', '?status=error', '?model=gpt-4o', '?template=support&version=2', '?user_id=u-1',
      '?session_id=s-0', '?tag=eu', '?tag=beta-users&status=ok', '?since=1h', '?template=search'];
    for (const q of queries) {
      const { pub, board } = await both(ctx, `/api/v1/traces${q}`, `/api/llm/projects/alpha/traces${q}`);
      assert.is(board.status, 200, q);
      assert.equal(board.body, pub.body, q);
    }
    const errors = await dash(ctx, '/api/llm/projects/alpha/traces?status=error&limit=200');
    assert.is(errors.body.data.length, 8);
    const v2 = await dash(ctx, '/api/llm/projects/alpha/traces?template=support&version=2&limit=200');
    assert.is(v2.body.data.length, 20);
    assert.ok(v2.body.data.every((t: Json) => t.prompt_template.version === 2 && t.model === 'gpt-4o'));
    assert.is((await dash(ctx, '/api/llm/projects/alpha/traces?status=maybe')).status, 400);
  });

  test('traces page by keyset cursor: older pages, then newer ones, without gaps or repeats, newest first', async (ctx) => {
    const cursor = (t: Json) => `${Date.parse(t.created_at)}.${t.id}`;
    const seen: string[] = [];
    let page = await dash(ctx, '/api/llm/projects/alpha/traces?limit=10');
    const pages: Json[][] = [];
    while (page.body.data.length) {
      pages.push(page.body.data);
      seen.push(...page.body.data.map((t: Json) => t.id));
      page = await dash(ctx, `/api/llm/projects/alpha/traces?limit=10&before=${cursor(page.body.data.at(-1))}`);
    }
    // Every trace once; newest first (items sent within one millisecond may trade places: ids break the tie).
    assert.is(new Set(seen).size, seen.length);
    assert.equal([...seen].sort(), [...ctx.alphaIds].sort());
    const times = pages.flat().map((t) => Date.parse(t.created_at));
    assert.ok(times.every((t, i) => i === 0 || t <= times[i - 1]));
    // From the last page back up with `after`: each page is the one before it, still newest first.
    for (let i = pages.length - 1; i > 0; i--) {
      const newer = await dash(ctx, `/api/llm/projects/alpha/traces?limit=10&after=${cursor(pages[i][0])}`);
      assert.equal(newer.body.data.map((t: Json) => t.id), pages[i - 1].map((t) => t.id), `page ${i - 1}`);
    }
    const filtered = await dash(ctx, `/api/llm/projects/alpha/traces?status=error&limit=3&before=${cursor(pages[0][0])}`);
    assert.ok(filtered.body.data.every((t: Json) => t.status === 'error'));
    // The public API takes the same cursors.
    const pub = await ctx.api.get(ctx.keys.alpha, `/api/v1/traces?limit=10&before=${cursor(pages[0].at(-1)!)}`);
    assert.equal(pub.body.data.map((t: Json) => t.id), pages[1].map((t) => t.id));
    for (const bad of ['12', 'x.y', '1.abc def', `${'9'.repeat(16)}.a`]) {
      const r = await dash(ctx, `/api/llm/projects/alpha/traces?before=${encodeURIComponent(bad)}`);
      assert.is(r.status, 400, bad);
    }
  });

  test('trace detail, and the search by id that names the project holding it', async (ctx) => {
    const id = ctx.alphaIds[3];
    const { pub, board } = await both(ctx, `/api/v1/traces/${id}`, `/api/llm/projects/alpha/traces/${id}`);
    assert.is(board.status, 200);
    assert.equal(board.body, pub.body);
    assert.is(board.body.id, id);
    const found = await dash(ctx, `/api/llm/traces/${id.toUpperCase()}`);
    assert.is(found.status, 200);
    assert.is(found.body.project, 'alpha');
    assert.equal(found.body.trace, pub.body);
    assert.is((await dash(ctx, '/api/llm/traces/00000000-0000-7000-8000-000000000000')).status, 404);
  });

  test('prompts: templates, versions and their diff as the public API gives them; a diff between any two versions', async (ctx) => {
    const list = await both(ctx, '/api/v1/prompt-templates', '/api/llm/projects/alpha/prompt-templates');
    assert.equal(list.board.body, list.pub.body);
    const support = list.board.body.data.find((t: Json) => t.name === 'support');
    assert.equal(support.versions.map((v: Json) => [v.version, v.requests, v.errors]), [[1, 20, 2], [2, 20, 6], [3, 5, 0]]);
    assert.is(support.versions[1].error_rate, 0.3);
    assert.is(support.versions[1].cost_usd.toFixed(3), '0.040');

    const v3 = await both(ctx, '/api/v1/prompt-templates/support/versions/3', '/api/llm/projects/alpha/prompt-templates/support/versions/3');
    assert.equal(v3.board.body, v3.pub.body);
    assert.is(v3.board.body.against, 2);
    assert.is(v3.board.body.diff, [
      '--- support v2', '+++ support v3', '@@ -1,2 +1,3 @@', '-You are a support agent.', '+You are a kind support agent.',
      ' Answer {{question}} politely.', '+Sign as Vigil.', '',
    ].join('\n'));

    const against = await both(ctx, '/api/v1/prompt-templates/support/versions/3?against=1', '/api/llm/projects/alpha/prompt-templates/support/versions/3?against=1');
    assert.equal(against.board.body, against.pub.body);
    assert.is(against.board.body.against, 1);
    assert.match(against.board.body.diff, /^--- support v1\n\+\+\+ support v3\n@@ -1,2 \+1,3 @@\n-You are a support agent\.\n-Answer \{\{question\}\}\.\n\+You are a kind/);
    // Backwards too: from a newer version to an older one.
    const back = await dash(ctx, '/api/llm/projects/alpha/prompt-templates/support/versions/1?against=3');
    assert.match(back.body.diff, /^--- support v3\n\+\+\+ support v1\n/);
    const same = await dash(ctx, '/api/llm/projects/alpha/prompt-templates/support/versions/2?against=2');
    assert.is(same.body.diff, '');
    assert.is((await dash(ctx, '/api/llm/projects/alpha/prompt-templates/support/versions/2?against=9')).status, 404);
    assert.is((await dash(ctx, '/api/llm/projects/alpha/prompt-templates/support/versions/2?against=0')).status, 400);
    assert.is((await dash(ctx, '/api/llm/projects/alpha/prompt-templates/support/versions/4')).status, 404);
    assert.is((await dash(ctx, '/api/llm/projects/alpha/prompt-templates/support/versions/x')).status, 404);
  });

  test('stats and the gate answer as their public twins', async (ctx) => {
    const stats = await both(ctx, '/api/v1/stats?range=1h', '/api/llm/projects/alpha/stats?range=1h');
    const figures = (b: Json) => ({ ...b, from: undefined, to: undefined, series: b.series.map((p: Json) => p.requests).reduce((a: number, b: number) => a + b, 0) });
    assert.equal(figures(stats.board.body), figures(stats.pub.body));
    assert.is(stats.board.body.requests, 49);
    assert.is(stats.board.body.errors, 8);
    assert.is((await dash(ctx, '/api/llm/projects/alpha/stats?range=2d')).status, 400);

    for (const q of ['template=support', 'template=support&baseline=1&candidate=2&max_error_rate=0.5&min_samples=10',
      'template=support&baseline=1&candidate=3&max_p95_increase_pct=50&min_samples=5', 'template=search']) {
      const gate = await both(ctx, `/api/v1/gate?${q}`, `/api/llm/projects/alpha/gate?${q}`);
      assert.is(gate.board.status, 200, q);
      assert.equal(gate.board.body, gate.pub.body, q);
    }
    const verdict = await dash(ctx, '/api/llm/projects/alpha/gate?template=support&baseline=1&candidate=2&min_samples=10');
    assert.is(verdict.body.pass, false);
    assert.equal(verdict.body.checks.map((c: Json) => [c.metric, c.pass]), [['max_p95_increase_pct', false], ['max_error_rate_increase', false]]);
    assert.is((await dash(ctx, '/api/llm/projects/alpha/gate?template=support&candidate=7')).status, 400);
    assert.is((await dash(ctx, '/api/llm/projects/alpha/gate')).status, 400);
  });

  test('isolation: a project\'s routes show its own data only; unknown projects are 404; the token is required', async (ctx) => {
    const beta = await dash(ctx, '/api/llm/projects/beta/traces?limit=200');
    assert.is(beta.body.data.length, 1);
    const id = ctx.alphaIds[0];
    assert.is((await dash(ctx, `/api/llm/projects/beta/traces/${id}`)).status, 404);
    for (const q of ['?user_id=u-0', '?tag=eu', '?template=support', '?model=gpt-4o']) {
      const r = await dash(ctx, `/api/llm/projects/beta/traces${q}`);
      assert.ok(r.body.data.every((t: Json) => !ctx.alphaIds.includes(t.id)), q);
    }
    const templates = await dash(ctx, '/api/llm/projects/beta/prompt-templates');
    assert.equal(templates.body.data.map((t: Json) => [t.name, t.versions.length, t.versions[0].requests]), [['support', 1, 1]]);
    const version = await dash(ctx, '/api/llm/projects/beta/prompt-templates/support/versions/1');
    assert.is(version.body.text, 'beta only text');
    assert.is((await dash(ctx, '/api/llm/projects/beta/prompt-templates/support/versions/2')).status, 404);
    assert.is((await dash(ctx, '/api/llm/projects/beta/prompt-templates/search/versions/1')).status, 404);
    assert.is((await dash(ctx, '/api/llm/projects/beta/stats?range=1h')).body.requests, 1);
    assert.is((await dash(ctx, '/api/llm/projects/beta/gate?template=search')).status, 404);
    assert.is((await dash(ctx, '/api/llm/projects/beta/gate?template=support')).body.pass, null);

    const paths = ['traces', `traces/${id}`, 'prompt-templates', 'prompt-templates/support/versions/1', 'stats', 'gate?template=support'];
    for (const p of paths) {
      const unknown = await dash(ctx, `/api/llm/projects/nobody/${p}`);
      assert.is(unknown.status, 404, p);
      assert.is(unknown.body.error.code, 'VIGIL_ERR_LLM_PROJECT_NOT_FOUND', p);
      assert.is((await ctx.api.send(`/api/llm/projects/alpha/${p}`, undefined)).status, 401, p);
      assert.is((await ctx.api.send(`/api/llm/projects/alpha/${p}`, ctx.keys.alpha)).status, 401, `${p}: a project key is not a dashboard credential`);
    }
    assert.is((await ctx.api.send(`/api/llm/traces/${id}`, ctx.keys.alpha)).status, 401);
  });

  test('live: open pages hear of each stored batch (project and count), never its content', async (ctx) => {
    const stream = await openSse(`${ctx.base}/api/ui/stream?topics=llm.trace`, { authorization: `Bearer ${TOKEN}` });
    try {
      assert.is(stream.status, 200);
      await stream.next((f) => f.event === 'retry');
      const r = await ctx.api.ingest(ctx.keys.beta, { traces: [traceItem({ input: 'secret words', user_id: 'live-user' }), traceItem({ input: 'more secret words' })] });
      assert.is(r.status, 202);
      const frame = await stream.next((f) => f.event === 'llm.trace', 10_000);
      const data = JSON.parse(frame.data);
      assert.equal(Object.keys(data).sort(), ['project', 'stored', 'time']);
      assert.equal([data.project, data.stored], ['beta', 2]);
      assert.not.ok(frame.data.includes('secret') || frame.data.includes('live-user'));
    } finally {
      stream.close();
    }
  });

  return test;
}

const withPostgres = await postgresAvailable('llm-dashboard-api');
define('sqlite').run();
if (withPostgres) define('postgres').run();
