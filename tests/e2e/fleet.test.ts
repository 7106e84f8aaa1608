// The Fleet page in a real browser on a real `vigil run`, polling a second `vigil run`: the empty state shows how to
// add a machine; a read token is created and shown once; the other machine is added through the form and its tile
// comes up, then goes down when that process is killed. No page ever holds the peer's token. Axe-clean at 1440 and
// 375 px, light and dark; screenshots go to /tmp/vigil-shots/ (or VIGIL_SHOTS).
import { mkdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { freePort } from '../support/net.js';
import { tempDir } from '../support/tmp.js';
import { startVigil, writeConfig, type VigilProcess } from '../support/vigil-process.js';

const SHOTS = process.env.VIGIL_SHOTS ?? '/tmp/vigil-shots';
const PEER_TOKEN = 'e2e-fleet-peer-dashboard-token-0123';

interface Ctx { d: Dashboard; browser: Browser; peer: VigilProcess; peerUrl: string; peerReadToken: string; work: { path: string; cleanup(): void } }
const s = suite<Ctx>('e2e: the Fleet page');

if (chromiumAvailable('e2e fleet')) {
  s.before(async (ctx) => {
    ctx.work = tempDir('vigil-e2e-fleet-');
    const port = await freePort();
    ctx.peerUrl = `http://127.0.0.1:${port}`;
    ctx.peer = await startVigil(writeConfig(ctx.work.path, `data_dir: ${ctx.work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${PEER_TOKEN} }
fleet: {}
`), ctx.peerUrl, { cwd: ctx.work.path });
    const res = await fetch(`${ctx.peerUrl}/api/fleet/tokens`, {
      method: 'POST', headers: { authorization: `Bearer ${PEER_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ label: 'e2e' }),
    });
    ctx.peerReadToken = (await res.json() as { token: string }).token;
    ctx.d = await startDashboard({ gateway: false, extra: 'fleet: { interval: 2s, timeout: 1s }\n' });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });
  s.after(async ({ d, browser, peer, work }) => {
    await browser?.close();
    await d?.stop();
    await peer?.stop('SIGKILL');
    work?.cleanup();
  });

  s('empty, then a read token shown once, then a machine added that comes up and goes down', async ({ d, browser, peer, peerUrl, peerReadToken }) => {
    const w = await openLoggedIn(browser, d, '/host/fleet');
    const { page } = w;
    await page.waitForSelector('h1:has-text("Fleet")');
    // This machine's tile is there from the start, and the empty state says how to add another.
    await page.waitForSelector('.fleet-machine-up');
    await page.waitForSelector('text=No other machine yet');
    assert.match(await page.locator('.code-block pre').first().textContent() ?? '', /fleet: \{\}/);
    await page.waitForSelector('text=No read token yet');
    await checkFinishedPage(w, SHOTS, 'fleet-empty');

    // A read token: shown once, in full, to copy; gone from the page after a reload.
    await page.getByLabel('Which instance will use it').fill('ops laptop');
    await page.getByRole('button', { name: 'Create a read token' }).click();
    const shown = (await page.locator('.fleet-token-once pre').textContent())!.trim();
    assert.match(shown, /^vfr_[A-Za-z0-9_-]{43}$/);
    await page.waitForSelector(`text=••••${shown.slice(-4)}`);
    await page.reload();
    await page.waitForSelector('text=ops laptop');
    assert.not.ok((await page.content()).includes(shown), 'the read token is shown again after a reload');

    // Add the other machine through the form.
    await page.getByRole('button', { name: 'Add machine' }).click();
    const form = page.getByRole('form', { name: 'Add a machine' });
    await form.getByLabel('Name', { exact: true }).fill('web-1');
    await form.getByLabel('URL of its Vigil').fill(peerUrl);
    await form.getByLabel('Read token').fill(peerReadToken);
    await page.getByRole('button', { name: 'Add the machine' }).click();
    await page.waitForSelector('[data-machine="web-1"].fleet-machine-up', { timeout: 10_000 });
    assert.match(await page.locator('[data-machine="web-1"]').textContent() ?? '', /CPU.*Memory.*Temperature.*Uptime/);
    assert.not.ok((await page.content()).includes(peerReadToken), 'the page holds the peer\'s token');
    await checkFinishedPage(w, SHOTS, 'fleet-grid');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'fleet-grid-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // The other machine dies: its tile turns down with the reason, without a reload.
    await peer.stop('SIGKILL');
    await page.waitForSelector('[data-machine="web-1"].fleet-machine-down', { timeout: 15_000 });
    // The first poll after the kill may find its kept-alive connection closed under it; the next is refused.
    await page.waitForFunction(() => /refused|ECONNREFUSED/i.test(document.querySelector('[data-machine="web-1"] .fleet-error')?.textContent ?? ''), undefined, { timeout: 20_000 });
    assert.match(await page.locator('[data-machine="web-1"] .fleet-error').textContent() ?? '', /refused|ECONNREFUSED/i);
    assert.not.ok((await page.content()).includes(peerReadToken));
    await page.screenshot({ path: `${SHOTS}/fleet-down-1440.png`, fullPage: true });
    assert.equal(w.problems, [], 'console');
    await w.context.close();
  });

  s.run();
}
