// The gateway's overview in a real browser, over real traffic through a real gateway: figures, charts, top routes,
// live updates, the range in the URL, and the first-run state.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { startDashboard, waitForRequests, type Dashboard } from '../support/dashboard.js';
import { waitFor } from '../support/net.js';

const s = suite<{ d: Dashboard; browser: Browser }>('e2e: gateway overview');

const statValue = async (page: import('playwright-core').Page, label: string): Promise<string> =>
  (await page.locator(`.stat:has(dt:text-is("${label}")) dd.stat-value`).textContent())?.trim() ?? '';

if (chromiumAvailable('e2e overview')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard();
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('before any traffic: the first-run state names the gateway\'s address and the command to try', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.waitForSelector('text=Waiting for the first request');
    const curl = new RegExp(`curl -i -H 'X-Tenant-Id: acme' ${d.gateway!.replace(/\./g, '\\.')}/`);
    // The state shows before /api/gateway/proxy answers, with a default address until it does: wait for the gateway's.
    await waitFor(async () => curl.test(await page.locator('.code-block pre').first().textContent() ?? ''), { timeoutMs: 10_000, intervalMs: 250, what: 'the gateway\'s address in the command' });
    const code = await page.locator('.code-block pre').first().textContent();
    assert.match(code ?? '', curl);
    await context.close();
  });

  s('real traffic: figures, three charts and the top routes; live updates while the page is open', async ({ d, browser }) => {
    await d.traffic(['/api/orders/1', '/api/orders/2', '/api/users/7', '/api/fail'], 40);
    await d.traffic(['/v1/chat/completions'], 5, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    await waitForRequests(d, 45);
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.waitForSelector('.stats');
    assert.is(await statValue(page, 'Requests'), '45');
    // 10 of 45 answered 503: 22.2 %.
    assert.is(await statValue(page, 'Error rate'), '22.2%');
    assert.is(await statValue(page, 'Tokens metered'), '600');
    assert.match(await statValue(page, 'P95 latency'), /ms$/);
    await page.waitForFunction(() => document.querySelectorAll('.chart canvas').length === 3);
    const charts = await page.locator('.chart-canvas[role="img"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    assert.match(charts[0] ?? '', /45 requests in all/);
    const routes = await page.locator('table tbody tr td:first-child').allTextContents();
    // Routes are filed under the last matching rule's glob: the completions match the llm rule too.
    assert.equal(routes, ['/**', '/v1/chat/completions']);
    // The badge follows the live stream's connection, which opens on its own, not with the overview's figures.
    await page.locator('.live-badge.live-live').waitFor();
    assert.is(await page.locator('.live-badge').textContent(), 'Live');

    // More traffic while the page is open: it refreshes by itself from the live stream.
    await d.traffic(['/api/payments/charge'], 7);
    await page.waitForFunction(() => document.querySelector('.stat .stat-value')?.textContent === '52', undefined, { timeout: 15_000 });
    assert.equal(problems, []);
    await context.close();
  });

  s('the range lives in the URL: choosing one adds a history entry, and back returns to the previous range', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    // The figures, not their skeleton (which has the class too): the page has looked at its data and settled.
    await page.waitForSelector('.stats:not(.stats-skeleton)');
    await page.click('[role="radio"][aria-label="Last hour"]');
    await page.waitForURL((u) => u.search === '?range=1h');
    assert.is(await page.getAttribute('[role="radio"][aria-label="Last hour"]', 'aria-checked'), 'true');
    await page.click('[role="radio"][aria-label="Last 7 days"]');
    await page.waitForURL((u) => u.search === '?range=7d');
    await page.goBack();
    await page.waitForURL((u) => u.search === '?range=1h');
    assert.is(await page.getAttribute('[role="radio"][aria-label="Last hour"]', 'aria-checked'), 'true');
    await page.goBack();
    await page.waitForURL((u) => u.search === '');
    // No range in the URL: the page opens on the range its data fills, the last hour for this run's minutes-old traffic
    // (it looks at the data again when it was not the opening range that was showing).
    await page.waitForSelector('[role="radio"][aria-label="Last hour"][aria-checked="true"]');
    await page.reload();
    await page.goForward();
    await page.waitForSelector('[role="radio"][aria-label="Last hour"][aria-checked="true"]');
    await context.close();
  });

  s('a top route links to its requests', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.click('table tbody tr td:first-child a');
    await page.waitForURL((u) => u.pathname === '/gateway/requests' && u.searchParams.get('route') === '/**');
    await page.waitForSelector('h1:has-text("Requests")');
    await context.close();
  });
}

s.run();
