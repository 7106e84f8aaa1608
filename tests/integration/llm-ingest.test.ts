// Issue 23, the LLM plugin's spine, end to end: `vigil run` on SQLite and on PostgreSQL, real HTTP. Ingest answers
// 202 per item, the persist stage versions, redacts and stores once, and the public API shows a project's data to its
// own key only.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { llmClient, traceItem, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { runVigil, startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'llm-ingest-test-token';
const KEYS = {
  ALPHA_KEY: 'alpha-key-0123456789abcdef',
  TINY_KEY: 'tiny-key-0123456789abcdef',
  BROKE_KEY: 'broke-key-0123456789abcdef',
  BRIEF_KEY: 'brief-key-0123456789abcdef',
};
const alpha = KEYS.ALPHA_KEY;

interface Ctx {
  work: ReturnType<typeof tempDir>;
  vigil: VigilProcess;
  base: string;
  file: string;
  beta: string;
  api: ReturnType<typeof llmClient>;
  drop?: () => Promise<void>;
}

function define(backend: 'sqlite' | 'postgres') {
  const test = suite<Ctx>(`llm ingest (${backend})`);

  test.before(async (ctx) => {
    ctx.work = tempDir('vigil-llm-');
    let storage = '';
    if (backend === 'postgres') {
      const schema = await freshPostgresSchema('llm_ingest');
      ctx.drop = () => schema.drop();
      storage = `storage: { url: "${schema.url}" }\n`;
    }
    const port = await freePort();
    ctx.base = `http://127.0.0.1:${port}`;
    ctx.file = writeConfig(ctx.work.path, `data_dir: ${ctx.work.path}/data
${storage}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  retention_interval: 300ms
  persist: { backoff: 50ms }
  projects:
    - name: alpha
      key: \${ALPHA_KEY}
      redact: { json_fields: [$.input.*.ssn, $.metadata.secret] }
    - name: tiny
      key: \${TINY_KEY}
      limits: { items_per_month: 5, items_per_batch: 3 }
    - name: broke
      key: \${BROKE_KEY}
      budget: { monthly_usd: 0, over_budget_sample_rate: 0 }
    - name: brief
      key: \${BRIEF_KEY}
      retention: 1ms
`);
    const created = await runVigil(['project', 'create', 'beta', '-config', ctx.file], { cwd: ctx.work.path, env: KEYS });
    assert.is(created.code, 0, created.stderr);
    ctx.beta = created.stdout.trim().split('\n').at(-1)!;
    ctx.vigil = await startVigil(ctx.file, ctx.base, { cwd: ctx.work.path, env: KEYS });
    ctx.api = llmClient(ctx.base);
  });

  test.after(async (ctx) => {
    await ctx.vigil?.stop('SIGKILL');
    await ctx.drop?.();
    ctx.work.cleanup();
  });

  test('each item is validated on its own; accepted ones are stored with their template, version, cost, and redacted', async ({ api }) => {
    const items = [
      traceItem({
        prompt_template: { name: 'capital', raw: 'Name the capital of {{country}}.\n', variables: { country: 'France', email: 'ada@example.com' } },
        input: [{ role: 'user', content: 'mail me at ada@example.com', ssn: '123-45-6789' }],
        output: 'card 4111 1111 1111 1111 on file',
        metadata: { secret: 'hunter2', keep: 'visible' },
        user_id: 'u-1', session_id: 's-1', tags: ['prod', 'eu'],
      }),
      { model: 'gpt-4o', tokens: { input: 'many' } },
      { name: 'no model' },
      traceItem({ model: 'claude-3-5-sonnet-20241022', status: 'error', error: 'rate limited for bob@example.com', tokens: { input: 2000, output: 0, cache_read: 1000 } }),
      traceItem({ unknown_field: 1 }),
    ];
    const res = await api.ingest(alpha, { traces: items });
    assert.is(res.status, 202, JSON.stringify(res.body));
    assert.is(res.body.accepted, 2);
    assert.is(res.body.rejected, 3);
    assert.is(res.body.ids.length, 2);
    assert.equal(res.body.errors.map((e: Json) => [e.index, e.code, e.path]), [
      [1, 'VIGIL_ERR_LLM_ITEM_INVALID', 'tokens.input'],
      [2, 'VIGIL_ERR_LLM_ITEM_INVALID', 'model'],
      [4, 'VIGIL_ERR_LLM_ITEM_INVALID', 'unknown_field'],
    ]);
    for (const e of res.body.errors) assert.type(e.message, 'string');
    const [first, second] = await api.waitForTraces(alpha, res.body.ids);
    assert.equal(first.prompt_template.name, 'capital');
    assert.is(first.prompt_template.version, 1);
    assert.match(first.prompt_template.hash, /^[0-9a-f]{64}$/);
    assert.is(first.cost_usd, (1000 * 0.15 + 200 * 0.6) / 1e6);
    assert.is(first.cost_estimated, true);
    const stored = JSON.stringify(first);
    for (const secret of ['ada@example.com', '123-45-6789', 'hunter2', '4111 1111 1111 1111']) assert.not.ok(stored.includes(secret), `${secret} was stored`);
    assert.is(first.metadata.keep, 'visible');
    assert.is(first.prompt_template.variables.country, 'France');
    assert.equal(first.tags, ['prod', 'eu']);
    assert.is(second.status, 'error');
    assert.not.ok(second.error.includes('bob@example.com'));
    // Anthropic: 1,000 fresh input tokens at $3/M and 1,000 cached at $0.30/M.
    assert.is(second.cost_usd, (1000 * 3 + 1000 * 0.3) / 1e6);
  });

  test('prompt versions: whitespace the seed normalises away keeps the version; other text is N+1, with a unified diff', async ({ api }) => {
    const send = (raw: string) => api.ingest(alpha, { traces: [traceItem({ prompt_template: { name: 'summarise', raw } })] });
    const a = await send('Summarise:\n{{text}}\n');
    const b = await send('\r\n\r\nSummarise:  \r\n{{text}}\t\r\n\r\n');
    const c = await send('Summarise briefly:\n{{text}}');
    const [ta, tb, tc] = await api.waitForTraces(alpha, [a.body.ids[0], b.body.ids[0], c.body.ids[0]]);
    assert.is(ta.prompt_template.version, 1);
    assert.is(tb.prompt_template.version, 1);
    assert.is(tb.prompt_template.hash, ta.prompt_template.hash);
    assert.is(tc.prompt_template.version, 2);
    const v2 = await api.get(alpha, '/api/v1/prompt-templates/summarise/versions/2');
    assert.is(v2.status, 200);
    assert.is(v2.body.text, 'Summarise briefly:\n{{text}}');
    assert.is(v2.body.diff, '--- summarise v1\n+++ summarise v2\n@@ -1,2 +1,2 @@\n-Summarise:\n+Summarise briefly:\n {{text}}\n');
    assert.is(v2.body.stats.requests, 1);
    const v1 = await api.get(alpha, '/api/v1/prompt-templates/summarise/versions/1');
    assert.is(v1.body.diff, null);
    assert.is((await api.get(alpha, '/api/v1/prompt-templates/summarise/versions/3')).status, 404);
    const list = await api.get(alpha, '/api/v1/prompt-templates');
    const summarise = list.body.data.find((t: Json) => t.name === 'summarise');
    assert.equal(summarise.versions.map((v: Json) => [v.version, v.requests]), [[1, 2], [2, 1]]);
    assert.is(summarise.versions[0].avg_score, null);
    assert.is(summarise.versions[0].p95_latency_ms, 120);
    assert.type(summarise.versions[0].first_seen, 'string');
    assert.equal(Object.keys(list.body).sort(), ['data', 'limit', 'offset']);
  });

  test('a batch sent again with its ids is stored once; ids in one batch must differ', async ({ api, base }) => {
    const ids = [randomUUID(), randomUUID()];
    const batch = { traces: ids.map((id) => traceItem({ id, name: 'retry-me' })) };
    const first = await api.ingest(alpha, batch);
    assert.equal(first.body.ids, ids);
    await api.waitForTraces(alpha, ids);
    const again = await api.ingest(alpha, batch);
    assert.equal(again.body.ids, ids);
    const dup = await api.ingest(alpha, { traces: [traceItem({ id: ids[0] }), traceItem({ id: ids[0].toUpperCase() })] });
    assert.is(dup.body.rejected, 1);
    assert.is(dup.body.errors[0].code, 'VIGIL_ERR_LLM_ITEM_DUPLICATE_ID');
    await waitFor(async () => (await metric(base, 'vigil_llm_persisted_total{outcome="duplicate"}')) >= 2, { what: 'the resent batch persisted' });
    const listed = await api.get(alpha, '/api/v1/traces?limit=200');
    assert.is(listed.body.data.filter((t: Json) => t.name === 'retry-me').length, 2);
  });

  test('bad input: keys, media types, encodings, sizes, depth, UTF-8 and shape each get their status and code', async ({ api }) => {
    const one = { traces: [traceItem()] };
    const code = (r: { body: Json }) => r.body.error?.code;
    let r = await api.ingest('not-a-key-0123456789', one);
    assert.is(r.status, 401);
    assert.is(code(r), 'VIGIL_ERR_LLM_UNKNOWN_KEY');
    r = await api.ingest(undefined, one);
    assert.is(r.status, 401);
    r = await api.ingest(alpha, one, { headers: { 'content-type': 'text/plain' } });
    assert.is(r.status, 415);
    assert.is(code(r), 'VIGIL_ERR_LLM_CONTENT_TYPE');
    r = await api.ingest(alpha, one, { headers: { 'content-encoding': 'br' } });
    assert.is(r.status, 415);
    r = await api.ingest(alpha, Buffer.from('{"traces": [ nope'));
    assert.is(r.status, 400);
    assert.is(code(r), 'VIGIL_ERR_LLM_BODY');
    r = await api.ingest(alpha, Buffer.from([0x7b, 0x22, 0x74, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]));
    assert.is(r.status, 400);
    assert.match(r.body.error.message, /UTF-8/);
    r = await api.ingest(alpha, [traceItem()]);
    assert.is(r.status, 400);
    r = await api.ingest(alpha, { traces: [], extra: 1 });
    assert.is(r.status, 400);
    r = await api.ingest(alpha, Buffer.from(`{"traces":[{"model":"m","input":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`));
    assert.is(r.status, 400);
    assert.is(code(r), 'VIGIL_ERR_LLM_TOO_DEEP');
    const deepItem = JSON.parse(`{"model":"m","input":${'['.repeat(55)}1${']'.repeat(55)}}`);
    r = await api.ingest(alpha, { traces: [deepItem, traceItem()] });
    assert.is(r.status, 202);
    assert.equal([r.body.accepted, r.body.rejected], [1, 1]);
    r = await api.ingest(alpha, { traces: Array.from({ length: 1001 }, () => ({ model: 'm' })) });
    assert.is(r.status, 413);
    assert.is(code(r), 'VIGIL_ERR_LLM_BATCH_TOO_LARGE');
    // 6 MB: refused on its Content-Length, and, sent chunked, once reading passes the limit; the client gets the 413
    // while still uploading (tests/integration/control-plane-413.test.ts has node:http and hostile clients).
    const sixMb = Buffer.from(JSON.stringify({ traces: [traceItem({ output: 'x'.repeat(6_000_000) })] }));
    r = await api.ingest(alpha, sixMb);
    assert.is(r.status, 413);
    assert.is(code(r), 'VIGIL_ERR_HTTP_BODY_TOO_LARGE');
    r = await api.send('/v1/traces', alpha, { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Blob([sixMb]).stream(), duplex: 'half' } as RequestInit);
    assert.is(r.status, 413);
    assert.is(code(r), 'VIGIL_ERR_HTTP_BODY_TOO_LARGE');
    r = await api.ingest(alpha, Buffer.alloc(0));
    assert.is(r.status, 400);
    // gzip: a normal batch works; a bomb (64 MB of zeros in 64 KB) is refused once inflating passes the limit.
    r = await api.ingest(alpha, one, { gzip: true });
    assert.is(r.status, 202);
    assert.is(r.body.accepted, 1);
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"traces":[{"model":"m","input":"'), Buffer.alloc(64 * 1024 * 1024, 0x61), Buffer.from('"}]}')]));
    assert.ok(bomb.length < 200_000);
    r = await api.ingest(alpha, bomb, { headers: { 'content-encoding': 'gzip' } });
    assert.is(r.status, 413);
    assert.is(code(r), 'VIGIL_ERR_LLM_BODY_TOO_LARGE');
    r = await api.ingest(alpha, Buffer.from('not gzip'), { headers: { 'content-encoding': 'gzip' } });
    assert.is(r.status, 400);
  });

  test('plan limits: batch size is 413, the month\'s items are 429 with Retry-After', async ({ api }) => {
    const tiny = KEYS.TINY_KEY;
    let r = await api.ingest(tiny, { traces: [traceItem(), traceItem(), traceItem(), traceItem()] });
    assert.is(r.status, 413);
    r = await api.ingest(tiny, { traces: [traceItem(), traceItem(), traceItem()] });
    assert.is(r.status, 202);
    r = await api.ingest(tiny, { traces: [traceItem(), traceItem(), traceItem()] });
    assert.is(r.status, 202);
    r = await api.ingest(tiny, { traces: [traceItem()] });
    assert.is(r.status, 429);
    assert.is(r.body.error.code, 'VIGIL_ERR_LLM_MONTHLY_LIMIT');
    const retry = Number(r.headers.get('retry-after'));
    assert.ok(retry > 0 && retry <= 31 * 86_400, `Retry-After ${retry}`);
  });

  test('budget sampling: over its cap a project keeps its sample (here none), counts what it dropped, and stores nothing of it', async ({ api, base }) => {
    const r = await api.ingest(KEYS.BROKE_KEY, { traces: [traceItem(), traceItem(), traceItem()] });
    assert.is(r.status, 202);
    assert.equal([r.body.accepted, r.body.sampled_out, r.body.ids.length], [3, 3, 3]);
    await new Promise((res) => setTimeout(res, 500));
    assert.is((await api.get(KEYS.BROKE_KEY, '/api/v1/traces')).body.data.length, 0);
    assert.is(await metric(base, 'vigil_llm_items_total{project="broke",outcome="sampled_out"}'), 3);
  });

  test('retention: a project\'s traces older than its retention are deleted by the interval job', async ({ api }) => {
    const r = await api.ingest(KEYS.BRIEF_KEY, { traces: [traceItem({ prompt_template: { name: 'short-lived', raw: 'x' } })] });
    assert.is(r.status, 202);
    // Its prompt version outlives it, so the version shows that the trace was stored before it was deleted.
    await waitFor(async () => (await api.get(KEYS.BRIEF_KEY, '/api/v1/prompt-templates')).body.data.length === 1, { what: 'brief\'s trace persisted' });
    await waitFor(async () => {
      const list = await api.get(KEYS.BRIEF_KEY, '/api/v1/traces');
      const templates = await api.get(KEYS.BRIEF_KEY, '/api/v1/prompt-templates');
      return list.body.data.length === 0 && templates.body.data[0].versions[0].requests === 0;
    }, { timeoutMs: 10_000, what: 'brief\'s trace deleted' });
  });

  test('isolation: a key of one project never reads or writes another\'s data, on every endpoint', async ({ api, beta }) => {
    const mine = await api.ingest(alpha, { traces: [traceItem({ prompt_template: { name: 'private', raw: 'alpha only' }, user_id: 'shared', tags: ['t'] })] });
    const [trace] = await api.waitForTraces(alpha, mine.body.ids);
    const theirs = await api.ingest(beta, { traces: [traceItem({ id: trace.id, name: 'beta-owned' })] });
    assert.is(theirs.status, 202);
    await api.waitForTraces(beta, [trace.id]);
    assert.is((await api.get(alpha, `/api/v1/traces/${trace.id}`)).body.name, null, 'beta\'s item with alpha\'s id changed alpha\'s trace');
    assert.is((await api.get(beta, `/api/v1/traces/${trace.id}`)).body.name, 'beta-owned');
    const paths = [
      '/api/v1/traces', '/api/v1/traces?user_id=shared', '/api/v1/traces?tag=t', '/api/v1/traces?template=private',
      '/api/v1/prompt-templates', '/api/v1/eval-results', '/api/v1/alert-events',
    ];
    for (const path of paths) {
      const r = await api.get(beta, path);
      assert.is(r.status, 200, path);
      assert.not.ok(JSON.stringify(r.body).includes('alpha only') || r.body.data.some((t: Json) => t.user_id === 'shared' || t.name === 'private'), path);
    }
    assert.is((await api.get(beta, '/api/v1/prompt-templates/private/versions/1')).status, 404);
    assert.is((await api.get(beta, '/api/v1/gate?template=private')).status, 404);
    const stats = await api.get(beta, '/api/v1/stats?range=24h');
    assert.is(stats.body.requests, 1);
    for (const path of [...paths, '/api/v1/stats', '/api/v1/gate?template=private', `/api/v1/traces/${trace.id}`]) {
      assert.is((await api.get(undefined, path)).status, 401, path);
    }
  });

  test('dashboard: create, list, settings, rotate with a grace period, delete; the config file wins over the store', async ({ api }) => {
    const made = await api.dashboard(TOKEN, '/api/llm/projects', { method: 'POST', body: JSON.stringify({ name: 'gamma', settings: { retention: '7d' } }) });
    assert.is(made.status, 201, JSON.stringify(made.body));
    const key1 = made.body.key;
    assert.match(key1, /^vk_[A-Za-z0-9_-]{43}$/);
    assert.is((await api.dashboard(TOKEN, '/api/llm/projects', { method: 'POST', body: JSON.stringify({ name: 'gamma' }) })).status, 409);
    assert.is((await api.dashboard(TOKEN, '/api/llm/projects', { method: 'POST', body: JSON.stringify({ name: 'bad name!' }) })).status, 400);
    assert.is((await api.ingest(key1, { traces: [traceItem()] })).status, 202);
    const listed = await api.dashboard(TOKEN, '/api/llm/projects');
    const gamma = listed.body.data.find((p: Json) => p.name === 'gamma');
    assert.is(gamma.source, 'store');
    assert.is(gamma.usage.items, 1);
    assert.not.ok(JSON.stringify(listed.body).includes(key1), 'a key was listed');
    assert.is(listed.body.data.find((p: Json) => p.name === 'alpha').source, 'config');

    const rotated = await api.dashboard(TOKEN, '/api/llm/projects/gamma/rotate-key', { method: 'POST', body: JSON.stringify({ grace: '1h' }) });
    assert.is(rotated.status, 200);
    assert.is((await api.ingest(key1, { traces: [traceItem()] })).status, 202, 'the old key works in its grace period');
    assert.is((await api.ingest(rotated.body.key, { traces: [traceItem()] })).status, 202);
    const again = await api.dashboard(TOKEN, '/api/llm/projects/gamma/rotate-key', { method: 'POST', body: JSON.stringify({}) });
    assert.is((await api.ingest(key1, { traces: [traceItem()] })).status, 401, 'a rotated-out key is refused');
    assert.is((await api.ingest(rotated.body.key, { traces: [traceItem()] })).status, 401);
    assert.is((await api.ingest(again.body.key, { traces: [traceItem()] })).status, 202);

    const settings = await api.dashboard(TOKEN, '/api/llm/projects/gamma/settings', { method: 'PUT', body: JSON.stringify({ limits: { items_per_batch: 1 } }) });
    assert.is(settings.status, 200);
    assert.is((await api.ingest(again.body.key, { traces: [traceItem(), traceItem()] })).status, 413);
    assert.is((await api.dashboard(TOKEN, '/api/llm/projects/gamma/settings', { method: 'PUT', body: JSON.stringify({ retention: 'forever' }) })).status, 400);
    assert.is((await api.dashboard(TOKEN, '/api/llm/projects/gamma/settings', { method: 'PUT', body: JSON.stringify({ colour: 'red' }) })).status, 400);
    const fromFile = await api.dashboard(TOKEN, '/api/llm/projects/alpha/settings', { method: 'PUT', body: JSON.stringify({}) });
    assert.is(fromFile.status, 409);
    assert.is(fromFile.body.error.code, 'VIGIL_ERR_LLM_PROJECT_FROM_CONFIG');
    assert.is((await api.dashboard(TOKEN, '/api/llm/projects/alpha', { method: 'DELETE' })).status, 409);
    assert.is((await api.dashboard(TOKEN, '/api/llm/projects/alpha/rotate-key', { method: 'POST', body: '{}' })).status, 409);

    const deleted = await api.dashboard(TOKEN, '/api/llm/projects/gamma', { method: 'DELETE' });
    assert.is(deleted.status, 200);
    assert.is((await api.ingest(again.body.key, { traces: [traceItem()] })).status, 401);
    assert.is((await api.dashboard(TOKEN, '/api/llm/projects/gamma', { method: 'DELETE' })).status, 404);
    assert.is((await api.send('/api/llm/projects', undefined)).status, 401, 'the project API needs the dashboard token');
    assert.is((await api.send('/api/llm/projects', alpha)).status, 401, 'a project key is not a dashboard credential');
  });

  test('stats and the CI gate, through the API and `vigil gate`', async ({ api, base, work }) => {
    const batch = (raw: string, errors: number, latency: number) => ({
      traces: Array.from({ length: 40 }, (_, i) => traceItem({
        prompt_template: { name: 'gated', raw }, latency_ms: latency + i, ...(i < errors ? { status: 'error', error: 'boom' } : {}),
      })),
    });
    // Versions are numbered in the order the persist stage first stores a text, and batches persist concurrently:
    // the first must be stored before the second is sent, or "v two" may become version 1.
    const one = await api.ingest(alpha, batch('v one', 0, 100));
    await api.waitForTraces(alpha, [one.body.ids.at(-1)]);
    const two = await api.ingest(alpha, batch('v two', 8, 100));
    await api.waitForTraces(alpha, [two.body.ids.at(-1)]);
    const stats = await api.get(alpha, '/api/v1/stats?range=1h');
    assert.is(stats.status, 200);
    assert.ok(stats.body.requests >= 80);
    assert.ok(stats.body.errors >= 8);
    // 60 one-minute steps; 61 points when the hour does not start on a minute.
    assert.ok(stats.body.series.length === 60 || stats.body.series.length === 61, `${stats.body.series.length} points`);
    assert.is(stats.body.series.reduce((n: number, p: Json) => n + p.requests, 0), stats.body.requests);
    assert.ok(stats.body.latency_ms.p50 <= stats.body.latency_ms.p95 && stats.body.latency_ms.p95 <= stats.body.latency_ms.p99);
    // Each step has the P95 and P99 of its own calls (one step: the range's), and input and output tokens apart.
    const busy = stats.body.series.filter((p: Json) => p.requests > 0);
    for (const p of busy) assert.ok(p.p95_latency_ms !== null && p.p95_latency_ms <= p.p99_latency_ms, JSON.stringify(p));
    if (busy.length === 1) assert.equal([busy[0].p95_latency_ms, busy[0].p99_latency_ms], [stats.body.latency_ms.p95, stats.body.latency_ms.p99]);
    else assert.ok(Math.max(...busy.map((p: Json) => p.p99_latency_ms)) >= stats.body.latency_ms.p95);
    assert.is(stats.body.series.reduce((n: number, p: Json) => n + p.input_tokens, 0), stats.body.tokens.input);
    assert.is(stats.body.series.reduce((n: number, p: Json) => n + p.output_tokens, 0), stats.body.tokens.output);
    assert.ok(stats.body.tokens.input > 0 && stats.body.tokens.output > 0);
    assert.is(stats.body.eval_score_avg, null);
    assert.is((await api.get(alpha, '/api/v1/stats?range=2d')).status, 400);

    let gate = await api.get(alpha, '/api/v1/gate?template=gated');
    assert.is(gate.status, 200);
    assert.equal([gate.body.pass, gate.body.baseline.version, gate.body.candidate.version, gate.body.candidate.samples], [false, 1, 2, 40]);
    const errorCheck = gate.body.checks.find((c: Json) => c.metric === 'max_error_rate_increase');
    assert.equal([errorCheck.baseline, errorCheck.candidate, errorCheck.pass], [0, 0.2, false]);
    assert.is(gate.body.reason, 'error rate +20 points, limit +2 points');
    // One threshold given keeps the defaults of the others: the error-rate rise still fails the gate.
    gate = await api.get(alpha, '/api/v1/gate?template=gated&max_error_rate=0.5');
    assert.equal([gate.body.pass, gate.body.reason], [false, 'error rate +20 points, limit +2 points']);
    assert.equal(gate.body.checks.map((c: Json) => c.metric), ['max_p95_increase_pct', 'max_error_rate', 'max_error_rate_increase']);
    gate = await api.get(alpha, '/api/v1/gate?template=gated&max_error_rate=0.5&max_error_rate_increase=0.25&max_p95_increase_pct=5');
    assert.is(gate.body.pass, true, gate.body.reason);
    gate = await api.get(alpha, '/api/v1/gate?template=gated&max_error_rate=0.5&min_samples=100');
    assert.is(gate.body.pass, null);
    assert.match(gate.body.reason, /too few samples/);
    gate = await api.get(alpha, '/api/v1/gate?template=gated&baseline=2&candidate=1&max_error_rate=0.1');
    assert.is(gate.body.pass, true);
    assert.is((await api.get(alpha, '/api/v1/gate?template=gated&candidate=9')).status, 400);
    assert.is((await api.get(alpha, '/api/v1/gate')).status, 400);

    const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runVigil(['gate', '--url', base, '--template', 'gated', ...args], { cwd: work.path, env });
    let r = await cli(['--key', alpha]);
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stdout, /FAIL/);
    assert.match(r.stdout, /\nerror rate \+20 points, limit \+2 points\n/);
    assert.match(r.stdout, /\nP95 latency +\d+ ms +\d+ ms +\+0 % +\+20 % +pass\n/, 'figures with their units');
    assert.match(r.stdout, /\nerror rate +0 % +20 % +\+20 points +\+2 points +FAIL\n/);
    r = await cli(['--max-error-rate', '0.5'], { VIGIL_PROJECT_KEY: alpha });
    assert.is(r.code, 1, 'the default error-rate rise is still checked');
    r = await cli(['--max-error-rate', '0.5', '--max-error-rate-increase', '0.25'], { VIGIL_PROJECT_KEY: alpha });
    assert.is(r.code, 0, r.stderr + r.stdout);
    r = await cli(['--key', alpha, '--max-error-rate', '0.5', '--min-samples', '100', '--markdown']);
    assert.is(r.code, 3);
    assert.match(r.stdout, /^### ⚠️ Vigil gate: insufficient/);
    assert.match(r.stdout, /\| Check \| Baseline \|/);
    r = await cli(['--key', alpha, '--max-error-rate', '0.5', '--min-samples', '100', '--allow-insufficient']);
    assert.is(r.code, 0);
    r = await cli(['--key', 'wrong-key-0123456789']);
    assert.is(r.code, 2);
    assert.match(r.stderr, /401/);
  });

  test('reload (SIGHUP): a project added to the file works at once, its key from the environment; a persist change waits for a restart', async ({ api, file, vigil }) => {
    const { readFileSync, writeFileSync } = await import('node:fs');
    const original = readFileSync(file, 'utf8');
    const delta = KEYS.ALPHA_KEY.replace('alpha', 'delta');
    assert.is((await api.ingest(delta, { traces: [traceItem()] })).status, 401);
    writeFileSync(file, original.replace('  projects:\n', `  projects:\n    - { name: delta, key: ${delta} }\n`));
    vigil.proc.kill('SIGHUP');
    await waitFor(async () => (await api.ingest(delta, { traces: [traceItem()] })).status === 202, { what: 'delta\'s key accepted after the reload' });
    writeFileSync(file, original.replace('persist: { backoff: 50ms }', 'persist: { backoff: 60ms }'));
    vigil.proc.kill('SIGHUP');
    await waitFor(() => /llm\.persist changed: restart/.test(vigil.stderr()), { what: 'the reload refused' });
    writeFileSync(file, original);
  });

  return test;
}

/** The value of one metric series on /metrics (0 when absent). */
async function metric(base: string, series: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const withPostgres = await postgresAvailable('llm-ingest');
define('sqlite').run();
if (withPostgres) define('postgres').run();
