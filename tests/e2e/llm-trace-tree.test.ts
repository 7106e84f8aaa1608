// Trace trees on the trace page, in a real browser, from each real instrumentation: an agent step with a lookup, two
// LLM calls and a tool call between them, made under OpenLLMetry and OpenInference (the child app of the
// integration suite, the real `openai` client against a local fake of OpenAI's protocol, exported one span per
// request), and the `langfuse` v3 SDK's nested spans, generations and an event. Each trace page shows the tree with
// its waterfall (LLM calls with model, tokens and cost), selecting a span shows its input and output, and the page is
// finished: axe clean at 1440 and 375 px, nothing wider than the screen, no console error, no CSP violation.
// Screenshots go to /tmp/vigil-shots/.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Langfuse } from 'langfuse';
import type { Browser } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { publicApi } from '../support/llm-traffic.js';
import { waitFor } from '../support/net.js';
import { startFakeOpenAI, type FakeOpenAI } from '../integration/support/fake-openai.js';

const SHOTS = '/tmp/vigil-shots';
const CHILD = fileURLToPath(new URL('../integration/support/agent-tree-client.js', import.meta.url));
const SOURCES = ['traceloop', 'openinference', 'langfuse'] as const;
type Source = typeof SOURCES[number];

interface Ctx { d: Dashboard; browser: Browser; fake: FakeOpenAI; keys: Record<Source, string> }
const s = suite<Ctx>('e2e: trace trees on the trace page');
type Item = { id: string; name: string | null; model: string };
type Tree = { nodes: { name: string; kind: string; item_id: string | null }[] };

async function runChild(client: 'traceloop' | 'openinference', ctx: Ctx): Promise<void> {
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [CHILD], {
      env: { ...process.env, CLIENT: client, OPENAI_BASE_URL: ctx.fake.url, OTLP_URL: `${ctx.d.url}/v1/otlp/traces`, OTLP_KEY: ctx.keys[client] },
      stdio: 'inherit',
    });
    child.on('close', resolve);
  });
  assert.is(code, 0, `the ${client} app ran`);
}

async function sendLangfuse(ctx: Ctx): Promise<void> {
  const step = () => new Promise((r) => setTimeout(r, 3));
  const langfuse = new Langfuse({ publicKey: 'pk-lf-e2e', secretKey: ctx.keys.langfuse, baseUrl: ctx.d.url, flushAt: 1 });
  const agent = langfuse.trace({ name: 'weather-agent' }).span({ name: 'agent-step', input: 'Weather in Paris?' });
  await step();
  agent.generation({ name: 'plan', model: 'gpt-4o-mini', input: [{ role: 'user', content: 'Weather in Paris?' }] })
    .end({ output: { role: 'assistant', content: 'Calling get_weather.' }, usage: { input: 21, output: 7, total: 28 } });
  await step();
  const tool = agent.span({ name: 'get_weather', input: { city: 'Paris' } });
  tool.event({ name: 'cache-miss' });
  await step();
  tool.end({ output: { temp_c: 21 } });
  await step();
  agent.generation({ name: 'answer', model: 'gpt-4o-mini', input: [{ role: 'user', content: 'Weather in Paris?' }] })
    .end({ output: 'It is 21 °C in Paris.', usage: { input: 21, output: 7, total: 28 } });
  agent.end({ output: 'It is 21 °C in Paris.' });
  await langfuse.shutdownAsync();
}

/** The first LLM call of the project whose tree holds all five spans. */
async function callWithTree(ctx: Ctx, source: Source): Promise<string> {
  return waitFor(async () => {
    const { data } = await publicApi<{ data: Item[] }>(ctx.d.url, ctx.keys[source], '/api/v1/traces?limit=10');
    if (data.length < 2) return null;
    const tree = await publicApi<Tree>(ctx.d.url, ctx.keys[source], `/api/v1/traces/${data[0].id}/tree`).catch(() => null);
    return tree && tree.nodes.length === 5 ? data[0].id : null;
  }, { what: `the ${source} tree stored`, timeoutMs: 20_000 }) as Promise<string>;
}

if (chromiumAvailable('e2e llm trace tree')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard({ gateway: false, rules: '', llm: true });
    ctx.browser = await launchChromium();
    ctx.fake = await startFakeOpenAI();
    mkdirSync(SHOTS, { recursive: true });
    ctx.keys = { traceloop: await ctx.d.createProject('traceloop'), openinference: await ctx.d.createProject('openinference'), langfuse: await ctx.d.createProject('langfuse') };
    await runChild('traceloop', ctx);
    await runChild('openinference', ctx);
    await sendLangfuse(ctx);
  });
  s.after(async ({ d, browser, fake }) => {
    await browser?.close();
    await fake?.close();
    await d?.stop();
  });

  const expected: Record<Source, { kinds: string[]; tool: string }> = {
    traceloop: { kinds: ['agent', 'tool', 'llm', 'tool', 'llm'], tool: 'get_weather.tool' },
    openinference: { kinds: ['agent', 'retriever', 'llm', 'tool', 'llm'], tool: 'get_weather' },
    langfuse: { kinds: ['span', 'llm', 'span', 'event', 'llm'], tool: 'get_weather' },
  };

  for (const source of SOURCES) {
    s(`${source}: the tree with its waterfall; LLM calls with model, tokens and cost; a span's input and output on selection`, async (ctx) => {
      const id = await callWithTree(ctx, source);
      const w = await openLoggedIn(ctx.browser, ctx.d, `/llm/traces/${id}?project=${source}`);
      const { page } = w;
      await page.waitForSelector('.tree-rows .tree-row');
      const rows = page.locator('.tree-rows .tree-row');
      assert.is(await rows.count(), 5);
      assert.equal(await page.locator('.tree-rows .tree-label .badge').allTextContents(), expected[source].kinds);
      // Each bar lies on the time axis, inside its track, with a width: the waterfall.
      const bars = await page.locator('.tree-track').evaluateAll((tracks) => tracks.map((t) => {
        const track = t.getBoundingClientRect();
        const bar = t.querySelector('.tree-bar')!.getBoundingClientRect();
        return { inside: bar.left >= track.left - 0.5 && bar.right <= track.right + 0.5, width: bar.width };
      }));
      assert.is(bars.length, 5);
      for (const b of bars) assert.ok(b.inside && b.width >= 1, JSON.stringify(bars));
      // The agent's bar starts at 0 and spans the trace; the LLM rows carry model, tokens and cost.
      const llmRows = page.locator('.tree-row:has(.badge:text-is("llm"))');
      assert.is(await llmRows.count(), 2);
      for (const text of await llmRows.locator('.tree-figures').allTextContents()) {
        assert.match(text, /gpt-4o-mini/);
        assert.match(text, /28 tok/);
        assert.match(text, /\$0\.0000\d+/);
      }
      assert.match(await page.locator('.trace-tree-card .card-description').textContent() ?? '', /5 spans · 2 LLM calls · 56 tokens/);
      // The page's own call is selected first: its input is the conversation it sent.
      assert.match(await page.locator('.tree-row-selected').textContent() ?? '', /this call/);
      // Selecting the tool shows its output.
      await rows.filter({ hasText: expected[source].tool }).first().click();
      await page.waitForSelector(`.tree-detail .card-title:text-is("Span: ${expected[source].tool}")`);
      assert.match(await page.locator('.tree-detail section[aria-label="Span output"]').textContent() ?? '', /temp_c/);
      assert.is(await page.locator('.tree-row[aria-pressed="true"]').count(), 1);
      await checkFinishedPage(w, SHOTS, `llm-trace-tree-${source}`);
      await w.page.close();
    });
  }
}

s.run();
