// Issue 24: the eval stage in a real `vigil run`, against a local OpenAI-compatible judge (tests/support/fake-openai.ts)
// that answers by the trace's output: a score, a text without the tool call, a score of 150, 429 with Retry-After
// then a score, a 500 then a score, a hang. Definitions come from the config file and from the dashboard API; results
// come back through the public API and feed stats, prompt-version scores and the gate. Both stores.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { startFakeOpenAI, type FakeOpenAI, type ScriptedAnswer } from '../support/fake-openai.js';
import { llmClient, traceItem, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'evals-dashboard-token';
const KEY = 'evals-project-key-0123456789';
const JUDGE_KEY = 'sk-judge-secret-never-shown';

/** The judge's answer, by the text of the output it grades; `attempts` holds when each request came, per output. */
function judgeAnswers(attempts: Map<string, number[]>) {
  return (body: any): ScriptedAnswer | undefined => {
    const prompt: string = body.messages?.at(-1)?.content ?? '';
    const output = [...prompt.matchAll(/assistant: (\S+)/g)].at(-1)?.[1] ?? '';
    const times = attempts.get(output) ?? [];
    times.push(Date.now());
    attempts.set(output, times);
    const n = times.length;
    switch (output) {
      case 'good': return { score: 80, reasoning: 'Accurate.' };
      case 'poor': return { score: 20, reasoning: 'Wrong.' };
      case 'chatty': return { text: 'I would rate this 7 out of 10.' };
      case 'overrated': return { score: 150, reasoning: 'Beyond perfect.' };
      case 'limited': return n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { score: 60 };
      case 'flaky': return n === 1 ? { status: 500 } : { score: 70 };
      case 'hangs': return { hang: true };
      default: return { score: 50 };
    }
  };
}

interface Ctx { api: ReturnType<typeof llmClient>; base: string; fake: FakeOpenAI; attempts: Map<string, number[]>; vigil: VigilProcess; config(extra?: string): string }

function define(backend: 'sqlite' | 'postgres') {
  const test = suite<Ctx>(`evaluators (${backend})`);
  const work = tempDir('vigil-evals-');
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | undefined;

  test.before(async (ctx) => {
    ctx.attempts = new Map();
    ctx.fake = await startFakeOpenAI({ delayMs: 0, chat: judgeAnswers(ctx.attempts) });
    const port = await freePort();
    ctx.base = `http://127.0.0.1:${port}`;
    if (backend === 'postgres') schema = await freshPostgresSchema('evaluators');
    ctx.config = (extra = '') => writeConfig(work.path, `data_dir: ${work.path}/data
${schema ? `storage: { url: "${schema.url}" }\n` : ''}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  persist: { backoff: 100ms }
  projects:
    - { name: shop, key: ${KEY} }
evaluators:
  rate_per_minute: 6000
  backoff: 200ms
  max_attempts: 3
  providers:
    judge: { base_url: "${ctx.fake.baseURL}", model: gpt-4o-mini, api_key_env: EVALS_JUDGE_KEY, timeout: 800ms }
  definitions:
    - id: mentions-paris
      project: shop
      name: Mentions Paris
      type: custom_function
      settings:
        source: |
          export default (trace) => {
            const text = JSON.stringify(trace.output);
            if (text.includes('loops')) for (;;) {}
            return { score: text.includes('Paris') ? 1 : 0, reason: 'looked for Paris' };
          }
${extra}`);
    ctx.vigil = await startVigil(ctx.config(), ctx.base, { cwd: work.path, env: { EVALS_JUDGE_KEY: JUDGE_KEY } });
    ctx.api = llmClient(ctx.base);
  });

  test.after(async (ctx) => {
    await ctx.vigil?.stop('SIGKILL');
    await ctx.fake?.close();
    await schema?.drop();
    work.cleanup();
  });

  const dash = (ctx: Ctx, path: string, init: RequestInit = {}) => ctx.api.dashboard(TOKEN, path, init);
  const post = (ctx: Ctx, path: string, body: unknown, method = 'POST') => dash(ctx, path, { method, body: JSON.stringify(body) });

  test('providers are listed without their keys; the config file\'s definition is there and cannot be changed', async (ctx) => {
    const providers = await dash(ctx, '/api/llm/eval-providers');
    assert.is(providers.status, 200);
    assert.equal(providers.body.data, [{ name: 'judge', base_url: ctx.fake.baseURL, model: 'gpt-4o-mini', has_key: true, key_env: 'EVALS_JUDGE_KEY' }]);
    const list = await dash(ctx, '/api/llm/projects/shop/evals');
    assert.is(list.status, 200);
    assert.equal(list.body.data.map((d: Json) => [d.id, d.source, d.type, d.rate_per_minute]), [['mentions-paris', 'config', 'custom_function', 6000]]);
    const put = await post(ctx, '/api/llm/projects/shop/evals/mentions-paris', { name: 'x', type: 'custom_function', settings: { source: 'export default () => 1' } }, 'PUT');
    assert.is(put.status, 409);
    assert.is(put.body.error.code, 'VIGIL_ERR_EVALUATORS_DEFINITION_FROM_CONFIG');
    assert.is((await dash(ctx, '/api/llm/projects/shop/evals/mentions-paris', { method: 'DELETE' })).status, 409);
    assert.is((await dash(ctx, '/api/llm/projects/nope/evals')).status, 404);
  });

  test('definitions are checked when saved: wrong settings, unknown providers, broken or failing functions', async (ctx) => {
    const cases: [unknown, number, string, RegExp][] = [
      [{ name: 'j', type: 'llm_judge', settings: { provider: 'judge', rubric: 'x', golden: ['a'] } }, 400, 'VIGIL_ERR_EVALUATORS_DEFINITION', /settings\.golden: llm_judge definitions take no golden/],
      [{ name: 'j', type: 'llm_judge', settings: { provider: 'openai', rubric: 'x' } }, 400, 'VIGIL_ERR_EVALUATORS_PROVIDER', /provider "openai" is not declared .*declares judge/],
      [{ name: 'j', type: 'llm_judge', settings: { provider: 'judge', rubric: 'Grade {{answer}}' } }, 400, 'VIGIL_ERR_EVALUATORS_DEFINITION', /unknown placeholder \{\{answer\}\}/],
      [{ name: 'v', type: 'custom_function', versions: { min: 2 }, settings: { source: 'export default () => 1' } }, 400, 'VIGIL_ERR_EVALUATORS_DEFINITION', /a version range needs a template/],
      [{ name: 'f', type: 'custom_function', settings: { source: 'export default (t) => {' } }, 400, 'VIGIL_ERR_EVALUATORS_FUNCTION', /failed with compile: /],
      [{ name: 'f', type: 'custom_function', settings: { source: 'export default () => { for (;;) {} }' } }, 400, 'VIGIL_ERR_EVALUATORS_FUNCTION', /failed with timeout: /],
      [{ name: 'f', type: 'custom_function', settings: { source: 'export default () => require("fs")' } }, 400, 'VIGIL_ERR_EVALUATORS_FUNCTION', /failed with forbidden: /],
      [{ name: 'f', type: 'custom_function', settings: { source: 'export default () => 3' } }, 400, 'VIGIL_ERR_EVALUATORS_FUNCTION', /outside 0\.\.1/],
      [{ name: 'x', type: 'llm_judge', sample_rate: 2, settings: {} }, 400, 'VIGIL_ERR_HTTP_INVALID_BODY', /sample_rate/],
      [{ name: 'x', type: 'other', settings: {} }, 400, 'VIGIL_ERR_HTTP_INVALID_BODY', /type/],
    ];
    for (const [body, status, code, message] of cases) {
      const r = await post(ctx, '/api/llm/projects/shop/evals', body);
      assert.is(r.status, status, JSON.stringify(body));
      assert.is(r.body.error.code, code, JSON.stringify(r.body));
      assert.match(r.body.error.message, message);
    }
  });

  test('a working function is saved with its trial on the sample trace; a judge definition with its rubric', async (ctx) => {
    const fn = await post(ctx, '/api/llm/projects/shop/evals', {
      id: 'short', name: 'Short answer', type: 'custom_function', sample_rate: 1,
      settings: { source: 'export default (t) => ({ score: JSON.stringify(t.output).length < 200 ? 1 : 0.5, reason: "length" })' },
    });
    assert.is(fn.status, 201, JSON.stringify(fn.body));
    assert.equal([fn.body.validation.status, fn.body.validation.score, fn.body.validation.sample_trace, fn.body.validation.reason], ['ok', 1, true, 'length']);
    const judge = await post(ctx, '/api/llm/projects/shop/evals', {
      id: 'judge', name: 'Judge', type: 'llm_judge', sample_rate: 1, template: 'answer',
      settings: { provider: 'judge', rubric: 'Question: {{input}}\nAnswer: {{output}}\nGrade the answer.' },
    });
    assert.is(judge.status, 201, JSON.stringify(judge.body));
    assert.is(judge.body.validation, null);
    assert.is(judge.body.definition.settings.provider, 'judge');
    assert.not.ok(JSON.stringify(judge.body).includes(JUDGE_KEY));
    const again = await post(ctx, '/api/llm/projects/shop/evals', { id: 'judge', name: 'x', type: 'custom_function', settings: { source: 'export default () => 1' } });
    assert.is(again.status, 409);
    assert.is(again.body.error.code, 'VIGIL_ERR_EVALUATORS_DEFINITION_EXISTS');
  });

  test('an edit is checked like a creation: a working function replaces the old with its trial; a broken one changes nothing', async (ctx) => {
    const path = '/api/llm/projects/shop/evals/short';
    const before = (await dash(ctx, path)).body;
    const source = 'export default (t) => ({ score: JSON.stringify(t.output).length < 300 ? 1 : 0.5, reason: "length v2" })';
    const edited = await post(ctx, path, { name: 'Short answer v2', type: 'custom_function', sample_rate: 1, settings: { source } }, 'PUT');
    assert.is(edited.status, 200, JSON.stringify(edited.body));
    assert.equal([edited.body.definition.name, edited.body.definition.settings.source, edited.body.definition.source], ['Short answer v2', source, 'store']);
    assert.equal([edited.body.validation.status, edited.body.validation.score, edited.body.validation.reason], ['ok', 1, 'length v2']);
    const broken = await post(ctx, path, { name: 'Broken', type: 'custom_function', settings: { source: 'export default (t) => {' } }, 'PUT');
    assert.equal([broken.status, broken.body.error.code], [400, 'VIGIL_ERR_EVALUATORS_FUNCTION']);
    assert.match(broken.body.error.message, /failed with compile: /);
    const renamed = await post(ctx, path, { id: 'other', name: 'x', type: 'custom_function', settings: { source } }, 'PUT');
    assert.equal([renamed.status, renamed.body.error.code], [400, 'VIGIL_ERR_EVALUATORS_DEFINITION']);
    const missing = await post(ctx, '/api/llm/projects/shop/evals/no-such-eval', { name: 'x', type: 'custom_function', settings: { source } }, 'PUT');
    assert.is(missing.status, 404);
    const after = (await dash(ctx, path)).body;
    assert.equal([after.name, after.settings.source, after.created_at], ['Short answer v2', source, before.created_at]);
  });

  test('traces are judged: scores, failed results with reasons, retries after 429 and 500, a hang given up; costs kept apart', async (ctx) => {
    const outputs = ['good', 'poor', 'chatty', 'overrated', 'limited', 'flaky', 'hangs', 'Paris-is-the-capital', 'loops'];
    const items = outputs.map((o) => traceItem({
      id: randomUUID(), cost_usd: 0.001,
      prompt_template: { name: 'answer', raw: 'Answer: {{q}}' },
      output: { role: 'assistant', content: o },
    }));
    const res = await ctx.api.ingest(KEY, { traces: items });
    assert.is(res.status, 202);
    const ids: string[] = res.body.ids;
    const byOutput = new Map(outputs.map((o, i) => [o, ids[i]]));
    const resultOf = async (definition: string, output: string): Promise<Json> => waitFor(async () => {
      const r = await ctx.api.get(KEY, `/api/v1/eval-results?eval_definition_id=${definition}&trace_id=${byOutput.get(output)}`);
      return r.body.data?.[0];
    }, { timeoutMs: 20_000, what: `${definition} result of "${output}"` });

    const good = await resultOf('judge', 'good');
    assert.equal({ score: good.score, status: good.status, reason: good.reason, method: good.method, cost: good.cost },
      { score: 0.8, status: 'ok', reason: 'Accurate.', method: 'llm_judge', cost: { tokens_in: 21, tokens_out: 7, usd: (21 * 0.15 + 7 * 0.6) / 1e6 } });
    assert.ok(ctx.fake.requests.every((r) => r.headers.authorization === `Bearer ${JUDGE_KEY}`), 'the key from the environment reaches the judge');
    assert.equal(Object.keys(good).sort(), ['cost', 'created_at', 'details', 'eval_definition_id', 'id', 'latency_ms', 'method', 'model', 'reason', 'score', 'status', 'trace_id']);
    assert.type(good.latency_ms, 'number');
    const chatty = await resultOf('judge', 'chatty');
    assert.equal([chatty.status, chatty.score], ['failed', null]);
    assert.match(chatty.reason, /without calling submit_score: I would rate this 7 out of 10\./);
    const over = await resultOf('judge', 'overrated');
    assert.equal([over.status, over.score], ['failed', null]);
    assert.match(over.reason, /score 150 is outside 0\.\.100/);
    const limited = await resultOf('judge', 'limited');
    assert.equal([limited.status, limited.score], ['ok', 0.6]);
    const calls = ctx.attempts.get('limited')!;
    assert.is(calls.length, 2);
    assert.ok(calls[1] - calls[0] >= 950, `retried ${calls[1] - calls[0]} ms after the 429 (Retry-After: 1)`);
    assert.is((await resultOf('judge', 'flaky')).score, 0.7);
    const hangs = await resultOf('judge', 'hangs');
    assert.is(hangs.status, 'failed');
    assert.match(hangs.reason, /did not answer within 800 ms \(attempt 3 of 3: given up\)/);
    assert.is(ctx.attempts.get('hangs')!.length, 3);

    // The config file's function scores every trace; one that loops is a timeout, and costs that one eval.
    assert.is((await resultOf('mentions-paris', 'Paris-is-the-capital')).score, 1);
    assert.is((await resultOf('mentions-paris', 'good')).score, 0);
    const loops = await resultOf('mentions-paris', 'loops');
    assert.equal([loops.status, loops.details.kind], ['failed', 'timeout']);
    assert.match(loops.reason, /^timeout: /);

    // Stats: the application's cost is its own; the evals' cost and score are beside it.
    await waitFor(async () => (await ctx.api.get(KEY, '/api/v1/eval-results?eval_definition_id=judge&limit=200')).body.data.length === outputs.length,
      { timeoutMs: 20_000, what: 'every judge result' });
    const stats = await ctx.api.get(KEY, '/api/v1/stats?range=1h');
    assert.is(stats.status, 200);
    assert.ok(Math.abs(stats.body.cost_usd - outputs.length * 0.001) < 1e-12, `app cost ${stats.body.cost_usd}`);
    const judged = [0.8, 0.2, 0.6, 0.7, 0.5, 0.5];
    const judgeStats = stats.body.eval.by_definition.find((d: Json) => d.eval_definition_id === 'judge');
    assert.equal({ samples: judgeStats.samples, failed: judgeStats.failed, method: judgeStats.method }, { samples: judged.length, failed: 3, method: 'llm_judge' });
    assert.ok(Math.abs(judgeStats.avg_score - judged.reduce((a, b) => a + b) / judged.length) < 1e-9);
    assert.ok(stats.body.eval.cost.tokens_in >= 21 * 8, `eval tokens ${stats.body.eval.cost.tokens_in}`);
    assert.ok(stats.body.eval.cost.usd > 0);
    assert.type(stats.body.eval_score_avg, 'number');
    assert.ok(stats.body.series.some((s: Json) => typeof s.avg_score === 'number'));
    const onlyJudge = await ctx.api.get(KEY, '/api/v1/stats?range=1h&eval_definition_id=judge');
    assert.ok(Math.abs(onlyJudge.body.eval_score_avg - judgeStats.avg_score) < 1e-9);

    // Prompt versions and the gate read the same scores. The version's scores list every definition that scored it:
    // the config file's function and `short` score all nine traces through the eval queue, apart from the judge, so
    // wait for all their results (else the API and dashboard reads below may see different counts).
    const traceIds = new Set(ids);
    for (const definition of ['mentions-paris', 'short']) {
      await waitFor(async () => ((await ctx.api.get(KEY, `/api/v1/eval-results?eval_definition_id=${definition}&limit=200`)).body.data as Json[])
        .filter((r) => traceIds.has(r.trace_id)).length === outputs.length, { timeoutMs: 20_000, what: `every ${definition} result` });
    }
    const templates = await ctx.api.get(KEY, '/api/v1/prompt-templates?eval_definition_id=judge');
    const v1 = templates.body.data.find((t: Json) => t.name === 'answer').versions[0];
    assert.ok(Math.abs(v1.avg_score - judgeStats.avg_score) < 1e-9, `v1 avg_score ${v1.avg_score}`);
    const version = await ctx.api.get(KEY, '/api/v1/prompt-templates/answer/versions/1');
    assert.equal(version.body.eval_scores.map((d: Json) => d.eval_definition_id).sort(), ['judge', 'mentions-paris', 'short']);
    // The dashboard's twins run the same query functions: the same scores, and eval_definition_id taken alike.
    const dashStats = await dash(ctx, '/api/llm/projects/shop/stats?range=1h&eval_definition_id=judge');
    assert.is(dashStats.status, 200);
    assert.ok(Math.abs(dashStats.body.eval_score_avg - judgeStats.avg_score) < 1e-9, `dashboard stats ${dashStats.body.eval_score_avg}`);
    const dashTemplates = await dash(ctx, '/api/llm/projects/shop/prompt-templates?eval_definition_id=judge');
    assert.ok(Math.abs(dashTemplates.body.data.find((t: Json) => t.name === 'answer').versions[0].avg_score - judgeStats.avg_score) < 1e-9);
    const dashVersion = await dash(ctx, '/api/llm/projects/shop/prompt-templates/answer/versions/1');
    assert.equal(dashVersion.body.eval_scores, version.body.eval_scores);
    const dashboardList = await dash(ctx, '/api/llm/projects/shop/evals');
    const judgeRow = dashboardList.body.data.find((d: Json) => d.id === 'judge');
    assert.equal([judgeRow.stats.results, judgeRow.stats.failed], [outputs.length, 3]);
    assert.ok(judgeRow.stats.cost_usd > 0);
  });

  test('the gate checks min_score and max_score_drop against a new version', async (ctx) => {
    const send = (raw: string, output: string, n: number) => ctx.api.ingest(KEY, {
      traces: Array.from({ length: n }, () => traceItem({ id: randomUUID(), prompt_template: { name: 'gated', raw }, output: { role: 'assistant', content: output } })),
    });
    await send('Version one', 'good', 3);
    await waitFor(async () => (await ctx.api.get(KEY, '/api/v1/prompt-templates/gated/versions/1?eval_definition_id=mentions-paris')).body.stats?.eval_samples === 3, { timeoutMs: 20_000, what: 'v1 scored' });
    await send('Version two', 'Paris', 3);
    await waitFor(async () => (await ctx.api.get(KEY, '/api/v1/prompt-templates/gated/versions/2?eval_definition_id=mentions-paris')).body.stats?.eval_samples === 3, { timeoutMs: 20_000, what: 'v2 scored' });
    const gate = await ctx.api.get(KEY, '/api/v1/gate?template=gated&min_samples=3&eval_definition_id=mentions-paris&min_score=0.9&max_score_drop=0.1');
    assert.is(gate.status, 200);
    // The score checks asked for, beside the default latency and error-rate checks.
    const checks = gate.body.checks.map((c: Json) => [c.metric, c.baseline, c.candidate, c.pass]);
    assert.equal(checks.slice(0, 2), [['min_score', 0, 1, true], ['max_score_drop', 0, 1, true]]);
    assert.equal(checks.slice(2).map((c: unknown[]) => c[0]), ['max_p95_increase_pct', 'max_error_rate_increase']);
    assert.is(gate.body.pass, true);
    const back = await ctx.api.get(KEY, '/api/v1/gate?template=gated&min_samples=3&eval_definition_id=mentions-paris&baseline=2&candidate=1&max_score_drop=0.1');
    assert.is(back.body.pass, false);
    assert.is(back.body.reason, 'eval score −1.00, limit −0.10');
    const dashGate = await dash(ctx, '/api/llm/projects/shop/gate?template=gated&min_samples=3&eval_definition_id=mentions-paris&min_score=0.9&max_score_drop=0.1');
    assert.equal(dashGate.body, gate.body);
  });

  test('re-running a definition over the last N traces, sampling aside; results replace earlier ones', async (ctx) => {
    const fresh = await post(ctx, '/api/llm/projects/shop/evals', { id: 'rare', name: 'Rare', type: 'custom_function', sample_rate: 0, settings: { source: 'export default () => 0.5' } });
    assert.is(fresh.status, 201);
    const rerun = await post(ctx, '/api/llm/projects/shop/evals/rare/rerun', { last: 4, template: 'gated' });
    assert.is(rerun.status, 200);
    assert.equal([rerun.body.traces, rerun.body.enqueued, rerun.body.template], [4, 4, 'gated']);
    await waitFor(async () => (await ctx.api.get(KEY, '/api/v1/eval-results?eval_definition_id=rare')).body.data.length === 4, { timeoutMs: 20_000, what: '4 re-run results' });
    const rerunAt = Date.now();
    await post(ctx, '/api/llm/projects/shop/evals/rare/rerun', { last: 4, template: 'gated' });
    // The re-run's jobs run on the eval queue, whenever it takes them: wait until all four results are the re-run's.
    // A job of it still running at the DELETE below (it read the definition before) would write its result after
    // the DELETE removed the results.
    await waitFor(async () => ((await ctx.api.get(KEY, '/api/v1/eval-results?eval_definition_id=rare')).body.data as Json[])
      .filter((r) => Date.parse(r.created_at) >= rerunAt).length === 4, { timeoutMs: 20_000, what: 'the 4 results of the second re-run' });
    await new Promise((r) => setTimeout(r, 1500));
    assert.is((await ctx.api.get(KEY, '/api/v1/eval-results?eval_definition_id=rare')).body.data.length, 4, 'one result per (definition, trace)');
    const deleted = await dash(ctx, '/api/llm/projects/shop/evals/rare', { method: 'DELETE' });
    assert.equal(deleted.body, { deleted: 'rare', results: 4 });
    assert.is((await ctx.api.get(KEY, '/api/v1/eval-results?eval_definition_id=rare')).body.data.length, 0);
  });

  test('golden sets per template: set, listed, used as {{expected}}, removed', async (ctx) => {
    const put = await post(ctx, '/api/llm/projects/shop/golden-sets/capital', { outputs: ['Paris is the capital of France.'] }, 'PUT');
    assert.is(put.status, 200, JSON.stringify(put.body));
    assert.equal((await dash(ctx, '/api/llm/projects/shop/golden-sets')).body.data.map((g: Json) => [g.template, g.outputs]), [['capital', ['Paris is the capital of France.']]]);
    assert.is((await post(ctx, '/api/llm/projects/shop/golden-sets/capital', { outputs: [] }, 'PUT')).status, 400);
    // A judge's {{expected}} is the trace's template's golden set when the trace has no metadata.expected.
    const res = await ctx.api.ingest(KEY, { traces: [traceItem({ id: randomUUID(), prompt_template: { name: 'capital', raw: 'Capital of {{c}}?' }, output: { role: 'assistant', content: 'good' } })] });
    await ctx.api.waitForTraces(KEY, res.body.ids);
    const before = ctx.fake.requests.length;
    const tried = await post(ctx, `/api/llm/projects/shop/evals/test?trace_id=${res.body.ids[0]}`, { name: 't', type: 'llm_judge', settings: { provider: 'judge', rubric: 'Expected: {{expected}} Got: {{output}}' } });
    assert.equal([tried.status, tried.body.score], [200, 0.8], JSON.stringify(tried.body));
    assert.match(ctx.fake.requests[before].body.messages.at(-1).content, /^Expected: Paris is the capital of France\. Got: assistant: good$/);
    assert.equal((await dash(ctx, '/api/llm/projects/shop/golden-sets/capital', { method: 'DELETE' })).body, { deleted: 'capital' });
    const again = await dash(ctx, '/api/llm/projects/shop/golden-sets/capital', { method: 'DELETE' });
    assert.equal([again.status, again.body.error.code], [404, 'VIGIL_ERR_EVALUATORS_GOLDEN_SET_NOT_FOUND']);
  });

  test('a live test of a definition on a chosen trace, without saving it; the public list pages and filters', async (ctx) => {
    const [latest] = (await ctx.api.get(KEY, '/api/v1/traces?limit=1')).body.data;
    const tried = await post(ctx, `/api/llm/projects/shop/evals/test?trace_id=${latest.id}`, { name: 't', type: 'custom_function', settings: { source: 'export default (t) => t.id.length / 100' } });
    assert.is(tried.status, 200, JSON.stringify(tried.body));
    assert.equal([tried.body.trace_id, tried.body.score, tried.body.status], [latest.id, 0.36, 'ok']);
    assert.is((await post(ctx, `/api/llm/projects/shop/evals/test?trace_id=${randomUUID()}`, { name: 't', type: 'custom_function', settings: { source: 'export default () => 1' } })).status, 404);
    const page = await ctx.api.get(KEY, '/api/v1/eval-results?limit=2&offset=1&status=ok');
    assert.equal([page.body.limit, page.body.offset, page.body.data.length], [2, 1, 2]);
    assert.ok(page.body.data.every((r: Json) => r.status === 'ok'));
    assert.is((await ctx.api.get(KEY, '/api/v1/eval-results?since=bogus')).status, 400);
    assert.is((await ctx.api.get('wrong-key-0123456789', '/api/v1/eval-results')).status, 401);
    const metrics = await (await fetch(`${ctx.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    assert.match(metrics, /vigil_evaluators_results_total\{type="llm_judge",status="failed"\} 3/);
    assert.match(metrics, /vigil_sandbox_failures_total\{sandbox="js",reason="timeout"\} \d/);
  });

  test('a failed call without output is skipped by default and scored with on_missing_output: score; averages leave skipped results out', async (ctx) => {
    const source = 'export default (t) => ({ score: JSON.stringify(t.output ?? "").length < 40 ? 1 : 0, reason: "length" })';
    const skips = await post(ctx, '/api/llm/projects/shop/evals', { id: 'len', name: 'Length', type: 'custom_function', template: 'failing', settings: { source } });
    const scores = await post(ctx, '/api/llm/projects/shop/evals', { id: 'len-all', name: 'Length, all', type: 'custom_function', template: 'failing', on_missing_output: 'score', settings: { source } });
    assert.equal([skips.status, skips.body.definition.on_missing_output, scores.status, scores.body.definition.on_missing_output], [201, 'skip', 201, 'score']);
    const prompt = { name: 'failing', raw: 'Answer {{q}}' };
    const items = [
      traceItem({ id: randomUUID(), prompt_template: prompt, output: { role: 'assistant', content: 'short' } }),
      traceItem({ id: randomUUID(), prompt_template: prompt, output: { role: 'assistant', content: 'a long answer that goes on and on and on' } }),
      ...[1, 2].map(() => traceItem({ id: randomUUID(), prompt_template: prompt, status: 'error', error: '429 Rate limit reached', output: undefined, tokens: undefined })),
    ];
    const res = await ctx.api.ingest(KEY, { traces: items });
    assert.is(res.status, 202, JSON.stringify(res.body));
    const failedIds: string[] = res.body.ids.slice(2);
    const results = async (definition: string): Promise<Json[]> => (await waitFor(async () => {
      const list = (await ctx.api.get(KEY, `/api/v1/eval-results?eval_definition_id=${definition}`)).body.data as Json[];
      return list.length === 4 ? list : undefined;
    }, { timeoutMs: 20_000, what: `4 results of ${definition}` }))!;
    const skipped = (await results('len')).filter((r) => failedIds.includes(r.trace_id));
    assert.equal(skipped.map((r) => [r.status, r.score, r.reason, r.details.kind]), [['skipped', null, 'no output', 'no_output'], ['skipped', null, 'no output', 'no_output']]);
    const scored = (await results('len-all')).filter((r) => failedIds.includes(r.trace_id));
    assert.equal(scored.map((r) => [r.status, r.score]), [['ok', 1], ['ok', 1]], 'scored, a failed call passes a length check: what skip is for');

    const stats = await ctx.api.get(KEY, '/api/v1/stats?range=1h&eval_definition_id=len');
    const len = stats.body.eval.by_definition[0];
    assert.equal([stats.body.eval_score_avg, len.avg_score, len.samples, len.failed, len.skipped], [0.5, 0.5, 2, 0, 2]);
    assert.is((await ctx.api.get(KEY, '/api/v1/stats?range=1h&eval_definition_id=len-all')).body.eval_score_avg, 0.75);
    // Prompt versions and the gate read the same summary.
    const version = await ctx.api.get(KEY, '/api/v1/prompt-templates/failing/versions/1?eval_definition_id=len');
    assert.equal([version.body.stats.avg_score, version.body.stats.eval_samples], [0.5, 2]);
    const listed = (await dash(ctx, '/api/llm/projects/shop/evals')).body.data.find((d: Json) => d.id === 'len');
    assert.equal([listed.stats.results, listed.stats.skipped, listed.stats.failed, listed.stats.avg_score], [4, 2, 0, 0.5]);
    const onlySkipped = await dash(ctx, '/api/llm/projects/shop/eval-results?eval_definition_id=len&status=skipped');
    assert.equal(onlySkipped.body.data.map((r: Json) => r.trace_id).sort(), [...failedIds].sort());
    // A trial on a trace without output says so, and a function saved against it is tried on the sample trace.
    const tried = await post(ctx, `/api/llm/projects/shop/evals/test?trace_id=${failedIds[0]}`, { name: 't', type: 'custom_function', settings: { source } });
    assert.equal([tried.body.status, tried.body.score, tried.body.reason], ['skipped', null, 'no output']);
    const saved = await post(ctx, `/api/llm/projects/shop/evals?trace_id=${failedIds[0]}`, { id: 'len-2', name: 'x', type: 'custom_function', template: 'failing', settings: { source } });
    assert.equal([saved.status, saved.body.validation.status, saved.body.validation.sample_trace], [201, 'ok', true]);
    const bad = await post(ctx, '/api/llm/projects/shop/evals', { name: 'x', type: 'custom_function', on_missing_output: 'ignore', settings: { source } });
    assert.equal([bad.status, bad.body.error.code], [400, 'VIGIL_ERR_HTTP_INVALID_BODY']);
  });

  test('a reload (SIGHUP) applies the file\'s definitions; one the file drops stays, managed by the API', async (ctx) => {
    const listed = async () => new Map<string, Json>((await dash(ctx, '/api/llm/projects/shop/evals')).body.data.map((d: Json) => [d.id, d]));
    ctx.config(`    - { id: from-reload, project: shop, name: From reload, type: custom_function, sample_rate: 0.5, on_missing_output: score, settings: { source: "export default () => 1" } }
`);
    ctx.vigil.proc.kill('SIGHUP');
    const added = await waitFor(async () => (await listed()).get('from-reload'), { what: 'the reloaded definition' });
    assert.equal([added!.source, added!.sample_rate, added!.on_missing_output], ['config', 0.5, 'score']);
    assert.is((await dash(ctx, '/api/llm/projects/shop/evals/from-reload', { method: 'DELETE' })).status, 409);
    ctx.config();
    ctx.vigil.proc.kill('SIGHUP');
    await waitFor(async () => (await listed()).get('from-reload')?.source === 'store', { what: 'the dropped definition demoted' });
    assert.is((await dash(ctx, '/api/llm/projects/shop/evals/from-reload', { method: 'DELETE' })).status, 200);
    assert.is((await listed()).get('mentions-paris')?.source, 'config');
  });

  return test;
}

define('sqlite').run();
if (await postgresAvailable('evaluators')) define('postgres').run();
