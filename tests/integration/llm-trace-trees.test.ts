// Trace trees from the real instrumentations, on SQLite and PostgreSQL: an agent step with a lookup, two LLM calls
// and a tool call between them, made under OpenLLMetry (@traceloop/instrumentation-openai, parents with
// @traceloop/ai-semantic-conventions' names) and OpenInference (@arizeai/openinference-instrumentation-openai,
// parents with openinference-core's traceAgent / traceTool / withSpan), exported one span per request (children
// before parents, the lookup before any LLM call); and the `langfuse` v3 SDK's nested spans, generations and an
// event, sent one event per batch. The tree is read back through GET /api/v1/traces/:id/tree and its dashboard twin.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Langfuse } from 'langfuse';
import { llmClient, type Json } from '../support/llm-client.js';
import { freePort, waitFor } from '../support/net.js';
import { freshPostgresSchema, postgresAvailable } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';
import { startFakeOpenAI, type FakeOpenAI } from './support/fake-openai.js';

const CHILD = fileURLToPath(new URL('./support/agent-tree-client.js', import.meta.url));
const TOKEN = 'trace-trees-token';
const KEYS = { traceloop: 'tree-traceloop-key-0123456789', openinference: 'tree-openinference-key-0123456789', langfuse: 'tree-langfuse-key-0123456789' } as const;
const EMAIL = 'alice@example.com';
/** The app's own pace between steps: Langfuse stamps times to the millisecond, and siblings are ordered by them. */
const step = () => new Promise((r) => setTimeout(r, 3));

interface Ctx { vigil: VigilProcess; base: string; fake: FakeOpenAI; api: ReturnType<typeof llmClient> }

async function runChild(client: 'traceloop' | 'openinference', ctx: Ctx): Promise<void> {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [CHILD], {
      env: { ...process.env, CLIENT: client, OPENAI_BASE_URL: ctx.fake.url, OTLP_URL: `${ctx.base}/v1/otlp/traces`, OTLP_KEY: KEYS[client] },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (c) => resolve({ code: c, output: out }));
  });
  assert.is(code, 0, `client ${client} failed:\n${output}`);
}

/** The project's stored LLM calls (exactly `count`), then the tree of the first once it holds `spans` nodes. */
async function treeOf(ctx: Ctx, key: string, count: number, spans: number): Promise<{ items: Json[]; tree: Json }> {
  const items = await waitFor(async () => {
    const data = (await ctx.api.get(key, '/api/v1/traces?limit=50')).body.data as Json[];
    return data.length >= count ? data : null;
  }, { what: `${count} LLM calls stored`, timeoutMs: 20_000 }) as Json[];
  assert.is(items.length, count, `stored: ${JSON.stringify(items.map((t) => t.name))}`);
  const tree = await waitFor(async () => {
    const r = await ctx.api.get(key, `/api/v1/traces/${items[0].id}/tree`);
    return r.status === 200 && r.body.nodes.length >= spans ? r.body : null;
  }, { what: `a tree of ${spans} spans`, timeoutMs: 20_000 }) as Json;
  assert.is(tree.nodes.length, spans, JSON.stringify(tree.nodes.map((n: Json) => [n.name, n.kind, n.depth])));
  return { items, tree };
}

const shape = (tree: Json) => tree.nodes.map((n: Json) => [n.depth, n.kind]);
const listed = (tree: Json) => JSON.stringify(tree.nodes.map((n: Json) => [n.depth, n.kind, n.name, n.offset_ms, n.duration_ms]));

/** What every tree must hold: the LLM calls linked to their items, figures rolled up, the e-mail never stored. */
function assertCommon(tree: Json, items: Json[]): void {
  const llm = tree.nodes.filter((n: Json) => n.kind === 'llm');
  assert.is(llm.length, 2);
  assert.equal(new Set(llm.map((n: Json) => n.item_id)), new Set(items.map((i) => i.id)));
  for (const n of llm) {
    assert.ok(n.model.startsWith('gpt-4o-mini'), n.model);
    assert.equal(n.tokens, { input: 21, output: 7, total: 28 });
    assert.ok(n.cost_usd > 0);
  }
  assert.is(tree.total.llm_calls, 2);
  assert.equal(tree.total.tokens, { input: 42, output: 14, total: 56 });
  assert.ok(Math.abs(tree.total.cost_usd - llm[0].cost_usd - llm[1].cost_usd) < 1e-9);
  assert.is(tree.nodes[0].rollup.llm_calls, 2, 'the root rolls up both calls');
  assert.is(tree.held, false);
  assert.is(tree.dropped_spans, 0);
  assert.ok(tree.total.latency_ms >= tree.nodes[0].duration_ms - 0.01);
  const text = JSON.stringify(tree);
  assert.not.ok(text.includes(EMAIL), 'the e-mail address is masked in every span');
  assert.ok(text.includes('[REDACTED'), 'masked where the question was recorded');
  for (const n of tree.nodes.slice(1)) assert.ok(n.offset_ms >= 0 && n.offset_ms <= tree.total.latency_ms + 0.01);
}

function define(backend: 'sqlite' | 'postgres') {
  const test = suite<Ctx>(`llm: trace trees from real instrumentations (${backend})`);
  const work = tempDir('vigil-trace-trees-');
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | undefined;

  test.before(async (ctx) => {
    ctx.fake = await startFakeOpenAI();
    const port = await freePort();
    ctx.base = `http://127.0.0.1:${port}`;
    if (backend === 'postgres') schema = await freshPostgresSchema('llm_trace_trees');
    const projects = Object.entries(KEYS).map(([name, key]) => `    - { name: ${name}, key: ${key} }`);
    const file = writeConfig(work.path, `data_dir: ${work.path}/data
${schema ? `storage: { url: "${schema.url}" }\n` : ''}control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
llm:
  projects:
${projects.join('\n')}
`);
    ctx.vigil = await startVigil(file, ctx.base, { cwd: work.path });
    ctx.api = llmClient(ctx.base);
  });
  test.after(async (ctx) => {
    await ctx.fake?.close();
    await ctx.vigil?.stop('SIGKILL');
    await schema?.drop();
    work.cleanup();
  });

  test('OpenLLMetry: the agent, its lookup, two LLM calls and the tool call between them, as one tree', async (ctx) => {
    await runChild('traceloop', ctx);
    const { items, tree } = await treeOf(ctx, KEYS.traceloop, 2, 5);
    assert.equal(shape(tree), [[0, 'agent'], [1, 'tool'], [1, 'llm'], [1, 'tool'], [1, 'llm']], listed(tree));
    assert.equal(tree.nodes.filter((n: Json) => n.kind !== 'llm').map((n: Json) => n.name), ['weather_agent.agent', 'lookup_city.tool', 'get_weather.tool']);
    assert.is(tree.source, 'otlp');
    assert.is(tree.name, 'weather_agent.agent');
    const tool = tree.nodes[3];
    assert.equal(tool.data.output, { temp_c: 21 });
    assert.equal(tool.data.input, { args: ['Paris'], kwargs: {} });
    assert.is(tool.data.attributes['traceloop.span.kind'], 'tool');
    assertCommon(tree, items);
    // The dashboard's twin answers the same tree.
    const twin = await ctx.api.dashboard(TOKEN, `/api/llm/projects/traceloop/traces/${items[0].id}/tree`);
    assert.is(twin.status, 200);
    assert.equal(twin.body, tree);
  });

  test('OpenInference: traceAgent, withSpan (retriever) and traceTool around the instrumented calls', async (ctx) => {
    await runChild('openinference', ctx);
    const { items, tree } = await treeOf(ctx, KEYS.openinference, 2, 5);
    assert.equal(shape(tree), [[0, 'agent'], [1, 'retriever'], [1, 'llm'], [1, 'tool'], [1, 'llm']], listed(tree));
    assert.equal([tree.nodes[0].name, tree.nodes[1].name, tree.nodes[3].name], ['weather_agent', 'lookup_city', 'get_weather']);
    assert.is(tree.nodes[3].data.input, 'Paris');
    assert.equal(tree.nodes[3].data.output, { temp_c: 21 }, 'output.value, JSON, parsed');
    assertCommon(tree, items);
    // Any LLM call of the trace leads to the same tree.
    const other = await ctx.api.get(KEYS.openinference, `/api/v1/traces/${items[1].id}/tree`);
    assert.equal(other.body.nodes.map((n: Json) => n.span_id), tree.nodes.map((n: Json) => n.span_id));
  });

  test('langfuse v3: nested spans, generations and an event, one event per batch', async (ctx) => {
    const langfuse = new Langfuse({ publicKey: 'pk-lf-tree', secretKey: KEYS.langfuse, baseUrl: ctx.base, flushAt: 1 });
    const question = `I am ${EMAIL}: what is the weather in Paris?`;
    const trace = langfuse.trace({ name: 'weather-agent', input: question });
    const agent = trace.span({ name: 'agent-step', input: question });
    await step();
    const plan = agent.generation({ name: 'plan', model: 'gpt-4o-mini', input: [{ role: 'user', content: question }] });
    plan.end({ output: { role: 'assistant', tool_calls: [{ function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }, usage: { input: 21, output: 7, total: 28 } });
    await step();
    const tool = agent.span({ name: 'get_weather', input: { city: 'Paris' } });
    tool.event({ name: 'cache-miss', input: { city: 'Paris' } });
    await step();
    tool.end({ output: { temp_c: 21 } });
    await step();
    const answer = agent.generation({ name: 'answer', model: 'gpt-4o-mini', input: [{ role: 'user', content: question }] });
    answer.end({ output: 'It is 21 °C in Paris.', usage: { input: 21, output: 7, total: 28 } });
    agent.end({ output: 'It is 21 °C in Paris.' });
    await langfuse.flushAsync();
    await langfuse.shutdownAsync();
    const { items, tree } = await treeOf(ctx, KEYS.langfuse, 2, 5);
    assert.equal(tree.nodes.map((n: Json) => [n.depth, n.kind, n.name]), [
      [0, 'span', 'agent-step'], [1, 'llm', 'plan'], [1, 'span', 'get_weather'], [2, 'event', 'cache-miss'], [1, 'llm', 'answer'],
    ]);
    assert.is(tree.source, 'langfuse');
    assert.equal(tree.nodes[2].data.output, { temp_c: 21 });
    assert.is(tree.nodes[0].data.output, 'It is 21 °C in Paris.');
    assertCommon(tree, items);
    // Every span of the three trees counted once on /metrics (Langfuse's updates and the OTLP exports alike).
    const metrics = await fetch(`${ctx.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.match(await metrics.text(), /^vigil_llm_spans_stored_total 15$/m);
  });

  return test;
}

define('sqlite').run();
if (await postgresAvailable('llm-trace-trees')) define('postgres').run();
