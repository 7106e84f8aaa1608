// The Alerts page told by the live stream, in a real browser on a real `vigil run`: a person opts in to browser
// notifications with a click (the permission is asked then, not before), a new prompt version fires a rule, and
// the browser shows a notification and the events table shows the event without a reload. Then more than a page
// of events: the pager turns to the older ones. Last, the weekly digest's preview and its send-now, which a local
// webhook receiver gets. Axe-clean at 1440 and 375 px, light and dark, with events listed;
// screenshots go to /tmp/vigil-shots/ (or VIGIL_SHOTS).
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { waitFor } from '../support/net.js';

const SHOTS = process.env.VIGIL_SHOTS ?? '/tmp/vigil-shots';

const s = suite<{ d: Dashboard; browser: Browser; key: string; hook: Server; received: { event_id: string }[] }>('e2e: the Alerts page, live');

if (chromiumAvailable('e2e alerts live')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard({ llm: true, gateway: false, extra: 'alerts: { interval: 60s }\nchannels: {}\n' });
    ctx.key = await ctx.d.createProject('shop');
    ctx.received = [];
    ctx.hook = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => { text += c; });
      req.on('end', () => { ctx.received.push(JSON.parse(text) as { event_id: string }); res.end('ok'); });
    });
    await new Promise<void>((r) => ctx.hook.listen(0, '127.0.0.1', () => r()));
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${ctx.d.url}${path}`, {
        method: 'POST', headers: { authorization: `Bearer ${ctx.d.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
      });
      assert.is(res.status, 201, await res.text());
    };
    await post('/api/alerts/channels', { id: 'hook', type: 'webhook', url: `http://127.0.0.1:${(ctx.hook.address() as AddressInfo).port}/hook` });
    await post('/api/alerts/rules', { id: 'versions', name: 'New prompt version', source: 'llm.prompt_versions', scope: { project: 'shop' }, condition: { type: 'prompt_version_change' }, severity: 'info' });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });
  s.after(async ({ d, browser, hook }) => {
    await browser?.close();
    await d?.stop();
    hook?.close();
  });

  /** Traces that each make a new version of the template `greet` (POST /v1/traces): one event per version. */
  const versions = async (d: Dashboard, key: string, from: number, count: number) => {
    for (let v = from; v < from + count; v++) {
      const trace = {
        model: 'gpt-4o-mini', latency_ms: 120, tokens: { input: 100, output: 20 }, output: { role: 'assistant', content: 'Hello.' },
        input: [{ role: 'user', content: 'Greet Ada.' }], prompt_template: { name: 'greet', raw: `Say hello to {{name}}, version ${v}` },
      };
      const res = await fetch(`${d.url}/v1/traces`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-service-project-key': key }, body: JSON.stringify({ traces: [trace] }),
      });
      assert.is(res.status, 202, await res.text());
    }
  };

  s('opting in asks the permission on the click; a fired rule shows a browser notification and a live row; the pager turns; the digest previews and sends', async ({ d, browser, key, received }) => {
    const w = await watchedPage(browser, { permissions: ['notifications'] });
    const { page } = w;
    // Records each notification the page makes (and still makes it), and whether the permission was asked.
    await w.context.addInitScript(() => {
      const Real = window.Notification;
      const log = { shown: [] as { title: string; body: string; tag: string }[], asked: 0 };
      (window as unknown as { __notices: typeof log }).__notices = log;
      class Recorded extends Real {
        constructor(title: string, options: NotificationOptions = {}) {
          log.shown.push({ title, body: options.body ?? '', tag: options.tag ?? '' });
          super(title, options);
        }
      }
      Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
      Object.defineProperty(Recorded, 'requestPermission', { value: (...a: []) => { log.asked++; return Real.requestPermission(...a); } });
      Object.defineProperty(window, 'Notification', { value: Recorded, configurable: true, writable: true });
    });
    const notices = () => page.evaluate(() => (window as unknown as { __notices: { shown: { title: string; body: string; tag: string }[]; asked: number } }).__notices);
    await page.goto(d.link);
    await page.goto(`${d.url}/alerts`);
    await page.waitForSelector('[data-browser-notices="off"]');
    assert.is((await notices()).asked, 0, 'no permission asked before the click');
    await page.click('button:has-text("Notify me in this browser")');
    await page.waitForSelector('[data-browser-notices="on"]');
    assert.is((await notices()).asked, 1);

    await versions(d, key, 1, 1);
    await page.waitForFunction(() => (window as unknown as { __notices: { shown: unknown[] } }).__notices.shown.length === 1, undefined, { timeout: 15_000 });
    const [shown] = (await notices()).shown;
    assert.is(shown.title, 'New prompt version');
    assert.match(shown.body, /template "greet" of shop has a new prompt version/);
    assert.match(shown.tag, /^vigil-alert-versions:v:/);
    // The stream told the page too: the row is there without a reload or the 15-s refresh.
    await page.locator('table:has(caption:text-is("Alert events")) tbody tr', { hasText: 'New prompt version' }).first().waitFor({ timeout: 5_000 });

    // The choice is this browser's: it holds across a reload.
    await page.reload();
    await page.waitForSelector('[data-browser-notices="on"]');

    // More than a page of events: 55 in all.
    await versions(d, key, 2, 54);
    await page.waitForFunction(async () => {
      const res = await fetch('/api/alerts/events?limit=200');
      return ((await res.json()) as { data: unknown[] }).data.length === 55;
    }, undefined, { timeout: 30_000, polling: 500 });
    await page.reload();
    await page.waitForSelector('[data-events-page]');
    assert.is(await page.locator('[data-events-page]').textContent(), 'Events 1–50');
    assert.is(await page.locator('table:has(caption:text-is("Alert events")) tbody tr').count(), 50);
    await checkFinishedPage(w, SHOTS, 'alerts-events-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'alerts-events-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.click('nav[aria-label="Pages of alert events"] button:has-text("Older")');
    await page.waitForFunction(() => document.querySelector('[data-events-page]')?.textContent === 'Events 51–55');
    assert.is(await page.locator('table:has(caption:text-is("Alert events")) tbody tr').count(), 5);
    assert.ok(await page.locator('nav[aria-label="Pages of alert events"] button:has-text("Older")').isDisabled(), 'no page beyond the last');
    await page.click('nav[aria-label="Pages of alert events"] button:has-text("Newest")');
    await page.waitForFunction(() => document.querySelector('[data-events-page]')?.textContent === 'Events 1–50');

    // The weekly digest: last week's message as sent, and a send-now the receiver gets.
    const preview = await page.locator('[data-digest-preview]').textContent();
    assert.match(preview ?? '', /Requests: 0/);
    assert.match(await page.locator('.digest-title').textContent() ?? '', /^Weekly LLM digest: shop, /);
    await page.click('.digest-card button:has-text("Send now")');
    await page.waitForSelector('[data-digest-sent="queued"]');
    // Queued: the channel's delivery sends it later, on its own; wait for the receiver to have it (a deadline stretched
    // on a loaded machine, as every wait here).
    await waitFor(() => received.some((b) => b.event_id.startsWith('llm:digest:shop:')), { timeoutMs: 10_000, intervalMs: 250, what: 'the digest at the receiver' }).catch(() => undefined);
    assert.ok(received.some((b) => b.event_id.startsWith('llm:digest:shop:')), 'the receiver got the digest');
    await w.context.close();
  });

  s.run();
}
