// Headless Chromium for the e2e suites: Debian's `chromium` driven by playwright-core (no downloaded browser).
import { existsSync, readFileSync } from 'node:fs';
import * as assert from 'uvu/assert';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { fromRoot } from '../support/paths.js';

export const CHROMIUM = process.env.VIGIL_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Whether the browser suites should run. Outside CI they skip with a printed reason when Chromium is missing; in CI
 * (CI=true) a missing browser is a failure, so the suites cannot pass green without it (.ci/run installs it).
 */
export function chromiumAvailable(suite: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error(`${suite}: Chromium is required in CI but ${CHROMIUM} is missing; .ci/run installs the chromium package`);
  console.log(`SKIP ${suite}: no Chromium at ${CHROMIUM} (apt-get install chromium, or set VIGIL_CHROMIUM); set CI=true to make this a failure`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
}

export interface Watched {
  page: Page;
  context: BrowserContext;
  /** Console errors and warnings, and uncaught page errors, in order. */
  problems: string[];
  /** CSP violations the page reported (securitypolicyviolation events), as `directive: blocked URI`. */
  cspViolations(): Promise<string[]>;
}

/**
 * A fresh context (its own cookies and storage) and page, watched for console errors and CSP violations. The
 * violation listener is installed by the DevTools protocol before any page script, which the page's CSP does not
 * govern.
 */
export async function watchedPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...options });
  await context.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => { w.__csp.push(`${e.violatedDirective}: ${e.blockedURI}`); });
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return {
    page,
    context,
    problems,
    cspViolations: () => page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []),
  };
}

const axeSource = (): string => readFileSync(fromRoot('node_modules/axe-core/axe.min.js'), 'utf8');

export interface AxeViolation { id: string; impact: string | null; help: string; nodes: string[] }

/**
 * axe-core's serious and critical violations on the page as it is now. axe is evaluated through the DevTools
 * protocol rather than added as a <script>: the page's CSP (script-src 'self', no inline) stays on, so the same run
 * still proves that nothing the page does needs it relaxed.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await page.evaluate(axeSource());
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, o: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
}

/**
 * The checks every finished page passes: axe clean at 1440 and at 375 px, nothing wider than a 375 px screen, no
 * console problem and no CSP violation; full-page screenshots of both widths go to `dir` as `<shot>-<width>.png`.
 */
export async function checkFinishedPage(w: Watched, dir: string, shot: string): Promise<void> {
  const { page } = w;
  assert.equal(await axeViolations(page), [], `${shot} at 1440 px`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${dir}/${shot}-1440.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.waitForTimeout(300);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.is(overflow, 0, `${shot}: nothing wider than the screen at 375 px`);
  assert.equal(await axeViolations(page), [], `${shot} at 375 px`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${dir}/${shot}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  assert.equal(w.problems, [], `${shot}: console`);
  assert.equal(await w.cspViolations(), [], `${shot}: CSP`);
}

/** A fresh watched page, logged in through the dashboard link, on `path`. */
export async function openLoggedIn(browser: Browser, dashboard: { link: string; url: string }, path: string): Promise<Watched> {
  const w = await watchedPage(browser);
  await w.page.goto(dashboard.link);
  await w.page.goto(`${dashboard.url}${path}`);
  return w;
}

/**
 * A list shown as cards on a narrow screen (ui/src/styles/table-cards.css) passes: nothing scrolls sideways, neither
 * the page nor the list's own scroller; every cell of the first row lies across the screen and its status badge
 * (`badge`, a selector within the row) in the first screenful; and for Chrome's accessibility tree, which is what
 * a screen reader reads, it is still a table: a row per record plus the header row, a column header per column and
 * a cell per value, whatever CSS made of their boxes.
 */
export async function assertCardList(page: Page, table: string, badge: string, what: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await page.locator(table).evaluate((t, badge) => {
    const wrap = t.closest('.table-wrap')!;
    const row = t.querySelector('tbody tr')!;
    const b = row.querySelector(badge)!.getBoundingClientRect();
    const cells = [...row.querySelectorAll('td')].map((td) => td.getBoundingClientRect());
    return {
      list: wrap.scrollWidth - wrap.clientWidth,
      page: document.scrollingElement!.scrollWidth - window.innerWidth,
      cellsOut: cells.filter((c) => c.left < 0 || c.right > window.innerWidth).length,
      badge: b.width > 0 && b.left >= 0 && b.right <= window.innerWidth && b.top >= 0 && b.bottom <= window.innerHeight,
      rows: t.querySelectorAll('tbody tr').length,
      columns: t.querySelectorAll('thead th').length,
    };
  }, badge);
  assert.ok(box.list <= 0, `${what}: the list scrolls ${box.list} px sideways`);
  assert.ok(box.page <= 0, `${what}: the page scrolls ${box.page} px sideways`);
  assert.is(box.cellsOut, 0, `${what}: cells of the first row off the screen`);
  assert.ok(box.badge, `${what}: the first row's status is on the first screen`);
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: `document.querySelector(${JSON.stringify(table)})` });
    const count = async (role: string) => (await cdp.send('Accessibility.queryAXTree', { objectId: result.objectId, role })).nodes.length;
    assert.is(await count('table'), 1, `${what}: a table for a screen reader`);
    assert.is(await count('row'), box.rows + 1, `${what}: a row per record and the header row`);
    assert.is(await count('columnheader'), box.columns, `${what}: the column headers`);
    // A row's own header (th scope="row", the card's first line) is a rowheader, not a cell: both are values.
    assert.is(await count('cell') + await count('rowheader'), box.rows * box.columns, `${what}: a cell per value`);
  } finally {
    await cdp.detach();
  }
}
