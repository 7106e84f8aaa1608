// Issue 30, B9 and B10: values past any real LLM call, through a real `vigil run` on SQLite and PostgreSQL. Costs of
// 1e308 made a project's stats read null, and times far ahead stayed first in every list. Every ingest path (native,
// OTLP, Langfuse) refuses what is past the trace item's bounds, item by item and naming why, and the stats of items
// at the bounds stay exact numbers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { llmClient, traceItem, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const KEYS = {
  native: 'bounds-native-key-0123456789',
  otlp: 'bounds-otlp-key-0123456789',
  langfuse: 'bounds-langfuse-key-0123456789',
  stats: 'bounds-stats-key-0123456789',
};
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

interface Ctx { vigil: VigilProcess; api: ReturnType<typeof llmClient>; base: string }

function define(backend: 'sqlite' | 'postgres') {
  const test = suite<Ctx>(`llm value bounds (${backend})`);
  const work = tempDir('vigil-llm-bounds-');
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | undefined;

  test.before(async (ctx) => {
    const port = await freePort();
    ctx.base = `http://127.0.0.1:${port}`;
    if (backend === 'postgres') schema = await freshPostgresSchema('llm_value_bounds');
    const file = writeConfig(work.path, `data_dir: ${work.path}/data
${schema ? `storage: { url: "${schema.url}" }\n` : ''}control_plane: { listen: 127.0.0.1:${port}, token: bounds-token }
llm:
  persist: { backoff: 50ms }
  projects:
${Object.entries(KEYS).map(([name, key]) => `    - { name: ${name}, key: ${key} }`).join('\n')}
`);
    ctx.vigil = await startVigil(file, ctx.base, { cwd: work.path });
    ctx.api = llmClient(ctx.base);
  });

  test.after(async (ctx) => {
    await ctx.vigil?.stop('SIGKILL');
    await schema?.drop();
    work.cleanup();
  });

  const listed = async (api: Ctx['api'], key: string) => (await api.get(key, '/api/v1/traces?limit=200')).body.data as Json[];

  test('native POST /v1/traces: each value past its bound is a per-item error with its path; the rest is stored', async ({ api }) => {
    const now = Date.now();
    const items = [
      traceItem({ name: 'ok', start_time: iso(now), cost_usd: 1e6, latency_ms: 86_400_000, tokens: { input: 1e9, output: 1e9, total: 1e9 } }),
      traceItem({ cost_usd: 1e308 }),
      traceItem({ latency_ms: 86_400_001 }),
      traceItem({ tokens: { input: 1e300 } }),
      traceItem({ tokens: { output: 9e15 } }),
      traceItem({ start_time: '9999-12-31T23:59:59Z' }),
      traceItem({ start_time: iso(now + HOUR) }),
      traceItem({ start_time: iso(1_700_000_000) }),
    ];
    const res = await api.ingest(KEYS.native, { traces: items });
    assert.is(res.status, 202, JSON.stringify(res.body));
    assert.equal([res.body.accepted, res.body.rejected], [1, 7]);
    assert.equal(res.body.errors.map((e: Json) => [e.index, e.code, e.path]), [
      [1, 'VIGIL_ERR_LLM_ITEM_INVALID', 'cost_usd'],
      [2, 'VIGIL_ERR_LLM_ITEM_INVALID', 'latency_ms'],
      [3, 'VIGIL_ERR_LLM_ITEM_INVALID', 'tokens.input'],
      [4, 'VIGIL_ERR_LLM_ITEM_INVALID', 'tokens.output'],
      [5, 'VIGIL_ERR_LLM_ITEM_INVALID', 'start_time'],
      [6, 'VIGIL_ERR_LLM_ITEM_INVALID', 'start_time'],
      [7, 'VIGIL_ERR_LLM_ITEM_INVALID', 'start_time'],
    ]);
    assert.match(res.body.errors[0].message, /cost_usd must be <= 1000000/);
    assert.match(res.body.errors[4].message, /ahead of the server's clock/);
    assert.match(res.body.errors[6].message, /before 2000-01-01/);
    const [stored] = await api.waitForTraces(KEYS.native, res.body.ids);
    assert.equal([stored.name, stored.cost_usd, stored.latency_ms], ['ok', 1e6, 86_400_000]);
    await new Promise((r) => setTimeout(r, 300));
    assert.is((await listed(api, KEYS.native)).length, 1);
  });

  test('OTLP: a span starting or ending in the future, or with counts past the bounds, is refused in partial_success with why', async ({ api }) => {
    const traceId = randomUUID().replace(/-/g, '');
    const ns = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
    const now = Date.now();
    const attr = (key: string, value: string | number) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });
    const span = (spanId: string, name: string, start: number, end: number, extra: Json[] = []) => ({
      traceId, spanId, name, kind: 3, startTimeUnixNano: ns(start), endTimeUnixNano: ns(end), status: {},
      attributes: [attr('gen_ai.system', 'openai'), attr('gen_ai.request.model', 'gpt-4o-mini'), attr('gen_ai.usage.input_tokens', 21), ...extra],
    });
    const body = { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'test' }, spans: [
      span('1111111111111111', 'chat now', now - 1000, now),
      span('2222222222222222', 'chat in an hour', now + HOUR, now + HOUR + 1000),
      span('3333333333333333', 'chat in 2500', Date.UTC(2500, 0, 1), Date.UTC(2500, 0, 1) + 1000),
      span('4444444444444444', 'chat of two days', now - 48 * HOUR, now),
      span('5555555555555555', 'chat of a trillion tokens', now - 1000, now, [attr('gen_ai.usage.output_tokens', 1e12)]),
      span('6666666666666666', 'chat of 1e308 USD', now - 1000, now, [attr('langfuse.observation.cost_details', JSON.stringify({ total: 1e308 }))]),
    ] }] }] };
    const res = await api.send('/v1/otlp/traces', KEYS.otlp, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(Number(res.body.partialSuccess.rejectedSpans), 5);
    const message = res.body.partialSuccess.errorMessage as string;
    assert.match(message, /span "chat in an hour" \(trace [0-9a-f]+, span 2222222222222222\): VIGIL_ERR_LLM_ITEM_INVALID: start_time \S+ is more than 5 minutes ahead/);
    assert.match(message, /span "chat in 2500" [^;]*start_time 2500-01-01T00:00:00\.000Z is more than 5 minutes ahead/);
    assert.match(message, /span "chat of two days" [^;]*latency_ms must be <= 86400000/);
    assert.match(message, /span "chat of a trillion tokens" [^;]*tokens\.output must be <= 1000000000/);
    assert.match(message, /span "chat of 1e308 USD" [^;]*cost_usd must be <= 1000000/);
    const stored = await waitFor(async () => {
      const list = await listed(api, KEYS.otlp);
      return list.length ? list : null;
    }, { what: 'the one good span stored' });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await listed(api, KEYS.otlp)).map((t) => t.name), ['chat now']);
    assert.is(stored![0].name, 'chat now');
  });

  test('Langfuse ingestion: events with times ahead, or token counts and costs past the bounds, are 207 errors; nothing of them is stored', async ({ api, base }) => {
    const now = Date.now();
    const generation = (id: string, body: Json, timestamp = iso(now)) => ({
      id: `ev-${id}`, type: 'generation-create', timestamp,
      body: { id, traceId: 'lf-bounds', name: id, model: 'gpt-4o-mini', startTime: iso(now - 2000), endTime: iso(now - 1000), usage: { input: 3, output: 1 }, ...body },
    });
    const batch = [
      generation('good', {}),
      generation('future-start', { startTime: iso(now + HOUR), endTime: iso(now + HOUR + 1) }),
      generation('future-stamp', {}, '9999-12-31T23:59:59.000Z'),
      generation('huge-cost', { costDetails: { total: 1e308 } }),
      generation('huge-usage', { usage: { input: 1e12, output: 1 } }),
      { id: 'ev-score', type: 'score-create', timestamp: iso(now), body: { id: 'sc', traceId: 'lf-bounds', name: 'q', value: 1, timestamp: '9999-01-01T00:00:00Z' } },
    ];
    const res = await fetch(`${base}/api/public/ingestion`, {
      method: 'POST', body: JSON.stringify({ batch }),
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`pk:${KEYS.langfuse}`).toString('base64')}` },
    });
    assert.is(res.status, 207);
    const answer = await res.json() as { successes: Json[]; errors: Json[] };
    assert.equal(answer.successes.map((s) => s.id), ['ev-good']);
    const errors = Object.fromEntries(answer.errors.map((e) => [e.id, e.message]));
    assert.equal(Object.keys(errors).sort(), ['ev-future-stamp', 'ev-future-start', 'ev-huge-cost', 'ev-huge-usage', 'ev-score']);
    assert.match(errors['ev-future-start'], /^body\.startTime \S+ is more than 5 minutes ahead/);
    assert.match(errors['ev-future-stamp'], /^timestamp 9999-12-31T23:59:59\.000Z is more than 5 minutes ahead/);
    assert.match(errors['ev-huge-cost'], /^body\.costDetails: a cost of 1e\+308 USD/);
    assert.match(errors['ev-huge-usage'], /^body\.usage: 1000000000000 input tokens/);
    assert.match(errors['ev-score'], /^body\.timestamp 9999-01-01T00:00:00\.000Z/);
    const stored = await waitFor(async () => {
      const list = await listed(api, KEYS.langfuse);
      return list.length ? list : null;
    }, { what: 'the good generation stored' });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await listed(api, KEYS.langfuse)).map((t) => t.name), ['good']);
    assert.is(stored![0].name, 'good');
  });

  test('stats: a cost of 1e308 is refused, and 500 calls at every bound sum to exact numbers in the stats and the prompt versions', async ({ api }) => {
    const refused = await api.ingest(KEYS.stats, { traces: [traceItem({ cost_usd: 1e308 }), traceItem({ cost_usd: 1e308 })] });
    assert.equal([refused.status, refused.body.accepted, refused.body.rejected], [202, 0, 2]);
    const n = 500;
    const atBounds = Array.from({ length: n }, () => traceItem({
      prompt_template: { name: 'bounded', raw: 'Say {{x}}' }, cost_usd: 1e6, latency_ms: 86_400_000, tokens: { input: 1e9, output: 1e9, total: 1e9 },
    }));
    const res = await api.ingest(KEYS.stats, { traces: atBounds });
    assert.equal([res.status, res.body.accepted], [202, n], JSON.stringify(res.body.errors?.[0]));
    await api.waitForTraces(KEYS.stats, [res.body.ids.at(-1)]);
    const stats = await waitFor(async () => {
      const r = await api.get(KEYS.stats, '/api/v1/stats?range=1h');
      return r.body.requests === n ? r.body : null;
    }, { what: `${n} calls in the stats` });
    assert.equal([stats.cost_usd, stats.tokens, stats.latency_ms.p99], [n * 1e6, { input: n * 1e9, output: n * 1e9, total: n * 1e9 }, 86_400_000]);
    assert.is(stats.series.reduce((sum: number, p: Json) => sum + p.cost_usd, 0), n * 1e6);
    assert.is(stats.series.reduce((sum: number, p: Json) => sum + p.tokens, 0), n * 1e9);
    const templates = await api.get(KEYS.stats, '/api/v1/prompt-templates');
    assert.is(templates.status, 200, JSON.stringify(templates.body));
    const version = templates.body.data.find((t: Json) => t.name === 'bounded').versions[0];
    assert.equal([version.requests, version.cost_usd, version.avg_cost_usd, version.input_tokens, version.total_tokens, version.p99_latency_ms],
      [n, n * 1e6, 1e6, n * 1e9, n * 1e9, 86_400_000]);
  });

  return test;
}

define('sqlite').run();
if (await postgresAvailable('llm-value-bounds')) define('postgres').run();
