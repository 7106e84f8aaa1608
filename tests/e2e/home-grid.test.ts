// The home screen in a real browser on a real `vigil run` with the gateway, the LLM platform, the host monitor and
// alerts on: the default tiles of every area show this machine's figures at once; tiles are dragged (mouse and
// touch) and resized by their corner, moved and resized from the keyboard, removed and brought back from the
// gallery; the layout survives a reload (it is on the server) and an export, a reset and an import. Axe-clean at
// 1440 and 375 px, light and dark; screenshots go to /tmp/vigil-shots/ (or VIGIL_SHOTS).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { waitFor } from '../support/net.js';
import { fixture } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';

const SHOTS = process.env.VIGIL_SHOTS ?? '/tmp/vigil-shots';

const s = suite<{ d: Dashboard; browser: Browser; battery: boolean }>('e2e: the home grid');

const tileIds = (page: Page) => page.$$eval('.home-grid [data-widget-id]', (els) => els.map((e) => (e as HTMLElement).dataset.widgetId!));
const tileSize = (page: Page, id: string) => page.$eval(`[data-widget-id="${id}"]`, (e) => `${(e as HTMLElement).dataset.w}x${(e as HTMLElement).dataset.h}`);
const serverLayout = async (d: Dashboard) =>
  ((await (await fetch(`${d.url}/api/homelayout`, { headers: { authorization: `Bearer ${d.token}` } })).json()) as { layout: { order: string[]; hidden: string[]; sizes: Record<string, unknown> } | null }).layout;

/** Waits until the server holds a layout satisfying `ok` (saves are sent as the pointer is released). */
async function serverHas(d: Dashboard, ok: (l: Awaited<ReturnType<typeof serverLayout>>) => boolean, what: string) {
  for (let i = 0; i < 50; i++) {
    if (ok(await serverLayout(d))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.unreachable(`the server never held ${what}: ${JSON.stringify(await serverLayout(d))}`);
}

/**
 * Waits until a fresh browser shows the server's layout: it draws the default grid at once and the server's when
 * GET /api/homelayout answers, which is when it keeps its copy in localStorage (layout-store.ts loadLayout).
 */
async function serverLayoutShown(page: Page): Promise<void> {
  await page.waitForFunction(() => localStorage.getItem('vigil.homelayout') !== null);
}

async function center(page: Page, selector: string) {
  const box = (await page.locator(selector).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2, box };
}

if (chromiumAvailable('e2e home grid')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard({ llm: true, extra: 'probes: {}\nfleet: {}\nalerts: { interval: 60s }\nchannels: {}\n' });
    ctx.browser = await launchChromium();
    const caps = await (await fetch(`${ctx.d.url}/api/caps`, { headers: { authorization: `Bearer ${ctx.d.token}` } })).json() as { battery: boolean };
    ctx.battery = caps.battery;
    mkdirSync(SHOTS, { recursive: true });
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('the default tiles of every area, with this machine\'s figures at once; axe-clean, light and dark', async ({ d, browser, battery }) => {
    const w = await openLoggedIn(browser, d, '/');
    const { page } = w;
    await page.waitForSelector('h1:has-text("Home")');
    // The sidebar leads with Home, the page open now.
    assert.is(await page.getAttribute('nav a.nav-home', 'aria-current'), 'page');
    const expected = ['cpu', 'mem', 'net', 'temp', ...(battery ? ['battery'] : []), 'uptime', 'core', 'disk', 'health', 'critlogs', 'alerts', 'fleet',
      'gateway-requests', 'gateway-errors', 'llm-cost', 'llm-eval-score'];
    await page.waitForFunction((n) => document.querySelectorAll('.home-grid [data-widget-id]').length === n, expected.length);
    // Host tiles in perch's order, then the gateway's and the LLM platform's; no battery tile without a battery.
    const ids = await tileIds(page);
    assert.equal([...ids].sort(), [...expected].sort());
    assert.equal(ids, expected);
    // The CPU tile shows a share of this machine's CPU as soon as the overview answers.
    await page.waitForSelector('[data-widget-id="cpu"] .widget-figure');
    // Shares as the Host pages write them: one decimal under 10 % (`4.2%`), whole above (`42%`).
    const share = /^(\d+(\.\d)?%|<0\.1%)$/;
    assert.match(await page.locator('[data-widget-id="cpu"] .widget-figure').textContent() ?? '', new RegExp(`${share.source}|^—$`));
    await page.waitForSelector('[data-widget-id="mem"] .widget-figure');
    assert.match(await page.locator('[data-widget-id="mem"] .widget-figure').textContent() ?? '', share);
    await page.waitForSelector('[data-widget-id="uptime"] .widget-figure');
    await page.waitForSelector('[data-widget-id="health"] .widget-figure');
    await page.waitForSelector('[data-widget-id="core"] .widget-bar, [data-widget-id="core"] .widget-note');
    await page.waitForSelector('[data-widget-id="gateway-requests"] .widget-figure');
    await page.waitForSelector('[data-widget-id="critlogs"] .widget-list, [data-widget-id="critlogs"] .widget-note');
    // The fleet tile lists this machine first.
    await page.waitForSelector('[data-widget-id="fleet"] .widget-list li');
    await checkFinishedPage(w, SHOTS, 'home');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(300);
    await checkFinishedPage(w, SHOTS, 'home-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await w.context.close();
  });

  s('a laptop (a fixture /proc and /sys): the battery tile is offered and shows its charge; no tile of a plugin that is off', async ({ browser }) => {
    const laptop = await startDashboard({ gateway: false, extra: `probes: { root: ${JSON.stringify(fixture('proc-laptop'))}, nvidia_smi: false }\n` });
    try {
      const w = await openLoggedIn(browser, laptop, '/');
      const { page } = w;
      await page.waitForSelector('[data-widget-id="battery"] .widget-figure');
      assert.match(await page.locator('[data-widget-id="battery"] .widget-figure').textContent() ?? '', /^\d+%$/);
      assert.match(await page.locator('[data-widget-id="battery"] .widget-detail').textContent() ?? '', /^(charging|plugged in|on battery)$/);
      const ids = await tileIds(page);
      assert.ok(ids.indexOf('battery') > ids.indexOf('temp'), 'in perch\'s place, after the temperature');
      // The gateway's plugins are still on (capture), but the LLM platform, alerts and the fleet are off.
      for (const id of ['llm-cost', 'alerts', 'fleet']) assert.not.ok(ids.includes(id), id);
      await page.waitForSelector('[data-widget-id="temp"] .widget-figure');
      await w.context.close();
    } finally {
      await laptop.stop();
    }
  });

  s('a hidden tab polls nothing and closes its live stream (the server stops the 2 s sample); shown again, the tiles refresh', async ({ d, browser }) => {
    const streams = async () => Number(/^vigil_ui_streams_open (\d+)/m.exec(await (await fetch(`${d.url}/metrics`)).text())?.[1] ?? 0);
    const w = await openLoggedIn(browser, d, '/');
    const { page } = w;
    await page.waitForSelector('[data-widget-id="core"] .widget-bar, [data-widget-id="core"] .widget-note');
    await page.waitForSelector('[data-widget-id="health"] .widget-figure');
    await page.waitForLoadState('networkidle');
    // The server counts a stream when the page's connection reaches it, and drops the earlier tests' closed pages' when
    // it notices their sockets closed: wait for the count to settle (a deadline stretched on a loaded machine).
    await waitFor(async () => (await streams()) === 1, { timeoutMs: 5_000, intervalMs: 100, what: 'one live stream' }).catch(() => undefined);
    assert.is(await streams(), 1, 'one live stream, for host.live and the layout');
    const requests: string[] = [];
    page.on('request', (r) => { if (!new URL(r.url()).pathname.startsWith('/assets/')) requests.push(new URL(r.url()).pathname); });
    // Headless pages are always visible: the page is told otherwise the way a browser tells it.
    const setHidden = (hidden: boolean) => page.evaluate((h) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
    await setHidden(true);
    await waitFor(async () => (await streams()) === 0, { timeoutMs: 5_000, intervalMs: 100, what: 'no live stream' }).catch(() => undefined);
    assert.is(await streams(), 0, 'the server sees the stream closed');
    // Longer than the overview's 2.5 s cadence.
    await page.waitForTimeout(4000);
    assert.equal(requests, [], 'nothing fetched while hidden');
    await setHidden(false);
    await page.waitForRequest((r) => new URL(r.url()).pathname === '/api/overview');
    await waitFor(async () => (await streams()) === 1, { timeoutMs: 5_000, intervalMs: 100, what: 'the stream back' }).catch(() => undefined);
    assert.is(await streams(), 1, 'the stream is back');
    await w.context.close();
  });

  s('drag, resize, keyboard, remove and the gallery; the layout survives a reload', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, '/');
    const { page } = w;
    await page.waitForSelector('[data-widget-id="cpu"]');
    // A change made before the server's layout comes would be replaced by it when it comes.
    await serverLayoutShown(page);
    await page.click('button:has-text("Customize")');
    await page.waitForSelector('.widget-move');

    // Drag CPU by its handle past the middle of Memory: it lands after it.
    const from = await center(page, '[data-widget-id="cpu"] .widget-move');
    const to = await center(page, '[data-widget-id="mem"]');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x + to.box.width / 4, to.y, { steps: 8 });
    await page.mouse.up();
    assert.equal((await tileIds(page)).slice(0, 2), ['mem', 'cpu']);
    await serverHas(d, (l) => l?.order.indexOf('mem') === 0 && l.order.indexOf('cpu') === 1, 'mem before cpu');

    // Resize CPU (2 columns by default) by its corner: one cell wider and one row taller. Memory is one cell.
    const cell = (await page.locator('[data-widget-id="mem"]').boundingBox())!;
    const corner = await center(page, '[data-widget-id="cpu"] .widget-resize');
    await page.mouse.move(corner.x, corner.y);
    await page.mouse.down();
    await page.mouse.move(corner.x + cell.width * 1.1, corner.y + cell.height * 1.1, { steps: 8 });
    await page.mouse.up();
    assert.is(await tileSize(page, 'cpu'), '3x2');
    // Dragged far past the grid's edge and bottom, it is full width and 6 rows at most.
    const corner2 = await center(page, '[data-widget-id="cpu"] .widget-resize');
    await page.mouse.move(corner2.x, corner2.y);
    await page.mouse.down();
    await page.mouse.move(corner2.x + 4000, corner2.y + 4000, { steps: 4 });
    await page.mouse.up();
    assert.is(await tileSize(page, 'cpu'), 'fullx6');
    await serverHas(d, (l) => JSON.stringify(l?.sizes.cpu) === '{"w":"full","h":6}', 'cpu full x 6');

    // The keyboard: arrows on the resize handle, then on the move handle.
    await page.focus('[data-widget-id="cpu"] .widget-resize');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowUp');
    assert.is(await tileSize(page, 'cpu'), '5x1');
    await page.focus('[data-widget-id="cpu"] .widget-move');
    await page.keyboard.press('ArrowLeft');
    assert.equal((await tileIds(page)).slice(0, 2), ['cpu', 'mem']);
    // The grid gives the focus back to the moved tile's handle on the next animation frame (home-grid.tsx focusHandle).
    const focused = () => page.evaluate(() => document.activeElement?.closest('[data-widget-id]')?.getAttribute('data-widget-id'));
    await waitFor(async () => (await focused()) === 'cpu', { timeoutMs: 5_000, intervalMs: 100, what: 'the focus on the moved tile' }).catch(() => undefined);
    assert.is(await page.evaluate(() => document.activeElement?.closest('[data-widget-id]')?.getAttribute('data-widget-id')), 'cpu', 'focus stays on the moved tile');
    await page.keyboard.press('End');
    assert.is((await tileIds(page)).at(-1), 'cpu');
    await page.keyboard.press('Home');
    assert.is((await tileIds(page))[0], 'cpu');

    // Remove Uptime; the gallery finds it by a word of its description and adds it back at the end.
    await page.click('button[aria-label="Remove Uptime"]');
    assert.not.ok((await tileIds(page)).includes('uptime'));
    await page.click('button:has-text("Add a widget")');
    await page.waitForSelector('dialog.widget-gallery[open]');
    assert.equal(await axeViolations(page), [], 'the gallery');
    await page.fill('#gallery-query', 'boot hostname');
    assert.equal(await page.$$eval('.gallery-item .gallery-title', (els) => els.map((e) => e.textContent)), ['Uptime']);
    await page.fill('#gallery-query', 'nothing-like-this');
    await page.waitForSelector('text=No widget matches');
    await page.fill('#gallery-query', 'process');
    await page.click('button[aria-label="Add Top processes"]');
    await page.fill('#gallery-query', 'uptime');
    await page.click('button[aria-label="Add Uptime"]');
    await page.keyboard.press('Escape');
    assert.equal((await tileIds(page)).slice(-2), ['procs', 'uptime']);
    await page.waitForSelector('[data-widget-id="procs"] .widget-list li');
    await checkFinishedPage(w, SHOTS, 'home-editing');
    await serverHas(d, (l) => l?.order.at(-1) === 'uptime' && !l.hidden.includes('uptime'), 'uptime back');

    const before = await tileIds(page);
    await page.reload();
    await page.waitForSelector('[data-widget-id="uptime"]');
    // The grid is drawn before the layout and the machine's capabilities (which decide the tiles offered) answer:
    // wait for the tiles to settle on the saved order and size.
    await waitFor(async () => JSON.stringify(await tileIds(page)) === JSON.stringify(before) && await tileSize(page, 'cpu') === '5x1',
      { timeoutMs: 10_000, intervalMs: 250, what: 'the saved layout after the reload' }).catch(() => undefined);
    assert.equal(await tileIds(page), before, 'the order survives a reload');
    assert.is(await tileSize(page, 'cpu'), '5x1', 'the size survives a reload');
    // Another browser (no local copy) gets the same layout from the server.
    const other = await openLoggedIn(browser, d, '/');
    await other.page.waitForSelector('[data-widget-id="uptime"]');
    // Without a local copy the default layout (which has Uptime too) shows until GET /api/homelayout answers.
    await waitFor(async () => JSON.stringify(await tileIds(other.page)) === JSON.stringify(before),
      { timeoutMs: 10_000, intervalMs: 250, what: 'the server\'s layout in the other browser' }).catch(() => undefined);
    assert.equal(await tileIds(other.page), before);
    await other.context.close();
    assert.equal(w.problems, []);
    await w.context.close();
  });

  s('a finger drags a tile too (touch pointer events)', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, '/');
    const { page } = w;
    await page.waitForSelector('[data-widget-id="mem"]');
    await serverLayoutShown(page);
    await page.click('button:has-text("Customize")');
    const ids = await tileIds(page);
    const [first, second] = ids;
    const from = await center(page, `[data-widget-id="${second}"] .widget-move`);
    const to = await center(page, `[data-widget-id="${first}"]`);
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1 }] });
    await touch('touchStart', from.x, from.y);
    for (let i = 1; i <= 8; i++) await touch('touchMove', from.x + ((to.x - to.box.width / 4) - from.x) * i / 8, from.y + (to.y - from.y) * i / 8);
    await touch('touchEnd', 0, 0);
    await cdp.detach();
    assert.equal((await tileIds(page)).slice(0, 2), [second, first]);
    await serverHas(d, (l) => l?.order.indexOf(second) === 0, `${second} first`);
    await w.context.close();
  });

  s('export, reset, import: the layout moves through a file; a bad file says what is wrong', async ({ d, browser }) => {
    const dir = tempDir('vigil-home-');
    try {
      const w = await openLoggedIn(browser, d, '/');
      const { page } = w;
      await page.waitForSelector('[data-widget-id="uptime"]');
      await serverLayoutShown(page);
      await page.click('button:has-text("Customize")');
      const saved = await tileIds(page);
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Export")')]);
      assert.is(download.suggestedFilename(), 'vigil-home-layout.json');
      const file = join(dir.path, 'layout.json');
      await download.saveAs(file);
      const exported = JSON.parse(readFileSync(file, 'utf8')) as { layout: { order: string[]; sizes: Record<string, unknown> } };
      assert.equal(exported.layout.sizes.cpu, { w: 5, h: 1 });

      await page.click('button:has-text("Reset")');
      await page.waitForFunction(() => document.querySelector('[data-widget-id="cpu"]')?.getAttribute('data-w') === '2');
      assert.not.ok((await tileIds(page)).includes('procs'), 'the default has no process list');
      await serverHas(d, (l) => l === null, 'the default (null)');

      await page.setInputFiles('input[type=file]', file);
      await page.waitForFunction(() => document.querySelector('[data-widget-id="cpu"]')?.getAttribute('data-w') === '5');
      assert.equal(await tileIds(page), saved, 'the imported order');
      await serverHas(d, (l) => JSON.stringify(l?.sizes.cpu) === '{"w":5,"h":1}', 'the imported layout');

      const bad = join(dir.path, 'bad.json');
      writeFileSync(bad, JSON.stringify({ order: ['cpu'], hidden: [], sizes: { cpu: { w: 9, h: 1 } } }));
      await page.setInputFiles('input[type=file]', bad);
      await page.waitForSelector('[role=alert]:has-text("sizes.cpu.w must be 1-6")');
      assert.equal(await tileIds(page), saved, 'nothing changed');
      writeFileSync(bad, 'not json');
      await page.setInputFiles('input[type=file]', bad);
      await page.waitForSelector('[role=alert]:has-text("is not JSON")');
      assert.equal(await axeViolations(page), []);
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForTimeout(300);
      await checkFinishedPage(w, SHOTS, 'home-editing-dark');
      await w.context.close();
    } finally {
      dir.cleanup();
    }
  });
}

s.run();
