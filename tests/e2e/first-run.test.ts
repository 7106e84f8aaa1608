// The first run, in a real browser (issues 22 and 34): `npm start`'s link opens on the home grid with this machine's
// figures, and the gateway's overview points to the demo and to the three lines of config; the link `npm run demo`
// prints opens on the product, full of the demo's traffic.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { freePort, waitFor } from '../support/net.js';
import { fromRoot } from '../support/paths.js';
import { tempDir } from '../support/tmp.js';
import { spawnVigil, startVigil } from '../support/vigil-process.js';

const s = suite<{ browser: Browser }>('e2e: first run');

if (chromiumAvailable('e2e first run')) {
  s.before(async (ctx) => { ctx.browser = await launchChromium(); });
  s.after(async ({ browser }) => { await browser?.close(); });

  s('npm start: the home grid shows this machine at once; the overview offers the demo first, then the config that puts the gateway in front of an API', async ({ browser }) => {
    const work = tempDir('vigil-e2e-start-');
    const port = await freePort();
    const vigil = await startVigil(fromRoot('examples/vigil.yaml'), `http://127.0.0.1:${port}`,
      { cwd: work.path, env: { VIGIL_LISTEN: `127.0.0.1:${port}`, VIGIL_TOKEN: '' } });
    try {
      // Health answers from the child's socket, the link comes down its stdout pipe: either may be read first.
      const link = (await waitFor(() => /Dashboard: (\S+\?token=\S+)/.exec(vigil.stdout())?.[1], { what: 'the dashboard link' }))!;
      const { page, context, problems } = await watchedPage(browser);
      await page.goto(link);
      // The first page is the home grid, with this machine's CPU as soon as the overview answers.
      await page.waitForSelector('h1:has-text("Home")');
      assert.is(new URL(page.url()).pathname, '/');
      await page.waitForSelector('[data-widget-id="cpu"] .widget-figure');
      await page.goto(new URL('/gateway', link).href);
      await page.waitForSelector('text=the gateway\'s proxy is off');
      const blocks = await page.locator('.code-block pre').allTextContents();
      assert.match(blocks[0], /^npm run demo\b/);
      assert.match(blocks[1], /^service:\n {2}upstream: http:\/\/127\.0\.0\.1:3000 .*\n {2}listen: 8080$/);
      assert.equal(problems, []);
      await context.close();
    } finally {
      await vigil.stop('SIGKILL');
      work.cleanup();
    }
  });

  s('npm run demo: its link opens the overview with figures, charts and routes; requests show what the policy masked', async ({ browser }) => {
    const [control, proxy] = [await freePort(), await freePort()];
    const demo = spawnVigil(['demo', '--port', String(control), '--proxy-port', String(proxy)], { env: { VIGIL_TOKEN: '' } });
    try {
      const link = (await waitFor(() => /Dashboard: (\S+\?token=\S+)/.exec(demo.stdout())?.[1], { timeoutMs: 20_000, what: 'the dashboard link' }))!;
      await waitFor(() => demo.stdout().includes('First burst'), { timeoutMs: 60_000, what: 'the first burst' });
      const { page, context, problems } = await watchedPage(browser);
      await page.goto(link);
      await page.waitForSelector('[data-widget-id="gateway-requests"] .widget-figure');
      await page.goto(new URL('/gateway', link).href);
      await page.waitForSelector('.stats');
      // The burst is sent when the banner says so; its records are stored a moment later (the telemetry lane batches),
      // and the overview, live, catches up. On a loaded machine that moment can outlast the page load.
      const requestsStat = '.stat:has(dt:text-is("Requests")) dd.stat-value';
      const shown = async () => (await page.locator(requestsStat).textContent())?.trim() ?? '';
      // Counts from 10,000 up are written compact (48.5k): the demo's day of history is there.
      const count = (text: string) => { const m = /^([\d.,]+)([kM]?)$/.exec(text); return m ? Number(m[1].replace(/,/g, '')) * ({ '': 1, k: 1e3, M: 1e6 }[m[2]] ?? 1) : NaN; };
      // The tokens and the top routes come in with the same stored records (the burst's and the history's, which the
      // demo feeds in paced batches beside it): wait for all that is read below, not only the count.
      const tokensStat = '.stat:has(dt:text-is("Tokens metered")) dd.stat-value';
      const topRoutes = ['/api/payments/**', '/v1/chat/completions', '/api/search'];
      await waitFor(async () => {
        if (!(count(await shown()) >= 200) || /^0$/.test((await page.locator(tokensStat).textContent()) ?? '')) return false;
        const listed = await page.locator('table tbody tr td:first-child').allTextContents();
        return topRoutes.every((r) => listed.includes(r));
      }, { timeoutMs: 30_000, intervalMs: 500, what: '200 requests, metered tokens and the top routes on the overview' });
      const requests = await shown();
      assert.ok(count(requests) >= 200, `Requests: ${requests}`);
      assert.not.match((await page.locator(tokensStat).textContent()) ?? '', /^0$/);
      await page.waitForFunction(() => document.querySelectorAll('.chart canvas').length === 3);
      const routes = await page.locator('table tbody tr td:first-child').allTextContents();
      for (const r of topRoutes) assert.ok(routes.includes(r), `top routes: ${routes}`);

      await page.goto(new URL('/gateway/requests?route=%2Fapi%2Fpayments%2F**&status=2xx', link).href);
      // A charge carries the card; refunds, under the same rule, carry none.
      await page.locator('table tbody tr', { hasText: '/api/payments/charge' }).first().locator('a.request-link').click();
      await page.waitForURL(/\/gateway\/requests\/[0-9a-f-]{36}$/);
      await page.waitForSelector('text=What the policy did');
      const body = await page.locator('main').textContent() ?? '';
      assert.match(body, /"number":\s*"\[REDACTED\]"/);
      assert.match(body, /"cvc":\s*"\[REDACTED\]"/);
      assert.match(body, /"holder":\s*"[A-Z]/);
      assert.equal(problems, []);
      await context.close();
    } finally {
      await demo.stop('SIGINT');
    }
  });
}

s.run();
