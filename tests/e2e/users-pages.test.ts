// Settings > Users and Settings > Audit log in Chromium: the owner invites a local user (whose first password is
// shown once and logs in), gives them a role in a project, disables them (their browser is logged out at once); the
// audit log lists each change. Axe-clean at 1440 and 375 px, light and dark; a viewer sees why they cannot manage
// users. Screenshots go to /tmp/vigil-shots/ (or VIGIL_SHOTS).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn, watchedPage } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';

const SHOTS = process.env.VIGIL_SHOTS ?? '/tmp/vigil-shots';
const s = suite<{ d: Dashboard; browser: Browser; password: string }>('e2e: users and the audit log');

if (chromiumAvailable('e2e users')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    ctx.d = await startDashboard({ gateway: false, llm: true });
    await ctx.d.createProject('checkout');
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('the owner invites a local user and sets a project role; the page is finished at both widths and themes', async (ctx) => {
    const w = await openLoggedIn(ctx.browser, ctx.d, '/settings/users');
    const { page } = w;
    await page.waitForSelector('h1:has-text("Users")');
    await page.waitForSelector('text=No users yet');
    await page.fill('input[type="email"]', 'grace@example.com');
    await page.getByLabel('Role on the instance').selectOption('viewer');
    await page.click('button:has-text("Invite")');
    const password = (await page.locator('.password-value').textContent())!;
    assert.match(password, /^[A-Za-z0-9_-]{22}$/);
    ctx.password = password;
    await page.click('button[aria-label="Edit the access of grace@example.com"]');
    await page.fill('input[placeholder="checkout"]', 'checkout');
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.click('button:has-text("Add role")');
    await page.waitForSelector('select[aria-label="Role in checkout"]');
    await page.waitForFunction(() => document.querySelector('table')!.textContent!.includes('checkout: admin'));
    await checkFinishedPage(w, SHOTS, 'settings-users-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'settings-users-dark');
    await w.context.close();
  });

  s('the invited user logs in with the form; the owner disables them and their browser is logged out at once', async ({ d, browser, password }) => {
    const grace = await watchedPage(browser);
    await grace.page.goto(`${d.url}/login`);
    await grace.page.fill('#email', 'grace@example.com');
    await grace.page.fill('#password', password);
    await grace.page.click('form[aria-label="Log in with email and password"] button[type="submit"]');
    await grace.page.waitForSelector('h1[data-page-title]');
    await grace.page.goto(`${d.url}/settings/users`);
    await grace.page.waitForSelector('text=Only an owner manages users');
    await grace.page.goto(`${d.url}/settings`);
    assert.match(await grace.page.locator('section:has(h2:text-is("Users and access"))').textContent() ?? '', /Signed in as grace@example\.com.*viewer.*checkout: admin/s);

    const owner = await openLoggedIn(browser, d, '/settings/users');
    await owner.page.click('button[aria-label="Edit the access of grace@example.com"]');
    await owner.page.click('button:text-is("Disable")');
    await owner.page.waitForSelector('.badge:text-is("disabled")');
    await grace.page.goto(`${d.url}/settings`);
    assert.is(new URL(grace.page.url()).pathname, '/login');
    await Promise.all([grace.context.close(), owner.context.close()]);
  });

  s('the audit log lists sign-ins and changes, with who and the result, and pages back', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, '/settings/audit');
    const { page } = w;
    await page.waitForSelector('table');
    const text = await page.locator('table').textContent() ?? '';
    assert.match(text, /grace@example\.com/);
    assert.match(text, /PATCH \/api\/users\/:id/);
    assert.match(text, /POST \/api\/users/);
    assert.match(text, /sign-in/);
    await page.fill('#audit-actor', 'grace@example.com');
    await page.click('button:text-is("Filter")');
    await page.waitForFunction(() => [...document.querySelectorAll('tbody tr')].every((r) => r.textContent!.includes('grace@example.com')));
    await page.fill('#audit-actor', '');
    await page.click('button:text-is("Filter")');
    await page.waitForSelector('text=dashboard token');
    await checkFinishedPage(w, SHOTS, 'settings-audit-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'settings-audit-dark');
    await w.context.close();
  });

  s.run();
}
