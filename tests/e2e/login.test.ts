// Logging in to the dashboard in a real browser: the printed link, the login form, and logging out.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';

const s = suite<{ d: Dashboard; browser: Browser }>('e2e: logging in');

if (chromiumAvailable('e2e login')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard({ gateway: false });
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('the dashboard link swaps the token for a cookie the page cannot read, and the URL is cleaned', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.waitForSelector('h1[data-page-title]');
    assert.not.ok(page.url().includes('token'), page.url());
    assert.is(new URL(page.url()).pathname, '/gateway', 'the start page of the configured area');
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'vigil_session')!;
    assert.ok(session.httpOnly);
    assert.is(session.sameSite, 'Strict');
    assert.not.ok(session.value.includes(d.token));
    assert.is(await page.evaluate(() => document.cookie), '', 'HttpOnly: not visible to scripts');
    await context.close();
  });

  s('without a session a page opens the login form; the form logs in and returns to that page', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(`${d.url}/about?from=bookmark`);
    assert.is(new URL(page.url()).pathname, '/login');
    assert.ok(await page.locator('link[rel="stylesheet"][href^="/assets/login-"]').count(), 'the login form wears the dashboard\'s stylesheet');
    await page.fill('#token', 'a wrong token');
    await page.click('button[type="submit"]');
    assert.match(await page.textContent('[role="alert"]') ?? '', /wrong dashboard token/);
    await page.fill('#token', d.token);
    await page.click('button[type="submit"]');
    await page.waitForSelector('h1:has-text("About")');
    const here = new URL(page.url());
    assert.is(here.pathname + here.search, '/about?from=bookmark');
    assert.equal(problems.filter((p) => !/401|Unauthorized/.test(p)), []);
    await context.close();
  });

  s('log out from Settings: the session ends in this browser and pages need the login again', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/settings`);
    await page.click('button:has-text("Log out")');
    await page.waitForURL((u) => u.pathname === '/login');
    assert.is((await context.cookies()).find((c) => c.name === 'vigil_session'), undefined);
    await page.goto(`${d.url}/gateway`);
    assert.is(new URL(page.url()).pathname, '/login');
    await context.close();
  });

  s('Settings lists the other browsers\' sessions and ends one: that browser is logged out at once', async ({ d, browser }) => {
    const admin = await watchedPage(browser);
    const other = await watchedPage(browser);
    await other.page.goto(d.link);
    await other.page.waitForSelector('h1[data-page-title]');
    await admin.page.goto(d.link);
    await admin.page.goto(`${d.url}/settings`);
    const sessions = admin.page.locator('section:has(h2:text-is("Sessions"))');
    await sessions.locator('.badge:has-text("this browser")').waitFor();
    const ends = sessions.locator('button:text-is("End")');
    await ends.first().waitFor();
    const before = await ends.count();
    assert.ok(before >= 1, 'the other browser is not listed');
    assert.match(await sessions.textContent() ?? '', /Headless Chrome on Linux/);
    await sessions.locator('button:has-text("End all others")').click();
    await admin.page.waitForFunction(() => document.querySelectorAll('section button.button-secondary[aria-label^="End the session"]').length === 0);
    // The other browser's next page needs the login again; the admin's session is untouched.
    await other.page.goto(`${d.url}/gateway`);
    assert.is(new URL(other.page.url()).pathname, '/login');
    await admin.page.goto(`${d.url}/gateway`);
    assert.is(new URL(admin.page.url()).pathname, '/gateway');
    assert.equal(admin.problems.filter((p) => !/401|Unauthorized/.test(p)), []);
    await admin.context.close();
    await other.context.close();
  });
}

s.run();
