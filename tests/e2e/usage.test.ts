// The usage and cost page in a real browser, over real traffic with tenant headers through a real gateway: totals,
// the tenants busiest first with their shares, the measure and range in the URL, the unlabelled-traffic hint, the
// billing export through the session cookie, and the first-run state. Screenshots go to /tmp/vigil-shots/.
import { mkdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { startDashboard, waitForRequests, type Dashboard } from '../support/dashboard.js';

const SHOTS = '/tmp/vigil-shots';
const s = suite<{ d: Dashboard; browser: Browser }>('e2e: gateway usage and cost');

const statValue = async (page: Page, label: string): Promise<string> =>
  (await page.locator(`.stat:has(dt:text-is("${label}")) dd.stat-value`).textContent())?.trim() ?? '';

/** The table's rows as text, cell by cell. */
const tableRows = (page: Page): Promise<string[][]> =>
  page.locator('table tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));

/** RFC 4180, enough for the export: quoted fields, doubled quotes, CRLF rows. */
const parseCsv = (text: string): string[][] =>
  text.trimEnd().split('\r\n').map((line) => [...line.matchAll(/"((?:[^"]|"")*)"|([^,]+)/g)].map((m) => (m[1] ?? m[2]).replace(/""/g, '"')));

if (chromiumAvailable('e2e usage')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard({ pricing: { per_1k_tokens: 0.5, per_request: 0.01, currency: 'EUR' } });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('before any traffic: the first-run state names the label to add and a request to try', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/usage`);
    await page.waitForSelector('text=No usage yet');
    await page.waitForSelector('.code-block pre:has-text("curl")');
    const blocks = await page.locator('.code-block pre').allTextContents();
    assert.match(blocks[0], /labels: \{ tenant: header:X-Tenant-Id \}/);
    assert.match(blocks[1], new RegExp(`curl -i -H 'X-Tenant-Id: acme' ${d.gateway!.replace(/\./g, '\\.')}/`));
    await page.screenshot({ path: `${SHOTS}/usage-empty-1440.png`, fullPage: true });
    assert.equal(await axeViolations(page), []);
    assert.equal(problems, []);
    await context.close();
  });

  s('real traffic: totals, tenants busiest first with shares, the hint for unlabelled requests, the stacked chart', async ({ d, browser }) => {
    // acme 12 requests; globex 6 plus 3 completions metering 120 tokens each; initech 2; 4 without a tenant header.
    await d.traffic(['/api/orders/1', '/api/users/2'], 12, { headers: { 'x-tenant-id': 'acme' } });
    await d.traffic(['/api/orders/3'], 6, { headers: { 'x-tenant-id': 'globex' } });
    await d.traffic(['/v1/chat/completions'], 3, { method: 'POST', body: '{}', headers: { 'x-tenant-id': 'globex', 'content-type': 'application/json' } });
    await d.traffic(['/api/orders/4'], 2, { headers: { 'x-tenant-id': 'initech' } });
    for (let i = 0; i < 4; i++) await (await fetch(`${d.gateway}/api/anonymous`)).arrayBuffer();
    await waitForRequests(d, 27);

    const { page, context, problems, cspViolations } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/usage`);
    await page.waitForSelector('.stats');
    assert.is(await statValue(page, 'Requests'), '27');
    assert.is(await statValue(page, 'Tokens'), '360');
    // 360 tokens × €0.50/1k + 27 requests × €0.01 = €0.18 + €0.27.
    assert.is(await statValue(page, 'Cost (EUR)'), '€0.45');
    assert.is(await statValue(page, 'Tenants'), '4');
    assert.match(await page.locator('.stat:has(dt:text-is("Tenants")) .stat-detail').textContent() ?? '', /^acme: 44\.4% of requests$/);
    assert.match(await page.locator('.stat:has(dt:text-is("Cost (EUR)")) .stat-detail').textContent() ?? '', /€0\.50 per 1k tokens \+ €0\.01 per request/);

    assert.equal(await tableRows(page), [
      // No tokens metered for a tenant is no data: a dash, not 0.
      ['acme', '12', '—', '€0.12', '44.4%'],
      ['globex', '9', '360', '€0.27', '33.3%'],
      ['(no tenant label)', '4', '—', '€0.04', '14.8%'],
      ['initech', '2', '—', '€0.02', '7.41%'],
    ]);
    const hint = await page.locator('.usage-hint').textContent();
    assert.match(hint ?? '', /4 requests \(14\.8%\) carried no tenant label/);
    assert.match(hint ?? '', /labels: \{ tenant: header:X-Tenant-Id \}/);

    await page.waitForFunction(() => document.querySelectorAll('.chart canvas').length === 1);
    const summary = await page.locator('.chart-canvas[role="img"]').getAttribute('aria-label');
    assert.match(summary ?? '', /stacked by tenant: acme 12, globex 9, \(no tenant label\) 4, initech 2; 27 requests in all/);
    const legend = await page.locator('.chart-legend-item').allTextContents();
    assert.equal(legend, ['acme', 'globex', '(no tenant label)', 'initech']);

    assert.equal(await axeViolations(page), []);
    await page.screenshot({ path: `${SHOTS}/usage-1440.png`, fullPage: true });

    // Cost ranks differently: globex's tokens make it the most expensive tenant.
    await page.click('[role="radio"][aria-label="Show cost"]');
    await page.waitForURL((u) => u.searchParams.get('by') === 'cost');
    await page.waitForFunction(() => document.querySelector('table tbody tr td')?.textContent?.trim() === 'globex');
    assert.equal((await tableRows(page)).map((r) => [r[0], r[4]]), [['globex', '60%'], ['acme', '26.7%'], ['(no tenant label)', '8.89%'], ['initech', '4.44%']]);
    assert.match(await page.locator('th:last-child').textContent() ?? '', /Share of cost/);
    await page.waitForFunction(() => /stacked by tenant: globex €0\.27/.test(document.querySelector('.chart-canvas')?.getAttribute('aria-label') ?? ''));

    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(300);
    assert.equal(await axeViolations(page), []);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.is(overflow, 0, 'nothing wider than the screen at 375 px');
    await page.screenshot({ path: `${SHOTS}/usage-375.png`, fullPage: true });

    assert.equal(problems, []);
    assert.equal(await cspViolations(), []);
    await context.close();
  });

  s('the billing export downloads through the session cookie and says what the page says; no token in any link', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/usage?range=7d`);
    await page.waitForSelector('.stats');
    const hrefs = await page.evaluate(() => [...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href));
    assert.not.ok(hrefs.some((h) => h.includes(d.token) || h.includes('token=')), 'no link carries the token');
    const link = page.locator('a[download]:has-text("Export CSV")');
    assert.is(await link.getAttribute('href'), '/api/gateway/usage.csv?range=7d');

    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.match(download.suggestedFilename(), /^vigil-usage-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parseCsv(readFileSync((await download.path())!, 'utf8'));
    assert.equal(rows[0], ['date', 'tenant', 'requests', 'tokens', 'cost', 'currency']);
    // Summed over days (the traffic may straddle midnight UTC), per tenant: the table's figures.
    const byTenant = new Map<string, number[]>();
    for (const [, tenant, requests, tokens, cost, currency] of rows.slice(1)) {
      assert.is(currency, 'EUR');
      const sum = byTenant.get(tenant) ?? [0, 0, 0];
      byTenant.set(tenant, [sum[0] + Number(requests), sum[1] + Number(tokens), Math.round((sum[2] + Number(cost)) * 1e6) / 1e6]);
    }
    assert.equal(Object.fromEntries(byTenant), { acme: [12, 0, 0.12], globex: [9, 360, 0.27], initech: [2, 0, 0.02], '': [4, 0, 0.04] });
    assert.not.ok(urls.some((u) => u.includes(d.token)), 'the download asked without the token in its URL');
    await context.close();

    // Without the session the same link is refused: the cookie is what authenticated it.
    const anonymous = await fetch(`${d.url}/api/gateway/usage.csv?range=7d`);
    assert.is(anonymous.status, 401);
  });

  s('range and measure live in the URL: back returns to the previous view, and the export follows the range', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/usage`);
    await page.waitForSelector('.stats');
    await page.click('[role="radio"][aria-label="Last hour"]');
    await page.waitForURL((u) => u.search === '?range=1h');
    assert.is(await page.getAttribute('a[download]', 'href'), '/api/gateway/usage.csv?range=1h');
    await page.click('[role="radio"][aria-label="Show tokens"]');
    await page.waitForURL((u) => u.search === '?range=1h&by=tokens');
    await page.waitForFunction(() => document.querySelector('table tbody tr td')?.textContent?.trim() === 'globex');
    await page.goBack();
    await page.waitForURL((u) => u.search === '?range=1h');
    assert.is(await page.getAttribute('[role="radio"][aria-label="Show requests"]', 'aria-checked'), 'true');
    await page.reload();
    await page.waitForSelector('[role="radio"][aria-label="Last hour"][aria-checked="true"]');
    // Keyboard: the measure group is one tab stop whose arrow keys choose.
    await page.focus('[role="radio"][aria-label="Show requests"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((u) => u.searchParams.get('by') === 'tokens');
    assert.is(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Show tokens');
    await context.close();
  });

  s('dark theme at 1920 px', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser, { colorScheme: 'dark', viewport: { width: 1920, height: 1080 } });
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/usage`);
    await page.waitForFunction(() => document.querySelectorAll('.chart canvas').length === 1);
    assert.equal(await axeViolations(page), []);
    await page.screenshot({ path: `${SHOTS}/usage-1920-dark.png`, fullPage: true });
    assert.equal(problems, []);
    await context.close();
  });
}

s.run();
