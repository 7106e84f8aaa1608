// The LLM billing page in a real browser on a real `vigil run`: projects on plans, one near its calls limit; the page
// shows each project's calls, tokens and cost with one number format per column, flags the project near its limit,
// downloads its CSV with the session cookie, moves between months (an empty one says so), and passes axe at 1440 and
// 375 px in the light and dark themes, listed as cards on a phone. The projects list shows the plan and the flag.
// Screenshots go to /tmp/vigil-shots/.
import { mkdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { assertCardList, axeViolations, checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn, watchedPage } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';

const SHOTS = '/tmp/vigil-shots';
const KEYS = { alpha: 'billing-e2e-alpha-key-0123456789', beta: 'billing-e2e-beta-key-0123456789' };
const s = suite<{ d: Dashboard; browser: Browser }>('e2e: LLM billing');

const ingest = (d: Dashboard, key: string, n: number) => fetch(`${d.url}/v1/traces`, {
  method: 'POST', headers: { 'content-type': 'application/json', 'x-service-project-key': key },
  body: JSON.stringify({ traces: Array.from({ length: n }, (_, i) => ({ model: 'gpt-4o-mini', latency_ms: 300, tokens: { input: 1000 + i, output: 200 }, cost_usd: 0.0004 })) }),
});

const month = new Date().toISOString().slice(0, 7);
const previous = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)) - 2, 1)).toISOString().slice(0, 7);

if (chromiumAvailable('e2e llm billing')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard({
      gateway: false, rules: '',
      llm: `  plans:
    starter: { limits: { items_per_month: 100 }, budget: { monthly_usd: 1 } }
  projects:
    - { name: alpha, key: ${KEYS.alpha}, plan: starter }
    - { name: beta, key: ${KEYS.beta} }`,
    });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
    assert.is((await ingest(ctx.d, KEYS.alpha, 85)).status, 202);
    assert.is((await ingest(ctx.d, KEYS.beta, 12)).status, 202);
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('the month per project, the project near its limit flagged, the CSV downloaded with the session', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, '/llm/billing');
    const { page } = w;
    await page.waitForSelector('table.billing-table tbody tr');
    const rows = await page.locator('table.billing-table tbody tr').allTextContents();
    assert.is(rows.length, 2);
    assert.match(rows[0], /alpha\s*near a limit\s*starter\s*85/);
    assert.match(rows[0], /85\s*%\s*of 100/);
    assert.match(rows[1], /beta\s*no limits\s*no plan\s*12/);
    // One format per column: both costs with the same number of decimals.
    const costs = await page.locator('table.billing-table tbody td[data-label="App cost"]').allTextContents();
    assert.equal(costs.map((c) => c.split('.')[1]?.length), [costs[0].split('.')[1]?.length, costs[0].split('.')[1]?.length]);
    assert.match(await page.locator('.billing-notice').textContent() ?? '', /One project is near or over a plan limit\.\s*alpha \(near a limit\)/);
    assert.match(await page.locator('.stats').textContent() ?? '', /Calls\s*97/);

    const csvHref = await page.locator('a:has-text("CSV")').getAttribute('href');
    assert.is(csvHref, `/api/llm/billing.csv?month=${month}`);
    const csv = await page.evaluate(async (href) => (await fetch(href!)).text(), csvHref);
    assert.match(csv, new RegExp(`^month,project,plan,items,`));
    assert.match(csv, new RegExp(`"${month}","alpha","starter","85"`));
    const snippet = await page.locator('.code-block pre').textContent() ?? '';
    assert.is(snippet, `curl -H "Authorization: Bearer $VIGIL_TOKEN" "${d.url}/api/llm/billing/events?month=${month}&limit=500"`);
    // The snippet works as pasted: the dashboard token as VIGIL_TOKEN.
    const events = await fetch(`${d.url}/api/llm/billing/events?month=${month}&limit=500`, { headers: { authorization: `Bearer ${d.token}` } });
    assert.is(events.status, 200);

    await checkFinishedPage(w, SHOTS, 'llm-billing');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(300);
    await assertCardList(page, 'table.billing-table', 'td[data-label="State"] .badge', 'billing at 375 px');
    await page.setViewportSize({ width: 1440, height: 900 });
    await w.context.close();
  });

  s('an earlier month without calls says so; the next-month button stops at this month', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, '/llm/billing');
    const { page } = w;
    await page.waitForSelector('table.billing-table');
    assert.is(await page.locator('button[aria-label^="Next month"]').isDisabled(), true);
    await page.click('button[aria-label^="Previous month"]');
    await page.waitForURL((u) => u.search === `?month=${previous}`);
    await page.waitForSelector('text=/No calls in/');
    assert.match(await page.locator('table.billing-table tbody').textContent() ?? '', /alpha\s*within limits\s*starter\s*0/);
    await checkFinishedPage(w, SHOTS, 'llm-billing-empty-month');
    await w.context.close();
  });

  s('dark theme: axe clean at 1440 and 375 px', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser, { colorScheme: 'dark' });
    await page.goto(d.link);
    await page.goto(`${d.url}/llm/billing`);
    await page.waitForSelector('table.billing-table tbody tr');
    assert.equal(await axeViolations(page), [], 'billing, dark, 1440 px');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(300);
    assert.equal(await axeViolations(page), [], 'billing, dark, 375 px');
    await page.screenshot({ path: `${SHOTS}/llm-billing-dark-375.png`, fullPage: true });
    await context.close();
  });

  s('the projects list shows each plan and flags the project near its limit, linking to billing', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, '/llm/projects');
    const { page } = w;
    await page.waitForSelector('table.projects-table tbody tr');
    const alpha = page.locator('table.projects-table tbody tr', { hasText: 'alpha' });
    assert.match(await alpha.locator('th').textContent() ?? '', /alpha\s*starter\s*near a limit/);
    assert.not.match(await page.locator('table.projects-table tbody tr', { hasText: 'beta' }).locator('th').textContent() ?? '', /near|over|starter/);
    await alpha.locator('a.plan-state').click();
    await page.waitForURL((u) => u.pathname === '/llm/billing');
    await page.waitForSelector('table.billing-table');
    assert.equal(await axeViolations(page), []);
    await w.context.close();
  });
}

s.run();
