// Issue 23 ("the traces, generations and scores arrive"): a real `vigil run`, both stores, and the real `langfuse` v3
// SDK sending a trace, a generation and two scores. The evaluators plugin keeps the scores (once, even when the SDK's
// very batch is sent again), lists them under the sending project's key only, shows them on the trace's dashboard
// route, and never lets them into eval averages: a Langfuse score of 7 next to an eval score of 0.5 changes nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Langfuse } from 'langfuse';
import { llmClient, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'scores-dashboard-token';
const KEY = 'scores-project-key-0123456789';
const OTHER = 'scores-other-key-0123456789';
const BRIEF = 'scores-brief-key-0123456789';

interface Ctx { api: ReturnType<typeof llmClient>; base: string; vigil: VigilProcess }

/**
 * The SDK's ingestion requests, as sent, by the server's origin: the SDK uses the global fetch, so the test sees its
 * bodies and can resend them. One wrapper for the file, as uvu runs both stores' suites at once.
 */
const ingested = new Map<string, string[]>();
const realFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(String(input));
  if (url.pathname === '/api/public/ingestion' && typeof init?.body === 'string') {
    ingested.set(url.origin, [...(ingested.get(url.origin) ?? []), init.body]);
  }
  return realFetch(input, init);
};

function define(backend: 'sqlite' | 'postgres') {
  const test = suite<Ctx>(`evaluators: scores sent with traces (${backend})`);
  const work = tempDir('vigil-scores-');
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | undefined;

  test.before(async (ctx) => {
    const port = await freePort();
    ctx.base = `http://127.0.0.1:${port}`;
    if (backend === 'postgres') schema = await freshPostgresSchema('evaluators_scores');
    const config = writeConfig(work.path, `data_dir: ${work.path}/data
${schema ? `storage: { url: "${schema.url}" }\n` : ''}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  persist: { backoff: 100ms }
  retention_interval: 200ms
  projects:
    - { name: shop, key: ${KEY} }
    - { name: other, key: ${OTHER} }
    - { name: brief, key: ${BRIEF}, retention: 1h }
evaluators:
  rate_per_minute: 6000
  definitions:
    - { id: half, project: shop, name: Half, type: custom_function, settings: { source: "export default () => 0.5" } }
`);
    ctx.vigil = await startVigil(config, ctx.base, { cwd: work.path });
    ctx.api = llmClient(ctx.base);
  });

  test.after(async (ctx) => {
    await ctx.vigil?.stop('SIGKILL');
    await schema?.drop();
    work.cleanup();
  });

  test('the SDK\'s scores are kept once (its batch resent too), listed for its project only, on the trace\'s page, and outside eval averages', async (ctx) => {
    const langfuse = new Langfuse({ publicKey: 'pk-lf-shop', secretKey: KEY, baseUrl: ctx.base, flushAt: 100 });
    const trace = langfuse.trace({ name: 'support' });
    const generation = trace.generation({ name: 'answer', model: 'gpt-4o-mini', input: 'Where is my parcel?' });
    generation.end({ output: 'On its way.', usageDetails: { input: 5, output: 3 } });
    langfuse.score({ traceId: trace.id, observationId: generation.id, name: 'accuracy', value: 7, comment: 'reviewed by ada@example.com' });
    trace.score({ name: 'tone', value: 'friendly', dataType: 'CATEGORICAL' });
    await langfuse.shutdownAsync();
    const sdkBodies = [...(ingested.get(new URL(ctx.base).origin) ?? [])];
    assert.ok(sdkBodies.some((b) => b.includes('score-create')), 'the SDK sent its scores');

    const [stored] = await ctx.api.waitForTraces(KEY, [generation.id]);
    const listed = async (key: string, query = '') => {
      const r = await ctx.api.get(key, `/api/v1/scores${query}`);
      assert.is(r.status, 200, JSON.stringify(r.body));
      return r.body as { data: Json[]; limit: number; offset: number };
    };
    const two = await waitFor(async () => ((await listed(KEY)).data.length === 2 ? listed(KEY) : null), { what: 'two scores kept' });
    assert.equal([two!.limit, two!.offset], [50, 0]);

    // The SDK's own batches once more, as a retry would send them: 207, and still two scores.
    for (const body of sdkBodies) {
      const again = await realFetch(`${ctx.base}/api/public/ingestion`, {
        method: 'POST', body,
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`pk-lf-shop:${KEY}`).toString('base64')}` },
      });
      assert.is(again.status, 207);
    }
    const metricsSeen = await waitFor(async () => {
      const text = await (await fetch(`${ctx.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      // The evaluators plugin keeps scores apart from the llm plugin's count (on the bus, after it): wait for its
      // count of the first two too.
      return /vigil_llm_langfuse_scores_total\S* 4\b/.test(text) && /vigil_evaluators_scores_kept_total\S* 2\b/.test(text) ? text : null;
    }, { what: 'the resent scores received, and the first two kept' });
    assert.match(metricsSeen!, /vigil_evaluators_scores_kept_total\S* 2\b/);
    const byName = Object.fromEntries((await listed(KEY)).data.map((s) => [s.name, s]));
    assert.equal(Object.keys(byName).sort(), ['accuracy', 'tone']);

    const accuracy = byName.accuracy;
    assert.equal([accuracy.value, accuracy.data_type, accuracy.source, accuracy.trace_id, accuracy.sender_trace_id, accuracy.observation_id],
      [7, 'NUMERIC', 'langfuse', stored.id, trace.id, generation.id]);
    assert.match(accuracy.comment, /reviewed by/);
    assert.not.match(accuracy.comment, /ada@example\.com/);
    const tone = byName.tone;
    assert.equal([tone.value, tone.data_type, tone.trace_id, tone.sender_trace_id, tone.observation_id, tone.comment],
      ['friendly', 'CATEGORICAL', null, trace.id, null, null]);
    assert.ok(Date.parse(tone.created_at) <= Date.parse(tone.received_at));

    // Filters: the trace item, the name, since.
    assert.equal((await listed(KEY, `?trace_id=${stored.id}`)).data.map((s) => s.name), ['accuracy']);
    assert.equal((await listed(KEY, `?sender_trace_id=${trace.id}&name=tone`)).data.map((s) => s.name), ['tone']);
    assert.equal((await listed(KEY, '?since=1h')).data.length, 2);
    assert.equal((await listed(KEY, `?since=${Date.now() + 60_000}`)).data, []);
    assert.equal((await listed(KEY, '?limit=1000')).limit, 200);
    const badSince = await ctx.api.get(KEY, '/api/v1/scores?since=yesterday');
    assert.equal([badSince.status, badSince.body.error?.code], [400, 'VIGIL_ERR_EVALUATORS_SINCE']);

    // Isolation: another project's key sees none of them; no key is refused.
    assert.equal((await listed(OTHER)).data, []);
    assert.equal((await listed(OTHER, `?trace_id=${stored.id}`)).data, []);
    assert.is((await ctx.api.get(undefined, '/api/v1/scores')).status, 401);
    assert.is((await ctx.api.get('not-a-key-0123456789', '/api/v1/scores')).status, 401);

    // The trace's page: the score naming its generation and the trace-level one, newest first.
    const page = await ctx.api.dashboard(TOKEN, `/api/llm/projects/shop/traces/${stored.id}/scores`);
    assert.is(page.status, 200);
    assert.equal(page.body.data.map((s: Json) => s.name).sort(), ['accuracy', 'tone']);
    assert.equal((await ctx.api.dashboard(TOKEN, `/api/llm/projects/other/traces/${stored.id}/scores`)).body.data, []);

    // Eval scores: the one result of the definition (0.5), the Langfuse 7 in no average.
    await waitFor(async () => ((await ctx.api.get(KEY, '/api/v1/eval-results')).body.data.length === 1 ? true : null), { what: 'the eval result' });
    const results = await ctx.api.get(KEY, '/api/v1/eval-results?limit=200');
    assert.equal(results.body.data.map((r: Json) => [r.eval_definition_id, r.score]), [['half', 0.5]]);
    const stats = await ctx.api.get(KEY, '/api/v1/stats?range=1h');
    assert.equal([stats.body.eval_score_avg, stats.body.eval.score_avg, stats.body.eval.samples], [0.5, 0.5, 1]);
    assert.equal(stats.body.eval.by_definition.map((d: Json) => [d.eval_definition_id, d.avg_score, d.samples]), [['half', 0.5, 1]]);
  });

  test('the llm plugin\'s retention deletes sent scores past the project\'s retention (by the score\'s time)', async (ctx) => {
    const event = (id: string, at: number) => ({
      id: `ev-${id}`, type: 'score-create', timestamp: new Date(at).toISOString(),
      body: { id, traceId: 'lf-brief', name: id, value: 1, timestamp: new Date(at).toISOString() },
    });
    const sent = await fetch(`${ctx.base}/api/public/ingestion`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`pk:${BRIEF}`).toString('base64')}` },
      body: JSON.stringify({ batch: [event('two-hours-old', Date.now() - 2 * 3_600_000), event('fresh', Date.now())] }),
    });
    assert.is(sent.status, 207);
    // Both were kept (the first test kept two), and the next sweep deletes the one older than the hour.
    await waitFor(async () => {
      const text = await (await fetch(`${ctx.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      return /vigil_evaluators_scores_kept_total\S* 4\b/.test(text) ? true : null;
    }, { what: 'both scores kept' });
    const names = await waitFor(async () => {
      const r = await ctx.api.get(BRIEF, '/api/v1/scores');
      return r.body.data.length === 1 ? r.body.data.map((x: Json) => x.name) : null;
    }, { what: 'the old score deleted' });
    assert.equal(names, ['fresh']);
    assert.is((await ctx.api.get(KEY, '/api/v1/scores')).body.data.length, 2, 'another project\'s scores are in its own retention');
  });

  test('score ids are per project: the same id from two projects is kept for each, and each key and trace page reads its own', async (ctx) => {
    const id = '5d3e1c0a-7b1f-4c1e-9a55-2f7f0c9e0b01';
    const send = (secret: string, value: number) => fetch(`${ctx.base}/api/public/ingestion`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`pk:${secret}`).toString('base64')}` },
      body: JSON.stringify({ batch: [{ id: `ev-${value}`, type: 'score-create', timestamp: new Date().toISOString(),
        body: { id, traceId: 'lf-shared', observationId: 'obs-shared', name: 'shared', value } }] }),
    });
    assert.is((await send(KEY, 1)).status, 207);
    assert.is((await send(OTHER, 2)).status, 207);
    const own = async (key: string) => waitFor(async () => {
      const r = await ctx.api.get(key, '/api/v1/scores?name=shared');
      return r.body.data.length ? r.body.data as Json[] : null;
    }, { what: 'the shared id kept' });
    const shop = (await own(KEY))!;
    const other = (await own(OTHER))!;
    assert.equal(shop.map((s) => [s.id, s.value]), [[id, 1]]);
    assert.equal(other.map((s) => [s.id, s.value]), [[id, 2]]);
    const item = shop[0].trace_id as string;
    assert.is(other[0].trace_id, item, 'both name the same observation id');
    const pageOf = async (project: string) => (await ctx.api.dashboard(TOKEN, `/api/llm/projects/${project}/traces/${item}/scores`)).body.data.map((s: Json) => [s.id, s.value]);
    assert.equal(await pageOf('shop'), [[id, 1]]);
    assert.equal(await pageOf('other'), [[id, 2]]);
  });

  return test;
}

define('sqlite').run();
if (await postgresAvailable('evaluators-scores')) define('postgres').run();
