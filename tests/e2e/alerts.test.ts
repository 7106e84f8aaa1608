// The Alerts page in a real browser on a real `vigil run` with alerts and channels on: a webhook channel pointing
// at a local receiver is added and tested (the receiver gets the message), a rule is made with its preview, and
// alerting is stopped and snoozed, which the sidebar's badge shows on another page. Axe-clean at 1440 and 375 px,
// light and dark; screenshots go to /tmp/vigil-shots/ (or VIGIL_SHOTS).
import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';

const SHOTS = process.env.VIGIL_SHOTS ?? '/tmp/vigil-shots';
/** The part of the webhook URL that is a secret: the dashboard must never show it again. */
const HOOK_PATH = '/hooks/secret-path-0123456789';

interface Receiver { url: string; bodies: { path: string; body: Record<string, unknown>; signature: string | undefined }[]; server: Server }

function startReceiver(): Promise<Receiver> {
  const bodies: Receiver['bodies'] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => { text += c; });
    req.on('end', () => {
      bodies.push({ path: req.url ?? '', body: JSON.parse(text || '{}'), signature: req.headers['x-vigil-signature'] as string | undefined });
      res.statusCode = 200;
      res.end('ok');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, server });
  }));
}

const s = suite<{ d: Dashboard; browser: Browser; hook: Receiver }>('e2e: the Alerts page');

if (chromiumAvailable('e2e alerts')) {
  s.before(async (ctx) => {
    ctx.hook = await startReceiver();
    ctx.d = await startDashboard({ llm: true, extra: 'alerts: { interval: 60s }\nchannels: {}\n' });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });
  s.after(async ({ d, browser, hook }) => {
    await browser?.close();
    await d?.stop();
    hook?.server.close();
  });

  s('a webhook channel is added and tested; a rule is made with its preview; stop and snooze show in the sidebar on every page', async ({ d, browser, hook }) => {
    const w = await openLoggedIn(browser, d, '/alerts');
    const { page } = w;
    await page.waitForSelector('h1:has-text("Alerts")');
    // Nothing yet: each empty state says what to do.
    await page.waitForSelector('text=No channel yet');
    await page.waitForSelector('text=No rule yet');
    assert.match(await page.locator('.code-block pre').first().textContent() ?? '', /source: llm\.error_rate/);
    await checkFinishedPage(w, SHOTS, 'alerts-empty');

    await page.click('button:has-text("Add a channel")');
    await page.getByLabel('Id', { exact: true }).fill('local-hook');
    await page.getByLabel('URL', { exact: true }).fill(`${hook.url}${HOOK_PATH}`);
    await page.getByLabel('Signing secret (optional)').fill('a-signing-secret-0123456789');
    await page.click('button:has-text("Add the channel")');
    const row = page.locator('tr', { hasText: 'local-hook' });
    await row.waitFor();
    // The URL is a secret: only its scheme and host come back.
    assert.not.match(await page.content(), /secret-path-0123456789/);
    assert.match(await row.textContent() ?? '', /secrets set: url, secret/);

    await page.click('button[aria-label="Test local-hook"]');
    await page.waitForSelector('[data-test-result="ok"]');
    assert.is(hook.bodies.length, 1, 'the receiver got the test notification');
    assert.is(hook.bodies[0].path, HOOK_PATH);
    assert.match(hook.bodies[0].signature ?? '', /^sha256=[0-9a-f]{64}$/);
    await page.click('button:has-text("Test all")');
    await page.waitForFunction(() => document.querySelector('[data-test-result]')?.getAttribute('data-test-result') === 'ok');
    await page.waitForFunction(() => document.body.textContent!.includes('1 of 1 channels delivered the test'));
    assert.is(hook.bodies.length, 2, 'test all sent through the one channel');

    await page.click('button:has-text("Create a rule")');
    await page.getByLabel('Name', { exact: true }).fill('LLM calls failing');
    assert.is(await page.getByLabel('Watches', { exact: true }).inputValue(), 'gateway.error_rate', 'a source that needs no scope');
    await page.waitForSelector('[data-preview-verdict]');
    assert.match(await page.locator('.rule-preview').textContent() ?? '', /would not fire/);
    // A wrong field says what to write, and the preview waits for it.
    await page.getByLabel('Window', { exact: true }).fill('five minutes');
    await page.waitForSelector('.rule-preview >> text=A duration such as 5m');
    await page.getByLabel('Window', { exact: true }).fill('5m');
    await page.waitForSelector('[data-preview-verdict]');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'alerts-rule-editor-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.click('button:has-text("Create the rule")');
    await page.locator('tr', { hasText: 'LLM calls failing' }).waitFor();

    await page.click('button:has-text("Stop alerting")');
    await page.waitForSelector('[data-alerting-state="stopped"]');
    await page.click('#sidebar a[href="/settings"]');
    await page.waitForSelector('h1:has-text("Settings")');
    assert.is(await page.locator('#sidebar [data-alerting-badge]').textContent(), 'Stopped');
    await page.click('#sidebar a[href="/alerts"]');
    await page.click('button:has-text("1 h")');
    await page.waitForSelector('[data-alerting-state="snoozed"]');
    const state = await (await fetch(`${d.url}/api/alertctl`, { headers: { authorization: `Bearer ${d.token}` } })).json() as { state: string; until: string };
    assert.is(state.state, 'snoozed');
    const until = new Date(state.until);
    const clock = `${String(until.getHours()).padStart(2, '0')}:${String(until.getMinutes()).padStart(2, '0')}`;
    await page.click('#sidebar a[href="/about"]');
    await page.waitForSelector('h1:has-text("About")');
    assert.is(await page.locator('#sidebar [data-alerting-badge]').textContent(), `Snoozed to ${clock}`);

    await page.click('#sidebar a[href="/alerts"]');
    await page.waitForSelector('[data-alerting-state="snoozed"]');
    await checkFinishedPage(w, SHOTS, 'alerts-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'alerts-dark');
    // At 375 px the sidebar is a drawer: the top bar carries the badge.
    await page.setViewportSize({ width: 375, height: 812 });
    assert.ok(await page.locator('.topbar [data-alerting-badge]').isVisible(), 'the top bar shows the alerting state');
    await w.context.close();
  });

  s.run();
}
