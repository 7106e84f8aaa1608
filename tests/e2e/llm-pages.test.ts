// The LLM area's pages over real traces in a real browser: a real `vigil run`, a project made through the dashboard
// API, and traces sent to POST /v1/traces with its key (two prompt templates, several versions, failures, costs,
// masked personal data). Each page shows figures that could be wrong, checked against the public API a project key
// reads; filters and paging live in the URL; a new trace appears live; the palette finds a trace by id; the diff shows
// the changed lines; the gate's verdict is GET /api/v1/gate's. No console error, no CSP violation, axe clean, usable
// at 375 px. Screenshots go to /tmp/vigil-shots/.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { assertCardList, axeViolations, checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn, type Watched } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { llmTraffic, publicApi, sendTraces, waitForTraces, type LlmTraffic } from '../support/llm-traffic.js';
import { waitFor } from '../support/net.js';
import { repoRoot } from '../support/paths.js';

const SHOTS = '/tmp/vigil-shots';
const PROJECT = 'checkout-bot';

interface Ctx { d: Dashboard; browser: Browser; key: string; ids: string[]; traffic: LlmTraffic }
const s = suite<Ctx>('e2e: LLM pages over real traces');

type Trace = { id: string; name: string | null; status: string; model: string; prompt_template: { name: string; version: number } | null };

/** The table's rows as text, cell by cell (row headers included). */
const tableRows = (page: Page, table: string): Promise<string[][]> =>
  page.locator(`${table} tbody tr`).evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim() ?? '')));
const rowIds = (page: Page): Promise<string[]> => page.locator('table.traces-table tbody tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id ?? ''));
const statValue = async (page: Page, label: string): Promise<string> =>
  (await page.locator(`.stat:has(dt:text-is("${label}")) dd.stat-value`).textContent())?.trim() ?? '';

/** Runs a command line in a POSIX shell, as a CI step does. */
function runShell(command: string, env: Record<string, string>, cwd = repoRoot): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const finished = (w: Watched, shot: string): Promise<void> => checkFinishedPage(w, SHOTS, shot);
const open = (ctx: Ctx, path: string): Promise<Watched> => openLoggedIn(ctx.browser, ctx.d, path);

if (chromiumAvailable('e2e llm pages')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard({ gateway: false, rules: '', llm: true });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
    ctx.key = await ctx.d.createProject(PROJECT);
    // A second project with a trace of its own: never on checkout-bot's pages.
    const other = await ctx.d.createProject('other-app');
    await sendTraces(ctx.d.url, other, [{ model: 'gpt-4o-mini', name: 'other-apps-call', prompt_template: { name: 'support-reply', raw: 'other app text' } }]);
    // Two versions of a long template with no line in common: too different to diff inline.
    await sendTraces(ctx.d.url, other, [1, 2].map((v) => ({
      model: 'gpt-4o-mini', name: 'long-prompt-call', prompt_template: { name: 'long-prompt', raw: Array.from({ length: 1_200 }, (_, i) => `v${v} rule ${i}`).join('\n') },
    })));
    await waitForTraces(ctx.d.url, other, 3);
    ctx.traffic = llmTraffic();
    ctx.ids = await sendTraces(ctx.d.url, ctx.key, ctx.traffic.items);
    await waitForTraces(ctx.d.url, ctx.key, ctx.traffic.counts.total);
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('traces: the newest 50 as the public API lists them, older pages by cursor, and back', async (ctx) => {
    const w = await open(ctx, `/llm?project=${PROJECT}`);
    const { page } = w;
    await page.waitForSelector('table.traces-table');
    const api = await publicApi<{ data: Trace[] }>(ctx.d.url, ctx.key, '/api/v1/traces?since=7d&limit=50');
    assert.equal(await rowIds(page), api.data.map((t) => t.id));
    assert.match(await page.locator('.pager').textContent() ?? '', /The newest 50/);
    assert.not.match(await page.locator('table.traces-table').textContent() ?? '', /other-apps-call/);
    // The first row is the last item sent: a tool call, no template, priced by its model.
    assert.equal((await tableRows(page, 'table.traces-table'))[0].slice(1, 9), ['order-lookup', 'ok', 'gpt-4o-2024-08-06', '—', '700\u00a0ms', '300 → 22', '$0.00097', '—']);

    await page.click('button:has-text("Older")');
    await page.waitForURL((u) => u.searchParams.has('before'));
    await page.waitForFunction(() => document.querySelectorAll('table.traces-table tbody tr').length === 28);
    const older = await rowIds(page);
    assert.equal(new Set([...api.data.map((t) => t.id), ...older]).size, ctx.traffic.counts.total, 'the two pages hold every trace once');
    assert.is(await page.locator('button:has-text("Older")').isDisabled(), true);
    await page.click('button:has-text("Newer")');
    await page.waitForURL((u) => !u.searchParams.has('before') && !u.searchParams.has('after'));
    await page.waitForFunction((first) => document.querySelector('table.traces-table tbody tr')?.getAttribute('data-id') === first, api.data[0].id);
    await page.goBack();
    await page.waitForURL((u) => u.searchParams.has('before'));
    // On a phone each trace is a card: no sideways scroll, the status on the first screen, still a table to read.
    await page.setViewportSize({ width: 375, height: 812 });
    await assertCardList(page, 'table.traces-table', 'td:nth-child(3) .badge', 'traces at 375 px');
    await page.setViewportSize({ width: 1440, height: 900 });
    await finished(w, 'llm-traces');
    await w.context.close();
  });

  s('traces: filters in the URL (status, prompt version, model, user, tag, time), each checked against the public API', async (ctx) => {
    const w = await open(ctx, `/llm?project=${PROJECT}`);
    const { page } = w;
    await page.waitForSelector('table.traces-table');
    await page.click('[role="radio"][aria-label="Calls that failed"]');
    await page.waitForURL((u) => u.searchParams.get('status') === 'error');
    await page.waitForFunction(() => document.querySelectorAll('table.traces-table tbody tr').length === 6);
    const failed = await publicApi<{ data: Trace[] }>(ctx.d.url, ctx.key, '/api/v1/traces?status=error&since=7d');
    assert.equal(await rowIds(page), failed.data.map((t) => t.id));

    await page.getByLabel('Prompt', { exact: true }).selectOption({ label: 'support-reply v2' });
    await page.waitForURL((u) => u.searchParams.get('template') === 'support-reply' && u.searchParams.get('version') === '2' && u.searchParams.get('status') === 'error');
    await page.waitForFunction(() => document.querySelectorAll('table.traces-table tbody tr').length === 5);
    await page.click('[role="radio"][aria-label="Every call"]');
    await page.waitForFunction(() => document.querySelectorAll('table.traces-table tbody tr').length === 25);
    assert.ok((await tableRows(page, 'table.traces-table')).every((r) => r[4] === 'support-reply v2'));

    // A value in a row filters by it; a chip removes it.
    await page.click('table.traces-table tbody tr:first-child td:nth-child(9) a');
    await page.waitForURL((u) => u.searchParams.has('user_id'));
    const user = new URL(page.url()).searchParams.get('user_id')!;
    const byUser = await publicApi<{ data: Trace[] }>(ctx.d.url, ctx.key, `/api/v1/traces?template=support-reply&version=2&user_id=${user}&since=7d`);
    await page.waitForFunction((n) => document.querySelectorAll('table.traces-table tbody tr').length === n, byUser.data.length);
    assert.equal(await rowIds(page), byUser.data.map((t) => t.id));
    await page.click(`button[aria-label="Remove the filter User ${user}"]`);
    await page.waitForURL((u) => !u.searchParams.has('user_id'));

    // A filter typed by hand; one that matches nothing says so and offers a way out.
    await page.selectOption('form.add-filter select', 'tag');
    await page.fill('form.add-filter input', 'beta');
    await page.click('form.add-filter button');
    await page.waitForURL((u) => u.searchParams.get('tag') === 'beta');
    const tagged = await publicApi<{ data: Trace[] }>(ctx.d.url, ctx.key, '/api/v1/traces?template=support-reply&version=2&tag=beta&since=7d');
    await page.waitForFunction((n) => document.querySelectorAll('table.traces-table tbody tr').length === n, tagged.data.length);
    assert.ok(tagged.data.length > 0 && tagged.data.length < 25);
    await page.selectOption('form.add-filter select', 'model');
    await page.fill('form.add-filter input', 'no-such-model');
    await page.click('form.add-filter button');
    await page.waitForSelector('text=No trace matches');
    assert.equal(await axeViolations(page), []);
    await page.click('a:has-text("Clear the filters")');
    await page.waitForURL((u) => u.search === `?project=${PROJECT}`);
    await page.waitForSelector('table.traces-table');
    await page.click('[role="radio"][aria-label="Last hour"]');
    await page.waitForURL((u) => u.searchParams.get('since') === '1h');
    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has('since'));
    assert.equal(w.problems, []);
    await w.context.close();
  });

  s('traces: a trace sent while the newest page is open appears at its top, live, and the row scrolled to stays where it was (1440 px and cards at 375 px)', async (ctx) => {
    const w = await open(ctx, `/llm?project=${PROJECT}`);
    const { page } = w;
    for (const width of [1440, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.goto(`${ctx.d.url}/llm?project=${PROJECT}`);
      await page.waitForSelector('table.traces-table');
      await page.waitForSelector('.live-badge.live-live');
      // The reader is reading the 20th row, near the top of the window.
      const reading = (await rowIds(page))[19];
      const topOf = () => page.locator(`table.traces-table tbody tr[data-id="${reading}"]`).evaluate((tr) => tr.getBoundingClientRect().top);
      await page.evaluate((top) => window.scrollBy(0, top - 120), await topOf());
      const top = await topOf();
      assert.ok(Math.abs(top - 120) < 2, `scrolled: the row is at ${top}`);
      const [id] = await sendTraces(ctx.d.url, ctx.key, [{ model: 'gpt-4o-mini', name: `arrived-live-${width}`, latency_ms: 250, tokens: { input: 5, output: 5 } }]);
      await page.waitForFunction((want) => document.querySelector('table.traces-table tbody tr')?.getAttribute('data-id') === want, id, { timeout: 15_000 });
      assert.match(await page.locator('table.traces-table tbody tr').first().textContent() ?? '', new RegExp(`arrived-live-${width}`));
      assert.ok(Math.abs(await topOf() - top) < 2, `${width} px: the row read stays at ${top}, now at ${await topOf()}`);
    }
    assert.equal(w.problems, []);
    await w.context.close();
  });

  s('a trace: the conversation with masked values marked, its figures, its prompt version; the JSON on demand; the palette finds it by id', async (ctx) => {
    const id = ctx.ids[1];
    const api = await publicApi<Record<string, any>>(ctx.d.url, ctx.key, `/api/v1/traces/${id}`);
    const w = await open(ctx, `/llm?project=${PROJECT}`);
    const { page } = w;
    // Every area's record search looks the id up; the gateway's answers 404 for an LLM trace's id, and the browser
    // logs that answer. Nothing else may fail.
    const missing: string[] = [];
    page.on('response', (r) => { if (r.status() === 404) missing.push(new URL(r.url()).pathname); });
    await page.waitForSelector('table.traces-table');
    await page.keyboard.press('Control+k');
    await page.waitForSelector('dialog.palette[open]');
    await page.keyboard.insertText(id);
    await page.waitForSelector('[role="group"][aria-label="Records"] [role="option"]');
    assert.match(await page.locator('[role="option"][aria-selected="true"]').textContent() ?? '', /support-reply · gpt-4o-mini-2024-07-18.*checkout-bot/);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === `/llm/traces/${id}`);
    await page.waitForSelector('ol.conversation');

    const messages = await page.locator('section:has(h2:text-is("Input")) li.message').evaluateAll((ms) => ms.map((m) => [m.querySelector('.message-role')?.textContent, m.querySelector('.message-text')?.textContent]));
    assert.equal(messages, [['System', 'You are a support agent for Acme.'], ['User', 'How do I reset my password? My email is [REDACTED].']]);
    assert.is(api.input[1].content, 'How do I reset my password? My email is [REDACTED].', 'stored masked');
    assert.is(await page.locator('section:has(h2:text-is("Input")) mark.redacted').count(), 1);
    assert.match(await page.locator('.page-actions').textContent() ?? '', /1 masked/);
    assert.match(await page.locator('section:has(h2:text-is("Output")) .message-text').textContent() ?? '', /^Thanks for asking!/);
    // The call's figures are one strip above the input and output, which come before everything else.
    const facts = await page.locator('section.call-strip').textContent() ?? '';
    assert.match(facts, /Statusok/);
    assert.match(facts, /Tokens421 in · 106 out/);
    assert.match(facts, new RegExp(`Cost\\$${api.cost_usd.toPrecision(2).replace('.', '\\.')}from Vigil's price table`));
    assert.match(facts, /Latency813\u00a0ms/);
    assert.match(facts, /Useruser-1/);
    const order = await page.locator('main section[aria-label], main section[aria-labelledby]').evaluateAll((ss) => ss.map((x) => x.getAttribute('aria-label') ?? x.querySelector('h2')?.textContent));
    assert.equal(order.slice(0, 5), ['The call', 'Input', 'Output', 'Template variables', 'Metadata']);
    const strip = await page.locator('section.call-strip').boundingBox();
    assert.ok(strip && strip.height < 200, `the call is a strip, not a table of rows: ${strip?.height} px high`);
    assert.is(await page.locator('section.call-strip a:has-text("v1")').getAttribute('href'), `/llm/prompts/support-reply?project=${PROJECT}&version=1`);
    await page.click('section:has(h2:text-is("Input")) [role="radio"]:has-text("JSON")');
    assert.match(await page.locator('section:has(h2:text-is("Input")) pre.json-view').textContent() ?? '', /"role": "system"/);
    // The gateway's 404 and its console line come to the test as DevTools events of their own, not with the page.
    await waitFor(() => missing.length > 0 && w.problems.some((p) => /status of 404 \(Not Found\)/.test(p)),
      { timeoutMs: 5_000, intervalMs: 250, what: 'the gateway\'s 404 for the id' }).catch(() => undefined);
    assert.equal(missing, [`/api/gateway/records/${id}`]);
    w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !/status of 404 \(Not Found\)/.test(p)));
    await finished(w, 'llm-trace');
    await w.context.close();
  });

  s('a trace\'s template variables wrap at 375 px: a long URL and a paragraph never push the page sideways', async (ctx) => {
    const key = await ctx.d.createProject('wide-vars');
    const url = `https://example.com/${'a-long-path-segment-without-breaks'.repeat(8)}`;
    const [id] = await sendTraces(ctx.d.url, key, [{
      model: 'gpt-4o-mini', name: 'wide-vars', input: 'hi', output: 'ok',
      prompt_template: { name: 'wide', raw: 'Read {{url}} and {{note}}', variables: { url, note: 'word '.repeat(120).trim(), options: { depth: 2, path: url } } },
    }]);
    await waitForTraces(ctx.d.url, key, 1);
    const w = await open(ctx, `/llm/traces/${id}?project=wide-vars`);
    const { page } = w;
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForSelector('.template-vars');
    assert.is(await page.locator('.template-var:has(code:text-is("url")) .template-var-text').textContent(), url);
    const wider = await page.locator('.template-vars, .template-vars *').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.className));
    assert.equal(wider, [], 'no variable scrolls sideways');
    const box = await page.locator('.template-vars').boundingBox();
    assert.ok(box && box.x + box.width <= 375, `inside the screen: ${box?.x} + ${box?.width}`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await finished(w, 'llm-trace-variables');
    await w.context.close();
  });

  s('prompts: each version\'s figures side by side, as the public API has them', async (ctx) => {
    const api = await publicApi<{ data: { name: string; versions: { version: number; requests: number; error_rate: number }[] }[] }>(ctx.d.url, ctx.key, '/api/v1/prompt-templates');
    const w = await open(ctx, `/llm/prompts?project=${PROJECT}`);
    const { page } = w;
    await page.waitForSelector('table.versions-table');
    const rows = await tableRows(page, 'section:has(h2:text-is("support-reply")) table.versions-table');
    assert.equal(rows.map((r) => [r[0], r[1], r[2], r[4]]), [['v3latest', '12', 'no evals yet', '0%'], ['v2', '25', 'no evals yet', '20%'], ['v1', '25', 'no evals yet', '4%']]);
    const support = api.data.find((t) => t.name === 'support-reply')!;
    assert.equal(support.versions.map((v) => [v.requests, v.error_rate]), [[25, 0.04], [25, 0.2], [12, 0]]);
    // v3's cost was sent: 12 × $0.0021; a cost column writes every row with the decimals its smallest amount needs.
    assert.equal([rows[0][5], rows[0][6]], ['$0.0252', '$0.00210']);
    assert.match(await page.locator('section:has(h2:text-is("summarise-ticket"))').textContent() ?? '', /2 versions · 12 calls/);
    await finished(w, 'llm-prompts');
    await w.context.close();
  });

  s('a template: the diff between any two versions shows the changed lines; the versions are in the URL', async (ctx) => {
    const w = await open(ctx, `/llm/prompts/support-reply?project=${PROJECT}&version=3&against=1`);
    const { page } = w;
    await page.waitForSelector('table.diff-table');
    const lines = () => page.locator('table.diff-table tr').evaluateAll((rows) => rows.map((r) => [r.className.replace('diff-', ''), r.querySelector('.diff-text')?.textContent ?? r.textContent]));
    assert.equal(await lines(), [
      ['hunk', '@@ -1,3 +1,4 @@'],
      ['del', 'You are a support agent for Acme.'],
      ['add', 'You are a senior support agent for Acme.'],
      ['context', 'Answer the customer\'s question: {{question}}'],
      ['del', 'Be brief.'],
      ['add', 'Be brief and friendly.'],
      ['add', 'Sign as the Acme team.'],
    ]);
    assert.match(await page.locator('.diff-summary').textContent() ?? '', /\+3 lines−2 lines/);
    assert.match(await page.locator('pre.prompt-text').textContent() ?? '', /^You are a senior support agent for Acme\.\n/);
    const side = await tableRows(page, 'table.compare-table');
    assert.equal(side[0], ['Calls', '25', '12', '−52.0%']);
    assert.equal(side[4].slice(0, 3), ['Error rate', '4%', '0%']);

    await page.getByLabel('Compared with').selectOption('2');
    await page.waitForURL((u) => u.searchParams.get('against') === '2');
    await page.waitForFunction(() => document.querySelector('.diff-summary')?.textContent?.includes('support-reply v2 → support-reply v3'));
    assert.equal((await lines()).filter(([k]) => k === 'del' || k === 'add'), [
      ['del', 'You are a support agent for Acme.'], ['add', 'You are a senior support agent for Acme.'], ['add', 'Sign as the Acme team.'],
    ]);
    assert.is(await page.locator('a:has-text("Gate v3 against v2")').getAttribute('href'), `/llm/gate?project=${PROJECT}&template=support-reply&baseline=2&candidate=3`);
    await page.goBack();
    await page.waitForURL((u) => u.searchParams.get('against') === '1');
    await finished(w, 'llm-prompt-diff');
    await w.context.close();
  });

  s('a template whose versions are too different to diff inline: the page says so and offers both texts to download', async (ctx) => {
    const w = await open(ctx, '/llm/prompts/long-prompt?project=other-app&version=2&against=1');
    const { page } = w;
    await page.waitForSelector('text=v1 and v2 are too different to show inline');
    assert.is(await page.locator('table.diff-table').count(), 0);
    const from = page.locator('a:has-text("Text of v1")');
    const to = page.locator('a:has-text("Text of v2")');
    assert.is(await from.getAttribute('href'), '/api/llm/projects/other-app/prompt-templates/long-prompt/versions/1/text');
    assert.is(await to.getAttribute('href'), '/api/llm/projects/other-app/prompt-templates/long-prompt/versions/2/text');
    // The links download with the session cookie alone, as a click does.
    const [download] = await Promise.all([page.waitForEvent('download'), to.click()]);
    assert.is(download.suggestedFilename(), 'long-prompt-v2.txt');
    const text = await page.evaluate(async (href) => (await fetch(href!)).text(), await from.getAttribute('href'));
    assert.is(text.split('\n').length, 1_200);
    assert.ok(text.startsWith('v1 rule 0\nv1 rule 1\n'));
    await finished(w, 'llm-prompt-diff-too-large');
    await w.context.close();
  });

  s('stats: the figures of GET /api/v1/stats, charts drawn, the range in the URL', async (ctx) => {
    const w = await open(ctx, `/llm/stats?project=${PROJECT}&range=1h`);
    const { page } = w;
    await page.waitForSelector('.stats');
    await page.waitForFunction(() => document.querySelectorAll('.chart canvas').length === 5);
    const api = await publicApi<{ requests: number; errors: number; error_rate: number; cost_usd: number; tokens: { total: number } }>(ctx.d.url, ctx.key, '/api/v1/stats?range=1h');
    assert.is(await statValue(page, 'Calls'), String(api.requests));
    assert.ok(api.requests >= ctx.traffic.counts.total);
    assert.is(await statValue(page, 'Error rate'), `${Number((api.error_rate * 100).toFixed(2))}%`);
    assert.match(await page.locator('.stat:has(dt:text-is("Error rate")) .stat-detail').textContent() ?? '', new RegExp(`^${api.errors} failed calls$`));
    assert.is(await statValue(page, 'Cost (USD)'), `$${api.cost_usd.toFixed(4).replace(/0+$/, '').replace(/\.$/, '.00')}`);
    assert.is(await statValue(page, 'Eval score'), '—');
    assert.match(await page.locator('.chart-canvas[role="img"]').first().getAttribute('aria-label') ?? '', new RegExp(`${api.requests} in all, ${api.errors} failed`));
    await page.click('[role="radio"][aria-label="Last 30 days"]');
    await page.waitForURL((u) => u.searchParams.get('range') === '30d');
    await page.waitForFunction(() => /6 hours/.test(document.querySelector('.chart-card .card-description')?.textContent ?? ''));
    await finished(w, 'llm-stats');
    await w.context.close();
  });

  s('no page of the area puts the dashboard token or a project key in the HTML, a link or storage; the keyboard alone filters', async (ctx) => {
    const w = await open(ctx, `/llm?project=${PROJECT}`);
    const { page } = w;
    const paths = [`/llm?project=${PROJECT}`, `/llm/traces/${ctx.ids[0]}?project=${PROJECT}`, `/llm/prompts?project=${PROJECT}`,
      `/llm/prompts/support-reply?project=${PROJECT}`, `/llm/stats?project=${PROJECT}`, `/llm/gate?project=${PROJECT}`, '/llm/projects', `/llm/projects/${PROJECT}`];
    for (const path of paths) {
      await page.goto(`${ctx.d.url}${path}`);
      await page.waitForSelector('h1[data-page-title]');
      await page.waitForLoadState('networkidle');
      const html = await page.content();
      for (const secret of [ctx.d.token, ctx.key]) assert.not.ok(html.includes(secret), `${path}: a secret in the page`);
      const leaks = await page.evaluate((secrets) => [
        ...[...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href),
        ...Object.values(localStorage), ...Object.values(sessionStorage),
      ].filter((v) => secrets.some((x) => v.includes(x)) || v.includes('token=')), [ctx.d.token, ctx.key]);
      assert.equal(leaks, [], path);
    }
    // The status filter by keyboard: Tab into the radio group, an arrow key chooses.
    await page.goto(`${ctx.d.url}/llm?project=${PROJECT}`);
    await page.waitForSelector('table.traces-table');
    await page.focus('[role="radio"][aria-label="Every call"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((u) => u.searchParams.get('status') === 'ok');
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((u) => u.searchParams.get('status') === 'error');
    await page.waitForFunction(() => document.querySelectorAll('table.traces-table tbody tr').length === 6);
    assert.equal(w.problems, []);
    await w.context.close();
  });

  s('the gate: the verdict and each check are GET /api/v1/gate\'s for the same question; the command line asks it without the key', async (ctx) => {
    const w = await open(ctx, `/llm/gate?project=${PROJECT}&template=support-reply`);
    const { page } = w;
    await page.waitForSelector('.verdict');
    await page.getByLabel('Baseline', { exact: true }).selectOption('1');
    await page.getByLabel('Candidate', { exact: true }).selectOption('2');
    await page.getByLabel('Highest error rate').fill('0.1');
    await page.getByLabel('Samples each side needs').fill('20');
    await page.click('button:has-text("Check the gate")');
    await page.waitForURL((u) => u.searchParams.get('max_error_rate') === '0.1' && u.searchParams.get('baseline') === '1');
    const question = 'template=support-reply&baseline=1&candidate=2&max_error_rate=0.1&min_samples=20';
    const api = await publicApi<{ pass: boolean | null; reason: string; checks: { metric: string; pass: boolean | null }[] }>(ctx.d.url, ctx.key, `/api/v1/gate?${question}`);
    assert.is(api.pass, false);
    await page.waitForFunction((reason) => document.querySelector('.verdict-reason')?.textContent === reason, api.reason);
    assert.is(await page.locator('.verdict-title').textContent(), 'Fail');
    // The threshold typed is checked beside the defaults of the others, and the failure is worded with its unit.
    const labels: Record<string, string> = { max_p95_increase_pct: 'Largest P95 rise', max_error_rate: 'Highest error rate', max_error_rate_increase: 'Largest error-rate rise' };
    assert.equal(api.checks.map((c) => c.metric), Object.keys(labels));
    assert.match(api.reason, /(^|; )error rate 20 %, limit 10 %(;|$)/);
    const checks = await tableRows(page, 'table.checks-table');
    assert.equal(checks.map((r) => [r[0], r[1]]), api.checks.map((c) => [`${labels[c.metric]}${c.metric}`, c.pass ? 'pass' : 'fail']));
    assert.equal(checks[1].slice(2, 6), ['4%', '20%', '20%', '≤ 10%']);
    assert.is(await page.getByLabel('Largest P95 rise').getAttribute('placeholder'), '20', 'a default stays shown while another threshold is set');
    const command = await page.locator('.code-block pre').textContent() ?? '';
    assert.is(command, [
      'npx vigil gate \\', `  --url ${ctx.d.url} \\`, '  --key "$VIGIL_PROJECT_KEY" \\', '  --template support-reply \\',
      '  --baseline 1 \\', '  --candidate 2 \\', '  --max-error-rate 0.1 \\', '  --min-samples 20',
    ].join('\n'));
    assert.not.ok((await page.content()).includes(ctx.key), 'no project key on the page');
    // The command as pasted, in a clone (where `npx vigil` finds this checkout's CLI), the key in its environment as
    // CI has it: it fails, as the page says.
    const cli = await runShell(command, { VIGIL_PROJECT_KEY: ctx.key });
    assert.is(cli.code, 1, cli.stdout + cli.stderr);
    assert.match(cli.stdout, /FAIL/);
    assert.match(cli.stdout, /error rate 20 %, limit 10 %/);
    await finished(w, 'llm-gate');

    // The defaults: v3 against v2 passes on the default checks (fewer errors, faster), 12 and 25 calls < 30 → no verdict.
    await page.click('a:has-text("Reset thresholds")');
    await page.waitForURL((u) => !u.searchParams.has('max_error_rate'));
    const defaults = await publicApi<{ pass: boolean | null; reason: string }>(ctx.d.url, ctx.key, '/api/v1/gate?template=support-reply');
    assert.is(defaults.pass, null);
    await page.waitForFunction((reason) => document.querySelector('.verdict-reason')?.textContent === reason, defaults.reason);
    assert.is(await page.locator('.verdict-title').textContent(), 'No verdict yet');
    assert.equal(w.problems, []);
    await w.context.close();
  });
}

s.run();
