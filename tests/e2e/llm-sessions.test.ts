// Sessions, users and search over real traces in a real browser: a real `vigil run` with the evaluators plugin, a
// project made through the dashboard API (its default detectors mask emails), an eval definition (a custom function)
// made through its API, and chat traffic sent to POST /v1/traces with the project key: two conversations whose later
// turns resend the history, and a third user without a session. The sessions list, a session's replay (in order, each
// turn's new message and answer with its cost and latency), the users list with eval scores and a user's page are
// checked against the API, sorted by the server through the URL; the traces page's search finds a word of an output
// and never a masked email. Each page is axe clean and finished at 1440 and 375 px; screenshots go to /tmp/vigil-shots/.
import { mkdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { assertCardList, checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn, type Watched } from './browser.js';
import { E2E_TOKEN, startDashboard, type Dashboard } from '../support/dashboard.js';
import { publicApi, sendTraces, waitForTraces, type Item } from '../support/llm-traffic.js';
import { waitFor } from '../support/net.js';

const SHOTS = '/tmp/vigil-shots';
const PROJECT = 'chat-app';
const EMAIL = 'dana.whitlock@example.net';

interface Ctx { d: Dashboard; browser: Browser; key: string; ids: string[] }
const s = suite<Ctx>('e2e: LLM sessions, users and search');

type Json = Record<string, any>;

const user = (content: string) => ({ role: 'user', content });
const assistant = (content: string) => ({ role: 'assistant', content });

/** A conversation of `turns`, each call sending the history so far (as chat applications do). */
function conversation(session: string, userId: string, turns: [string, string][], cost: number): Item[] {
  const history: Json[] = [{ role: 'system', content: 'You are the Acme travel assistant.' }];
  return turns.map(([ask, answer], i) => {
    history.push(user(ask));
    const item: Item = {
      model: 'gpt-4o-mini', name: 'chat-turn', session_id: session, user_id: userId, latency_ms: 400 + i * 100, cost_usd: cost,
      tokens: { input: 100 + i * 50, output: 40 }, input: [...history], output: assistant(answer),
    };
    history.push(assistant(answer));
    return item;
  });
}

const tableRows = (page: Page, table: string): Promise<string[][]> =>
  page.locator(`${table} tbody tr`).evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim() ?? '')));
const open = (ctx: Ctx, path: string): Promise<Watched> => openLoggedIn(ctx.browser, ctx.d, path);
const dash = async (ctx: Ctx, path: string, init: RequestInit = {}): Promise<Json> => {
  const res = await fetch(`${ctx.d.url}${path}`, { ...init, headers: { authorization: `Bearer ${E2E_TOKEN}`, 'content-type': 'application/json' } });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return await res.json() as Json;
};

if (chromiumAvailable('e2e llm sessions')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard({ gateway: false, rules: '', llm: true, extra: 'evaluators:\n  rate_per_minute: 6000\n' });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
    ctx.key = await ctx.d.createProject(PROJECT);
    await dash(ctx, `/api/llm/projects/${PROJECT}/evals`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Names a city', type: 'custom_function', settings: { source: 'export default (t) => ({ score: /Lisbon|Porto/.test(JSON.stringify(t.output)) ? 1 : 0 })' } }),
    });
    const items = [
      ...conversation('trip-lisbon', 'ana', [
        ['I want a weekend in Lisbon.', 'Lisbon is lovely in May: stay in Alfama.'],
        [`Book it and mail ${EMAIL}.`, 'Booked: a confirmation goes to your address.'],
        ['Is there a day trip?', 'Take the train to Sintra, or Porto for a longer one.'],
      ], 0.004),
      ...conversation('trip-oslo', 'ben', [
        ['What about Oslo in winter?', 'Cold and dark: pack warm layers.'],
        ['Any museums?', 'The Munch museum is by the fjord.'],
      ], 0.02),
      { model: 'gpt-4o', name: 'one-off', user_id: 'cy', cost_usd: 0.1, latency_ms: 900, input: [user('Translate "hello"')], output: assistant('Olá') },
    ];
    ctx.ids = await sendTraces(ctx.d.url, ctx.key, items, 1);
    await waitForTraces(ctx.d.url, ctx.key, items.length);
    // Every trace scored by the function: ana's answers name a city twice in three turns, ben's and cy's never.
    await waitFor(async () => (await publicApi<{ data: unknown[] }>(ctx.d.url, ctx.key, '/api/v1/eval-results?limit=50')).data.length === items.length,
      { timeoutMs: 30_000, what: 'every trace scored' });
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('sessions: the list as the API has it, sorted by the server through the URL', async (ctx) => {
    const w = await open(ctx, `/llm/sessions?project=${PROJECT}`);
    const { page } = w;
    await page.waitForSelector('table tbody tr');
    const rows = await tableRows(page, 'table');
    // Newest activity first: ben's conversation came last.
    assert.equal(rows.map((r) => [r[0], r[1], r[3], r[4]]), [['trip-oslo', 'ben', '2', '0'], ['trip-lisbon', 'ana', '3', '0']]);
    assert.match(rows[1][5], /^\$0\.012/);
    await page.click('th button:has-text("Turns")');
    // Descending is the default order, so the URL names only the sort.
    await page.waitForURL((u) => u.searchParams.get('sort') === 'turns' && !u.searchParams.has('order'));
    await page.waitForFunction(() => document.querySelector('table tbody tr td')?.textContent?.includes('trip-lisbon'));
    assert.is(await page.locator('th[aria-sort="descending"]').textContent().then((t) => t?.includes('Turns')), true);
    const api = await publicApi<{ data: Json[] }>(ctx.d.url, ctx.key, '/api/v1/sessions?sort=turns');
    assert.equal((await tableRows(page, 'table')).map((r) => r[0]), api.data.map((x) => x.session_id));
    await page.setViewportSize({ width: 375, height: 812 });
    await assertCardList(page, 'table', 'td:nth-child(4)', 'sessions at 375 px');
    await page.setViewportSize({ width: 1440, height: 900 });
    await checkFinishedPage(w, SHOTS, 'llm-sessions');
    await w.context.close();
  });

  s('a session replays the conversation in order: each turn\'s new message and answer, cost and latency, the email masked', async (ctx) => {
    const w = await open(ctx, `/llm/sessions?project=${PROJECT}`);
    const { page } = w;
    await page.click('a:has-text("trip-lisbon")');
    await page.waitForURL((u) => u.pathname === '/llm/sessions/trip-lisbon');
    await page.waitForSelector('.replay-turn');
    const turns = await page.locator('.replay-turn').evaluateAll((els) => els.map((el) => ({
      title: el.querySelector('.replay-turn-title')?.textContent,
      messages: [...el.querySelectorAll('.message')].map((m) => `${m.querySelector('.message-role')?.textContent}: ${m.querySelector('.message-text')?.textContent}`),
      figures: el.querySelector('.replay-figures')?.textContent ?? '',
      note: el.querySelector('.replay-note')?.textContent ?? '',
    })));
    assert.equal(turns.map((t) => t.title), ['Turn 1', 'Turn 2', 'Turn 3']);
    assert.equal(turns[0].messages, ['System: You are the Acme travel assistant.', 'User: I want a weekend in Lisbon.', 'Assistant: Lisbon is lovely in May: stay in Alfama.']);
    // Later turns show what is new, not the history sent again.
    assert.equal(turns[1].messages, ['User: Book it and mail [REDACTED].', 'Assistant: Booked: a confirmation goes to your address.']);
    assert.match(turns[1].note, /3 earlier messages/);
    assert.equal(turns[2].messages, ['User: Is there a day trip?', 'Assistant: Take the train to Sintra, or Porto for a longer one.']);
    assert.match(turns[0].figures, /400\s*ms/);
    assert.match(turns[2].figures, /600\s*ms/);
    assert.match(turns[2].figures, /\$0\.004/);
    assert.not.match(await page.locator('main').textContent() ?? '', /dana|whitlock/i);
    const stat = async (label: string) => (await page.locator(`.stat:has(dt:text-is("${label}")) dd.stat-value`).textContent())?.trim();
    assert.is(await stat('Turns'), '3');
    assert.is(await stat('Latency'), '1.5\u00a0s');
    await checkFinishedPage(w, SHOTS, 'llm-session-replay');
    await w.context.close();
  });

  s('users: requests, sessions, cost and eval scores as the API has them; a user\'s page with their sessions and traces', async (ctx) => {
    const w = await open(ctx, `/llm/users?project=${PROJECT}&sort=cost`);
    const { page } = w;
    await page.waitForSelector('table tbody tr');
    const api = await dash(ctx, `/api/llm/projects/${PROJECT}/users?sort=cost`);
    const rows = await tableRows(page, 'table');
    assert.equal(rows.map((r) => r[0]), api.data.map((u: Json) => u.user_id));
    assert.equal(rows.map((r) => r[0]), ['cy', 'ben', 'ana']);
    const ana = rows[2];
    assert.equal([ana[2], ana[3], ana[7]], ['3', '1', '0.67']);
    assert.is(rows[1][7], '0.00');
    await page.getByRole('link', { name: 'ana', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/llm/users/ana');
    await page.waitForSelector('text=Latest traces');
    const stat = async (label: string) => (await page.locator(`.stat:has(dt:text-is("${label}")) dd.stat-value`).textContent())?.trim();
    assert.is(await stat('Requests'), '3');
    assert.is(await stat('Eval score'), '0.67');
    await page.waitForSelector('a:has-text("trip-lisbon")');
    assert.is(await page.locator('a:has-text("trip-oslo")').count(), 0, 'only ana\'s sessions');
    await page.waitForSelector('text=All traces of ana');
    // The traces table loads on its own: read it once its rows are in (a loaded CI machine read it empty).
    const latest = 'table:has(caption:has-text("Latest traces of ana"))';
    await page.locator(`${latest} tbody tr`).nth(2).waitFor();
    assert.equal((await tableRows(page, latest)).map((r) => r[1]), ['chat-turn', 'chat-turn', 'chat-turn']);
    await checkFinishedPage(w, SHOTS, 'llm-user');
    await w.context.close();
  });

  s('empty states say what to send; search on the traces page finds an output\'s word and never the masked email', async (ctx) => {
    const other = await ctx.d.createProject('no-sessions');
    await sendTraces(ctx.d.url, other, [{ model: 'gpt-4o-mini', input: [user('hi')], output: assistant('hello') }]);
    await waitForTraces(ctx.d.url, other, 1);
    const w = await open(ctx, '/llm/sessions?project=no-sessions');
    const { page } = w;
    await page.waitForSelector('text=No sessions in the last 30 days');
    assert.match(await page.locator('main').textContent() ?? '', /session_id/);
    await checkFinishedPage(w, SHOTS, 'llm-sessions-empty');

    await page.goto(`${ctx.d.url}/llm?project=${PROJECT}`);
    await page.waitForSelector('table.traces-table');
    await page.fill('input[type="search"]', 'Sintra');
    await page.click('form[role="search"] button');
    await page.waitForURL((u) => u.searchParams.get('q') === 'Sintra');
    await page.waitForFunction(() => document.querySelectorAll('table.traces-table tbody tr').length === 1);
    const api = await publicApi<{ data: Json[] }>(ctx.d.url, ctx.key, '/api/v1/traces?q=Sintra');
    assert.equal(await page.locator('table.traces-table tbody tr').evaluateAll((r) => r.map((x) => (x as HTMLElement).dataset.id)), api.data.map((t) => t.id));
    await page.fill('input[type="search"]', EMAIL);
    await page.click('form[role="search"] button');
    await page.waitForSelector('text=No trace matches');
    assert.match(await page.locator('main').textContent() ?? '', /Masked values are never found/);
    await checkFinishedPage(w, SHOTS, 'llm-traces-search-empty');
    await page.fill('input[type="search"]', '"unclosed');
    await page.click('form[role="search"] button');
    await page.waitForSelector('text=unmatched double quote');
    await w.context.close();
  });
}

s.run();
