// Issue 30, part 4: evals are fair between projects in a real `vigil run`. One project's backlog of thousands of eval
// jobs does not hold another project's eval behind it (the queue takes projects in turn), and one project's slow
// judge cannot hold every slot of the eval queue (a project's share, `project_concurrency`, leaves one to others).
// The backlog on both stores; the slow judge on SQLite.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUUID } from 'node:crypto';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { llmClient, traceItem } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const TOKEN = 'fair-evals-token';
const KEYS = { alpha: 'fair-alpha-key-0123456789', beta: 'fair-beta-key-0123456789', gamma: 'fair-gamma-key-0123456789' };
const BACKLOG_TRACES = 2000;
const ALPHA_DEFINITIONS = 3;

interface Ctx { base: string; vigil?: VigilProcess; fake?: FakeOpenAI; storage?: string }
const work = tempDir('vigil-evals-fair-');
const schema = await postgresAvailable('evaluators-fairness') ? await freshPostgresSchema('evaluators_fairness') : undefined;

async function metric(base: string, series: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}
const evalsOk = (base: string) => metric(base, 'vigil_evaluators_results_total{type="custom_function",status="ok"}');

/** Starts `vigil run` with the three projects and these lines of the `evaluators:` section. */
async function start(ctx: Ctx, name: string, evaluators: string[]): Promise<ReturnType<typeof llmClient>> {
  const port = await freePort();
  ctx.base = `http://127.0.0.1:${port}`;
  const file = writeConfig(work.path, `data_dir: ${work.path}/${name}
${ctx.storage ? `storage: { url: "${ctx.storage}" }\n` : ''}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  persist: { backoff: 100ms }
  projects:
    - { name: alpha, key: ${KEYS.alpha} }
    - { name: beta, key: ${KEYS.beta} }
    - { name: gamma, key: ${KEYS.gamma} }
evaluators:
${evaluators.join('\n')}
`, `${name}.yaml`);
  ctx.vigil = await startVigil(file, ctx.base, { cwd: work.path });
  return llmClient(ctx.base);
}

/** Beta's one result, once it exists. */
async function betaResult(api: ReturnType<typeof llmClient>, traceId: string) {
  const r = await api.get(KEYS.beta, `/api/v1/eval-results?eval_definition_id=beta-check&trace_id=${traceId}`);
  return r.status === 200 && r.body.data.length === 1 ? r.body.data[0] : null;
}

function define(backend: 'sqlite' | 'postgres') {
  const test = suite<Ctx>(`evaluators: fair between projects (${backend})`);
  test.before((ctx) => { ctx.storage = backend === 'postgres' ? schema?.url : undefined; });
  test.after.each(async (ctx) => {
    await ctx.vigil?.stop('SIGKILL');
    await ctx.fake?.close();
    ctx.vigil = undefined;
    ctx.fake = undefined;
  });

  test('behind another project\'s backlog of 6,000 eval jobs, a project\'s eval result comes within seconds', async (ctx) => {
    const alphaDefinitions = Array.from({ length: ALPHA_DEFINITIONS }, (_, i) =>
      `    - { id: alpha-${i}, project: alpha, name: Alpha ${i}, type: custom_function, settings: { source: "export default (t) => (t.output ? ${(i + 1) / 10} : 0)" } }`).join('\n');
    const api = await start(ctx, `backlog-${backend}`, [
      '  project_rates: { alpha: 6000000 }',
      '  definitions:',
      alphaDefinitions,
      '    - { id: beta-check, project: beta, name: Beta, type: custom_function, settings: { source: "export default () => 1" } }',
    ]);
    for (let b = 0; b < BACKLOG_TRACES / 500; b++) {
      const traces = Array.from({ length: 500 }, () => traceItem({ id: randomUUID() }));
      assert.is((await api.ingest(KEYS.alpha, { traces })).status, 202);
    }
    const backlog = BACKLOG_TRACES * ALPHA_DEFINITIONS;
    await waitFor(async () => (await metric(ctx.base, 'vigil_evaluators_jobs_enqueued_total')) >= backlog, { timeoutMs: 30_000, what: `${backlog} eval jobs of alpha enqueued` });

    const betaTrace = randomUUID();
    assert.is((await api.ingest(KEYS.beta, { traces: [traceItem({ id: betaTrace })] })).status, 202);
    const sent = Date.now();
    // Claims in turn take beta's job at the next claim; first come, first served would run it after alpha's backlog.
    const result = await waitFor(() => betaResult(api, betaTrace), { timeoutMs: 30_000, intervalMs: 100, what: 'beta\'s eval result' });
    const waited = Date.now() - sent;
    const alphaDone = (await evalsOk(ctx.base)) - 1;
    assert.is(result.score, 1);
    assert.ok(alphaDone < backlog / 2, `beta's result came after ${alphaDone} of alpha's ${backlog} evals (${waited} ms): it waited for the backlog`);
  });

  if (backend === 'sqlite') {
    test('one project\'s slow judge holds its share of the eval slots, not all of them: another project\'s eval still runs', async (ctx) => {
      ctx.fake = await startFakeOpenAI({ delayMs: 0, chat: () => ({ hang: true }) });
      const api = await start(ctx, 'slow-judge', [
        '  concurrency: 4',
        '  project_rates: { gamma: 6000000 }',
        `  providers: { judge: { base_url: "${ctx.fake.baseURL}", model: gpt-4o-mini, api_key: sk-fake, timeout: 60s } }`,
        '  definitions:',
        '    - { id: gamma-judge, project: gamma, name: Gamma, type: llm_judge, settings: { provider: judge, rubric: "Is {{output}} right?" } }',
        '    - { id: beta-check, project: beta, name: Beta, type: custom_function, settings: { source: "export default () => 1" } }',
      ]);
      const traces = Array.from({ length: 12 }, () => traceItem({ id: randomUUID() }));
      assert.is((await api.ingest(KEYS.gamma, { traces })).status, 202);
      const judged = () => ctx.fake!.requests.filter((r) => r.path === '/v1/chat/completions').length;
      await waitFor(() => judged() >= 3, { timeoutMs: 20_000, what: 'gamma\'s judge called three times' });
      await new Promise((r) => setTimeout(r, 1000));
      assert.is(judged(), 3, 'gamma\'s hanging judge calls hold three of the four slots (project_concurrency defaults to concurrency - 1)');

      const betaTrace = randomUUID();
      assert.is((await api.ingest(KEYS.beta, { traces: [traceItem({ id: betaTrace })] })).status, 202);
      const result = await waitFor(() => betaResult(api, betaTrace), { timeoutMs: 20_000, intervalMs: 100, what: 'beta\'s eval result beside gamma\'s hanging judge' });
      assert.is(result.score, 1);
      assert.is(judged(), 3, 'gamma took no more slots meanwhile');
    });
  }
  return test;
}

define('sqlite').run();
if (schema) define('postgres').run();
// uvu runs the suites one after another; this last one cleans up after both.
const cleanup = suite('evaluators: fair between projects, cleanup');
cleanup('drops the schema and the temporary files', async () => {
  await schema?.drop();
  work.cleanup();
});
cleanup.run();
