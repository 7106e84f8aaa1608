// The shell in a real browser: the command palette, the shortcut sheet, keyboard navigation, display settings that
// persist on the server, and the narrow layout.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { startDashboard, waitForRequests, type Dashboard } from '../support/dashboard.js';
import { waitFor } from '../support/net.js';

const s = suite<{ d: Dashboard; browser: Browser }>('e2e: shell');

const html = (page: Page, name: string) => page.evaluate((n) => document.documentElement.getAttribute(n), name);
const resetSettings = (d: Dashboard) => fetch(`${d.url}/api/ui/settings`, {
  method: 'PUT', headers: { authorization: `Bearer ${d.token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ theme: 'system', simple_mode: false, reduce_effects: false }),
});

if (chromiumAvailable('e2e shell')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard();
    ctx.browser = await launchChromium();
    await ctx.d.traffic(['/api/orders/1'], 3);
    await waitForRequests(ctx.d, 3);
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });
  s.before.each(async ({ d }) => { await resetSettings(d); });

  s('Ctrl+K opens the palette; typing finds a page; Enter opens it; focus comes back on close', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.waitForSelector('.stats');
    await page.keyboard.press('Control+k');
    await page.waitForSelector('dialog.palette[open]');
    assert.is(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'combobox');
    await page.keyboard.type('usage');
    assert.match(await page.locator('[role="option"][aria-selected="true"]').textContent() ?? '', /Usage and cost/);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/gateway/usage');
    assert.is(await page.locator('dialog.palette[open]').count(), 0);
    await page.waitForFunction(() => document.activeElement?.matches('h1[data-page-title]'));
    assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Usage and cost', 'the new page\'s heading has focus');
    // Arrow keys move, Escape closes.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('theme');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    assert.is(await page.locator('dialog.palette[open]').count(), 0);
    assert.equal(problems, []);
    await context.close();
  });

  s('the palette finds a record by its id and opens it', async ({ d, browser }) => {
    const records = await (await fetch(`${d.url}/api/gateway/records?limit=1`, { headers: { authorization: `Bearer ${d.token}` } })).json() as { data: { id: string }[] };
    const id = records.data[0].id;
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.waitForSelector('.stats');
    await page.keyboard.press('Control+k');
    await page.waitForSelector('dialog.palette[open]');
    await page.keyboard.insertText(id);
    await page.waitForSelector('[role="group"][aria-label="Records"] [role="option"]');
    assert.match(await page.locator('[role="option"][aria-selected="true"]').textContent() ?? '', /GET \/api\/orders\/1/);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === `/gateway/requests/${id}`);
    await page.waitForSelector('h1:has-text("GET /api/orders/1")');
    await context.close();
  });

  s('the palette finds the policy\'s rules and the routes they matched by name, and opens their requests', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.waitForSelector('.stats');
    await page.keyboard.press('Control+k');
    await page.waitForSelector('dialog.palette[open]');
    await page.keyboard.type('orders');
    await page.waitForSelector('[role="group"][aria-label="Names"] [role="option"]');
    const names = await page.locator('[role="group"][aria-label="Names"] [role="option"]').allTextContents();
    assert.ok(names.some((n) => /GET \/api\/orders\/\{id\}.*Route · rule all-traffic/.test(n)), names.join(' | '));
    await page.keyboard.press('Control+a');
    await page.keyboard.type('paymnts');
    await page.waitForFunction(() => document.querySelector('[role="option"][aria-selected="true"]')?.textContent?.includes('Rule'));
    assert.match(await page.locator('[role="option"][aria-selected="true"]').textContent() ?? '', /paymentsRule · any method \/api\/payments\/\*\*/);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/gateway/requests' && u.searchParams.get('route') === 'payments');
    assert.equal(problems, []);
    await context.close();
  });

  s('? opens the shortcut sheet; g then s goes to Settings; shortcuts stay out of text fields', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.waitForSelector('.stats');
    await page.keyboard.press('?');
    await page.waitForSelector('dialog.sheet[open]');
    assert.match(await page.locator('dialog.sheet').textContent() ?? '', /Open the command palette/);
    await page.keyboard.press('Escape');
    assert.is(await page.locator('dialog.sheet[open]').count(), 0);
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    await page.waitForURL((u) => u.pathname === '/settings');
    await page.waitForSelector('h1:has-text("Settings")');
    await page.keyboard.press('Control+k');
    await page.waitForSelector('dialog.palette[open]');
    await page.keyboard.type('?gs');
    assert.is(await page.locator('dialog.sheet[open]').count(), 0, 'typing ? in the palette is text');
    assert.is(new URL(page.url()).pathname, '/settings');
    await context.close();
  });

  s('every page has a URL; back and forward move between pages', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.click('nav a:has-text("Usage and cost")');
    await page.waitForURL((u) => u.pathname === '/gateway/usage');
    await page.click('a:has-text("About")');
    await page.waitForURL((u) => u.pathname === '/about');
    await page.goBack();
    await page.waitForSelector('h1:has-text("Usage and cost")');
    assert.is(await page.locator('nav a[aria-current="page"]').textContent(), 'Usage and cost');
    await page.goForward();
    await page.waitForSelector('h1:has-text("About")');
    await page.goto(`${d.url}/llm`);
    await page.waitForSelector('h1:has-text("LLM")');
    assert.match(await page.locator('main').textContent() ?? '', /Not set up in this installation.*llm: \{\}/s);
    await page.goto(`${d.url}/gateway/no-such-page`);
    await page.waitForSelector('text=There is no page here');
    await context.close();
  });

  s('the theme toggle persists on the server: a reload, and another browser, open in it', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser, { colorScheme: 'light' });
    await page.goto(d.link);
    await page.waitForSelector('.stats');
    assert.is(await html(page, 'data-theme'), 'system');
    await page.click('button[aria-label="Switch to the dark theme"]');
    assert.is(await html(page, 'data-theme'), 'dark');
    await page.waitForFunction(async () => (await (await fetch('/api/ui/settings')).json()).theme === 'dark');
    await page.reload();
    assert.is(await html(page, 'data-theme'), 'dark', 'written into index.html by the server: no flash of the light theme');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.is(background, 'rgb(11, 13, 18)');
    const other = await watchedPage(browser, { colorScheme: 'light' });
    await other.page.goto(d.link);
    assert.is(await html(other.page, 'data-theme'), 'dark');
    await other.context.close();
    await context.close();
  });

  s('a settings change in one tab reaches the other open tabs live', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.waitForSelector('.live-badge:has-text("Live")');
    const second = await context.newPage();
    await second.goto(`${d.url}/settings`);
    await second.click('[role="radio"]:has-text("Dark")');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await context.close();
  });

  s('Simple mode hides developer pages from the sidebar and the palette; Reduce effects stops motion', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(`${d.link}`);
    await page.goto(`${d.url}/settings`);
    // The sidebar is drawn once the shell has its area list; counted before that, it has no links at all.
    await page.waitForSelector('nav a:has-text("Overview")');
    assert.ok(await page.locator('nav a:has-text("API")').count());
    await page.click('.setting-row:has(.setting-label:text-is("Simple mode")) button[role="switch"]');
    await page.waitForSelector('nav a:has-text("Overview")');
    assert.is(await page.locator('nav a:has-text("API")').count(), 0);
    assert.is(await page.locator('nav a:has-text("Policy")').count(), 0);
    await page.keyboard.press('Control+k');
    await page.keyboard.type('api');
    assert.not.match(await page.locator('#palette-list').textContent() ?? '', /^API/);
    await page.keyboard.press('Escape');
    await page.click('.setting-row:has(.setting-label:text-is("Reduce effects")) button[role="switch"]');
    assert.is(await html(page, 'data-reduce-effects'), 'true');
    const duration = await page.evaluate(() => getComputedStyle(document.querySelector('.switch')!).transitionDuration);
    assert.is(duration, '0s');
    // The page shows a change at once and saves it after (display-settings.ts): wait for the server to hold it, or
    // the reload reads the settings before the save.
    await page.waitForFunction(async () => { const v = await (await fetch('/api/ui/settings')).json(); return v.simple_mode === true && v.reduce_effects === true; });
    await page.reload();
    assert.is(await html(page, 'data-simple-mode'), 'true');
    await context.close();
  });

  s('keyboard alone: skip link, sidebar links, and the range picker with the arrow keys', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    // The overview opens on the last hour here (all of this run's traffic is minutes old) once it has looked at its
    // data; `.stats` alone is also the loading skeleton's, shown while the picker still holds the default range.
    await page.waitForSelector('[role="radio"][aria-label="Last hour"][aria-checked="true"]');
    await page.keyboard.press('Tab');
    assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.is(await page.evaluate(() => document.activeElement?.id), 'main');
    let guard = 0;
    while ((await page.evaluate(() => document.activeElement?.getAttribute('role'))) !== 'radio' && guard++ < 30) await page.keyboard.press('Tab');
    assert.is(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Last hour', 'Tab enters the group at the chosen option');
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((u) => u.search === '?range=24h');
    await context.close();
  });

  s('a hidden tab closes its live stream and polls nothing; shown again, it reopens', async ({ d, browser }) => {
    const streams = async () => {
      const text = await (await fetch(`${d.url}/metrics`)).text();
      return Number(/^vigil_ui_streams_open (\d+)/m.exec(text)?.[1] ?? 0);
    };
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.waitForSelector('.live-badge:has-text("Live")');
    // Loading ends once the page has opened on the range its data fills (the last hour here) and fetched it.
    await page.waitForSelector('[role="radio"][aria-label="Last hour"][aria-checked="true"]');
    await page.waitForLoadState('networkidle');
    // The earlier tests' closed pages leave the server's count as their streams end, a moment after the close.
    await waitFor(async () => (await streams()) === 1, { timeoutMs: 5_000, intervalMs: 100, what: 'one live stream' }).catch(() => undefined);
    assert.is(await streams(), 1);
    // Data, not code: a lazily loaded chunk (the chart library) may still arrive after the tab is hidden.
    const requests: string[] = [];
    page.on('request', (r) => { if (!new URL(r.url()).pathname.startsWith('/assets/')) requests.push(r.url()); });
    // Headless pages are always visible: the page is told otherwise the way a browser tells it.
    const setHidden = (hidden: boolean) => page.evaluate((h) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
    await setHidden(true);
    await page.waitForSelector('.live-badge:has-text("Paused")');
    await waitFor(async () => (await streams()) === 0, { timeoutMs: 5_000, intervalMs: 100, what: 'no live stream' }).catch(() => undefined);
    assert.is(await streams(), 0, 'the server sees the stream closed');
    await d.traffic(['/api/orders/1'], 2);
    await page.waitForTimeout(1500);
    assert.equal(requests, [], 'nothing fetched while hidden, whatever the traffic');
    await setHidden(false);
    await page.waitForSelector('.live-badge:has-text("Live")');
    // The server's count is its own, read over another connection: wait for it rather than read it as the badge turns.
    await waitFor(async () => (await streams()) === 1, { timeoutMs: 5_000, intervalMs: 100, what: 'the stream back' }).catch(() => undefined);
    assert.is(await streams(), 1);
    await context.close();
  });

  s('375 px wide: the sidebar is a drawer behind the menu button, closed by Escape', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser, { viewport: { width: 375, height: 812 } });
    await page.goto(d.link);
    await page.waitForSelector('.stats');
    assert.not.ok(await page.locator('#sidebar nav').isVisible());
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `nothing wider than the screen (${width} px)`);
    await page.click('button[aria-label="Open the menu"]');
    assert.ok(await page.locator('#sidebar nav').isVisible());
    await page.keyboard.press('Escape');
    await page.waitForSelector('#sidebar nav', { state: 'hidden' });
    await page.click('button[aria-label="Open the menu"]');
    await page.click('#sidebar a:has-text("About")');
    await page.waitForURL((u) => u.pathname === '/about');
    await page.waitForSelector('#sidebar nav', { state: 'hidden' });
    await context.close();
  });
}

s.run();
