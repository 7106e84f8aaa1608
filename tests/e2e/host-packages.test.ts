// The Packages page in a real browser against a real `vigil run` (as root: the helper runs directly) on this machine's
// dpkg: the list, the search and the only-updatable toggle go through the server; Refresh asks first, then shows
// its job's progress and output live, and Cancel stops it (apt's source here is a local server that never answers, so
// the job is still running when the button is pressed); the Host actions page shows the cancelled run. Axe-clean at
// 1440 and 375 px. apt reads only the test's own source list, lists and cache (the system's stay untouched).
import { mkdirSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { tempDir } from '../support/tmp.js';
import { writeFileSync } from 'node:fs';

const SHOTS = '/tmp/vigil-shots';
const s = suite<{ d: Dashboard; browser: Browser; silent: Server; sockets: Socket[]; apt: { path: string; cleanup(): void } }>('e2e: host packages');

if (chromiumAvailable('e2e host packages')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    // A source that accepts connections and never answers: apt-get update waits on it until cancelled.
    ctx.sockets = [];
    ctx.silent = createServer((socket) => { ctx.sockets.push(socket); socket.on('error', () => undefined); });
    await new Promise<void>((resolve) => ctx.silent.listen(0, '127.0.0.1', resolve));
    const port = (ctx.silent.address() as { port: number }).port;
    ctx.apt = tempDir('vigil-e2e-apt-');
    for (const dir of ['parts', 'lists/partial', 'cache/archives/partial']) mkdirSync(join(ctx.apt.path, dir), { recursive: true });
    writeFileSync(join(ctx.apt.path, 'sources.list'), `deb [trusted=yes] http://127.0.0.1:${port}/debian ./\n`);
    const a = ctx.apt.path;
    const options = [`Dir::Etc::sourcelist=${a}/sources.list`, `Dir::Etc::sourceparts=${a}/parts`, `Dir::State::Lists=${a}/lists`, `Dir::Cache=${a}/cache`, 'APT::Get::List-Cleanup=0', 'Acquire::http::Timeout=300'];
    ctx.d = await startDashboard({ gateway: false, extra: `probes: {}\nprivilege:\n  apt_options: ${JSON.stringify(options)}\npackages: {}\n` });
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser, silent, sockets, apt }) => {
    await browser?.close();
    await d?.stop();
    for (const socket of sockets ?? []) socket.destroy();
    silent?.close();
    apt?.cleanup();
  });

  s('the list, search and only-updatable are the server\'s; the page is accessible at both widths', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, '/host/packages');
    const { page } = w;
    await page.waitForSelector('table tbody tr');
    assert.match(await page.locator('.privilege-note').innerText(), /runs as root/);
    assert.match(await page.locator('.card-description').first().innerText(), /shown of [\d,]+ matching, [\d,]+ installed/);
    await page.getByLabel('Search packages').fill('dpkg');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('q') === 'dpkg');
    // The server's answer replaces the rows: some, and every one about dpkg.
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('table tbody tr')];
      return rows.length > 0 && rows.every((r) => /dpkg/i.test(r.textContent ?? ''));
    });
    await page.getByRole('switch', { name: 'Only updatable' }).click();
    // apt reads only the test's (empty) lists: nothing is updatable, and the empty state says what to do.
    await page.waitForSelector('text=No package matches “dpkg”');
    await page.getByLabel('Search packages').fill('');
    await page.waitForSelector('text=Everything is up to date');
    await page.getByRole('switch', { name: 'Only updatable' }).click();
    await page.waitForSelector('table tbody tr');
    await checkFinishedPage(w, SHOTS, 'host-packages');
    await w.context.close();
  });

  s('Refresh asks first, then its job shows progress and live output, and Cancel stops it', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, '/host/packages');
    const { page } = w;
    await page.waitForSelector('table tbody tr');
    await page.getByRole('button', { name: 'Refresh lists' }).click();
    const dialog = page.getByRole('alertdialog');
    assert.match(await dialog.innerText(), /Refresh apt \(dpkg\)'s package lists/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.is(await page.getByRole('alertdialog').count(), 0, 'cancelling the question runs nothing');
    await page.getByRole('button', { name: 'Refresh lists' }).click();
    await page.getByRole('button', { name: 'Yes, run it' }).click();
    const panel = page.locator('.job-panel');
    await panel.locator('.badge', { hasText: 'Running' }).waitFor();
    assert.is(await page.getByRole('progressbar').count(), 1);
    // apt's first lines arrive while it waits on the silent source.
    await page.waitForFunction(() => (document.querySelector('.job-log')?.textContent ?? '').includes('Retrieving file 1 of 1'), undefined, { timeout: 30_000 });
    assert.ok(await page.getByRole('button', { name: 'Refresh lists' }).isDisabled(), 'one change at a time');
    await checkFinishedPage(w, SHOTS, 'host-packages-job');
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await panel.locator('.badge', { hasText: 'Cancelled' }).waitFor({ timeout: 20_000 });
    assert.match(await panel.innerText(), /Cancelled: the program was stopped/);
    await w.context.close();
  });

  s('Host actions lists the cancelled refresh with who ran it', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, '/host/actions');
    const { page } = w;
    await page.waitForSelector('table tbody tr');
    const row = page.locator('table tbody tr', { hasText: 'package-refresh' }).first();
    assert.match(await row.innerText(), /dashboard token[\s\S]*package-refresh[\s\S]*apt[\s\S]*Cancelled/);
    await checkFinishedPage(w, SHOTS, 'host-actions');
    await w.context.close();
  });
}

s.run();
