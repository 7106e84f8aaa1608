// Every table of the dashboard on a 375 px phone, over real data: gateway traffic with tenants, failures and metered
// tokens through a real gateway, LLM traces with prompt versions and costs, and an eval that scored them. No table
// is cut off without a sign: a table laid out as cards scrolls neither itself nor the page sideways, and one that
// scrolls sideways shows a shadow on each edge where more of it lies, which moves as it scrolls. Every data table sits
// in the one frame (ui/src/components/table-frame.tsx) that decides this. Screenshots of each page at 1440 and
// 375 px, light and dark, go to $VIGIL_SHOTS (default /tmp/vigil-shots/tables).
import { mkdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchChromium, openLoggedIn } from './browser.js';
import { startDashboard, waitForRequests, type Dashboard } from '../support/dashboard.js';
import { llmTraffic, publicApi, sendTraces, waitForTraces } from '../support/llm-traffic.js';
import { waitFor } from '../support/net.js';

const SHOTS = process.env.VIGIL_SHOTS ?? '/tmp/vigil-shots/tables';
const PROJECT = 'checkout-bot';
const KEY = 'checkout-key-0123456789abcdef';
const q = `project=${PROJECT}`;

/** Each page with a table, the table it waits for, and what to do before looking (open an operation, say). */
const PAGES: { name: string; path: string; wait: string; prepare?: (page: Page) => Promise<void> }[] = [
  { name: 'overview', path: '/gateway', wait: '.table' },
  { name: 'requests', path: '/gateway/requests', wait: 'table.requests-table' },
  { name: 'usage', path: '/gateway/usage', wait: '.table' },
  {
    name: 'policy', path: '/gateway/policy', wait: '.rule-toggle',
    prepare: async (page) => {
      const rule = page.locator('li.rule[data-rule="all-traffic"]');
      if (await rule.locator('.rule-toggle').getAttribute('aria-expanded') !== 'true') await rule.locator('.rule-toggle').click();
      await rule.locator('.rule-routes .table').waitFor();
    },
  },
  {
    name: 'api', path: '/gateway/api', wait: 'details.api-op',
    prepare: async (page) => {
      const op = page.locator('details.api-op').filter({ has: page.locator('.api-path:text-is("/api/gateway/usage/series")') }).first();
      if (await op.getAttribute('open') === null) await op.locator('summary').click();
      await op.locator('.api-fields table').waitFor();
    },
  },
  { name: 'traces', path: `/llm?${q}`, wait: 'table.traces-table' },
  { name: 'prompts', path: `/llm/prompts?${q}`, wait: 'table.versions-table' },
  { name: 'prompt-compare', path: `/llm/prompts/support-reply?${q}&version=3&against=2`, wait: 'table.compare-table' },
  {
    name: 'gate', path: `/llm/gate?${q}&template=support-reply&baseline=2&candidate=3`, wait: 'form',
    prepare: async (page) => {
      if (await page.locator('table.checks-table').count() === 0) await page.click('button:has-text("Check the gate")');
      await page.waitForSelector('table.checks-table');
    },
  },
  { name: 'evals', path: `/llm/evals?${q}&definition=length`, wait: 'table.evals-table' },
  { name: 'projects', path: '/llm/projects', wait: 'table.projects-table' },
  { name: 'about', path: '/about', wait: '.table' },
  // The host overview's small tables (disks, network interfaces) are not in the shared frame: they must wrap.
  { name: 'host', path: '/host', wait: '.host-mini-table' },
];

interface TableCheck {
  name: string;
  /** A data table (class `table`), not a layout of lines such as the diff's. */
  data: boolean;
  layout: string | null;
  /** How far the table's scroller, the table and the frame reach past what is shown, in px. */
  scroller: number;
  frameRight: number;
  shadowEnd: boolean;
}

/** Every table of the page as it lays out now. */
const measureTables = (page: Page): Promise<TableCheck[]> => page.evaluate(() => [...document.querySelectorAll('main table')].map((t) => {
  const frame = t.closest<HTMLElement>('.table-frame');
  const scroller = t.closest<HTMLElement>('.table-wrap') ?? t.parentElement!;
  return {
    name: t.querySelector('caption')?.textContent?.slice(0, 60) ?? t.className,
    data: t.classList.contains('table'),
    layout: frame?.dataset.tableLayout ?? null,
    scroller: scroller.scrollWidth - scroller.clientWidth,
    frameRight: Math.round((frame ?? scroller).getBoundingClientRect().right - document.documentElement.clientWidth),
    shadowEnd: frame?.hasAttribute('data-more-end') ?? false,
  };
}));

const s = suite<{ d: Dashboard; browser: Browser }>('e2e: every table at 375 px');

if (chromiumAvailable('e2e tables')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard({
      pricing: { per_1k_tokens: 0.5, per_request: 0.01, currency: 'EUR' },
      llm: `  projects:\n    - { name: ${PROJECT}, key: ${KEY} }`,
      extra: `probes: {}
evaluators:
  rate_per_minute: 6000
  definitions:
    - { id: length, project: ${PROJECT}, name: Answer length, type: custom_function, settings: { source: "export default (t) => ({ score: Math.min(1, JSON.stringify(t.output ?? '').length / 300) })" } }
`,
    });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
    const { d } = ctx;
    await d.traffic(['/api/orders/1', '/api/users/2', '/api/payments/3'], 30);
    await d.traffic(['/api/fail'], 4);
    await d.traffic(['/v1/chat/completions'], 6, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    await waitForRequests(d, 40);
    const traffic = llmTraffic();
    await sendTraces(d.url, KEY, traffic.items);
    await waitForTraces(d.url, KEY, traffic.counts.total);
    await waitFor(async () => (await publicApi<{ data: unknown[] }>(d.url, KEY, '/api/v1/eval-results?eval_definition_id=length&limit=5')).data.length > 0,
      { what: 'the eval scored traces', timeoutMs: 30_000 });
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('no table is cut off at 375 px: cards fit, a scrolling table shows where more of it lies', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, '/gateway');
    const { page } = w;
    for (const p of PAGES) {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${d.url}${p.path}`);
      await page.waitForSelector(p.wait);
      await p.prepare?.(page);
      await page.setViewportSize({ width: 375, height: 812 });
      await page.waitForTimeout(200);
      const tables = await measureTables(page);
      assert.ok(tables.length > 0, `${p.name}: a table to look at`);
      for (const t of tables) {
        const what = `${p.name}, ${t.name}`;
        if (!t.data) {
          assert.ok(t.scroller <= 0 && t.frameRight <= 0, `${what}: wraps within its container`);
          continue;
        }
        assert.ok(t.layout === 'cards' || t.layout === 'scroll', `${what}: in the shared table frame`);
        assert.ok(t.frameRight <= 0, `${what}: the frame reaches ${t.frameRight} px past the screen`);
        if (t.layout === 'cards') assert.ok(t.scroller <= 0, `${what}: the cards scroll ${t.scroller} px sideways`);
        else assert.is(t.shadowEnd, t.scroller > 1, `${what}: the edge shadow says whether more lies to the right (${t.scroller} px)`);
      }
      const page375 = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.is(page375, 0, `${p.name}: nothing wider than the screen`);
    }
    assert.equal(w.problems, [], 'console');
  });

  s('a table that scrolls moves its shadows as it scrolls, and keeps its first column in sight', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, `/llm/prompts/support-reply?${q}&version=3&against=2`);
    const { page } = w;
    await page.setViewportSize({ width: 320, height: 700 });
    await page.waitForSelector('table.compare-table');
    const frame = page.locator('.table-frame:has(table.compare-table)');
    const wrap = frame.locator('.table-wrap');
    const wide = await wrap.evaluate((el) => el.scrollWidth - el.clientWidth);
    assert.ok(wide > 1, `at 320 px the comparison is wider than the screen (${wide} px)`);
    assert.equal([await frame.getAttribute('data-more-start'), await frame.getAttribute('data-more-end')], [null, '']);
    await wrap.evaluate((el) => { el.scrollLeft = el.scrollWidth; });
    await page.waitForFunction(() => document.querySelector('.table-frame:has(table.compare-table)')!.hasAttribute('data-more-start'));
    assert.is(await frame.getAttribute('data-more-end'), null, 'scrolled to the end: no shadow on the right');
    const label = await frame.locator('tbody th').first().boundingBox();
    assert.ok(label && label.x >= 0 && label.x < 40, 'the row labels stay on screen while the figures scroll');
    assert.equal(w.problems, [], 'console');
  });

  s('screenshots: every page with a table at 1440 and 375 px, light and dark', async ({ d, browser }) => {
    for (const scheme of ['light', 'dark'] as const) {
      const w = await openLoggedIn(browser, d, '/gateway');
      const { page } = w;
      await page.emulateMedia({ colorScheme: scheme });
      for (const p of PAGES) {
        for (const width of [1440, 375]) {
          await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
          await page.goto(`${d.url}${p.path}`);
          await page.waitForSelector(p.wait);
          await p.prepare?.(page);
          await page.waitForTimeout(300);
          await page.screenshot({ path: `${SHOTS}/${p.name}-${width}-${scheme}.png`, fullPage: true });
        }
      }
      assert.equal(w.problems, [], `console, ${scheme}`);
      await w.context.close();
    }
  });
}

s.run();
