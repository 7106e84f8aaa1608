// axe-core on every page of the shell, both themes, wide and narrow: no serious or critical violation.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { startDashboard, waitForRequests, type Dashboard } from '../support/dashboard.js';

const s = suite<{ d: Dashboard; empty: Dashboard; browser: Browser }>('e2e: accessibility');

const PAGES: [string, string][] = [
  ['/gateway', '.stats'], ['/gateway?range=1h', '.stats'], ['/gateway/requests', '.requests-table'], ['/gateway/requests?status=2xx&route=%2Fnone', '.empty-state'], ['/gateway/usage', 'h1'], ['/gateway/policy', 'h1'],
  ['/gateway/api', 'h1'], ['/gateway/requests/0190f3a2-7c4d-7b1e-9a3f-2c1d4e5f6a7b', 'h1'], ['/llm', 'h1'], ['/host', 'h1'],
  ['/settings', 'h1'], ['/about', '.facts'], ['/gateway/no/such/page', '.empty-state'],
];

async function check(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  assert.equal(violations, [], `${what}: ${JSON.stringify(violations, null, 2)}`);
}

if (chromiumAvailable('e2e accessibility')) {
  s.before(async (ctx) => {
    [ctx.d, ctx.empty] = await Promise.all([startDashboard(), startDashboard({ gateway: false })]);
    ctx.browser = await launchChromium();
    await ctx.d.traffic(['/api/orders/1', '/api/fail', '/api/users/2'], 12, { headers: { authorization: 'Bearer x' } });
    await waitForRequests(ctx.d, 12);
    const records = await (await fetch(`${ctx.d.url}/api/gateway/records?limit=1`, { headers: { authorization: `Bearer ${ctx.d.token}` } })).json() as { data: { id: string }[] };
    PAGES.push([`/gateway/requests/${records.data[0].id}`, 'mark.redacted']);
  });
  s.after(async ({ d, empty, browser }) => {
    await browser?.close();
    await d?.stop();
    await empty?.stop();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    s(`every page, ${colorScheme} theme, 1440 px`, async ({ d, browser }) => {
      const { page, context } = await watchedPage(browser, { colorScheme });
      await page.goto(d.link);
      for (const [path, ready] of PAGES) {
        await page.goto(`${d.url}${path}`);
        await page.waitForSelector(ready);
        if (path.startsWith('/gateway') && ready === '.stats') await page.waitForFunction(() => document.querySelectorAll('.chart canvas').length === 3);
        await check(page, `${path} (${colorScheme})`);
      }
      await context.close();
    });
  }

  s('the palette, the shortcut sheet, the narrow layout with its drawer, and the first-run states', async ({ d, empty, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.waitForSelector('.stats');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('ov');
    await check(page, 'the command palette');
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await check(page, 'the shortcut sheet');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 375, height: 812 });
    await check(page, 'the overview at 375 px');
    await page.click('button[aria-label="Open the menu"]');
    await check(page, 'the drawer at 375 px');
    await context.close();

    const fresh = await watchedPage(browser, { colorScheme: 'dark' });
    await fresh.page.goto(empty.link);
    await fresh.page.waitForSelector('text=the gateway\'s proxy is off');
    await check(fresh.page, 'the overview before any traffic, proxy off');
    // Usage with the proxy off: no request to a gateway that is not listening, but where to start it.
    await fresh.page.goto(`${empty.url}/gateway/usage`);
    await fresh.page.waitForSelector('text=No usage yet');
    assert.ok(await fresh.page.locator('.empty-state a[href="/gateway"]:has-text("overview")').count(), 'links the overview that says how to start it');
    assert.not.match(await fresh.page.locator('.empty-state').innerText(), /curl/);
    await check(fresh.page, 'the usage page before any traffic, proxy off');
    await fresh.page.goto(`${empty.url}/login`);
    await check(fresh.page, 'the login form');
    await fresh.context.close();
  });
}

s.run();
