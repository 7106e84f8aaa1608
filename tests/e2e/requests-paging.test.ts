// The request inspector at more than a page of records, in a real browser against a real `vigil run`: synthetic
// records written into its store before it starts (bench/support/records-filler.ts, capture's own row code) and real
// traffic through the gateway on top. Filters change the URL and the list, back and forward restore both, cursor
// pages walk the list without repeating or skipping a record, and live records appear at the top of the newest page
// without moving what the reader has scrolled to; an older page stays as it is.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { startDashboard, waitForRequests, type Dashboard } from '../support/dashboard.js';
import { waitFor } from '../support/net.js';

/**
 * bench/support/records-filler.ts, loaded at run time: it writes through the store and capture's row code, which lie
 * outside this suite's type project (the browser's), so the compiler is not to follow it.
 */
type FillRecordsAt = (url: string, options: { count: number; to: number; spanMs: number; seed: number }) => Promise<unknown>;
const filler = new URL('../../bench/support/records-filler.js', import.meta.url).href;
const { fillRecordsAt } = (await import(filler)) as { fillRecordsAt: FillRecordsAt };

const s = suite<{ d: Dashboard; browser: Browser }>('e2e: request inspector paging and filters');

const MINUTE = 60_000;
interface Row { id: string; status: number; time: number; path: string; route: string[]; labels: Record<string, string> }

/** The records API's answer for a query, as the page asks it (since=24h unless the query says otherwise). */
async function api(d: Dashboard, query: string): Promise<Row[]> {
  const q = new URLSearchParams(query);
  if (!q.has('since')) q.set('since', '24h');
  if (!q.has('limit')) q.set('limit', '50');
  const res = await fetch(`${d.url}/api/gateway/records?${q}`, { headers: { authorization: `Bearer ${d.token}` } });
  return ((await res.json()) as { data: Row[] }).data;
}

const rowIds = (page: Page): Promise<(string | null)[]> =>
  page.locator('.requests-table tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));

/** Waits until the list shows exactly `ids`, in order. */
async function showing(page: Page, ids: string[], what: string): Promise<void> {
  try {
    await page.waitForFunction((want) => {
      const have = [...document.querySelectorAll('.requests-table tbody tr')].map((tr) => tr.getAttribute('data-id'));
      return have.length === want.length && have.every((id, i) => id === want[i]);
    }, ids, { timeout: 10_000 });
  } catch {
    assert.equal(await rowIds(page), ids, what);
  }
}

/** The list equals the API's answer to `query`, and the URL's query is `search`. */
async function listed(page: Page, d: Dashboard, search: Record<string, string>, what: string): Promise<Row[]> {
  const sorted = (entries: [string, string][]) => JSON.stringify(entries.sort(([a], [b]) => a.localeCompare(b)));
  await page.waitForURL((u) => sorted([...u.searchParams]) === sorted(Object.entries(search)), { timeout: 10_000 });
  const rows = await api(d, new URLSearchParams(search).toString());
  assert.ok(rows.length > 0, `${what}: the API lists records`);
  await showing(page, rows.map((r) => r.id), what);
  return rows;
}

/** The row's top edge in the viewport, in CSS pixels. */
const topOf = (page: Page, id: string): Promise<number> =>
  page.locator(`.requests-table tbody tr[data-id="${id}"]`).evaluate((tr) => tr.getBoundingClientRect().top);

if (chromiumAvailable('e2e requests paging')) {
  s.before(async (ctx) => {
    const now = Date.now();
    // Three spans, with gaps around the 15-minute and one-hour marks, so that `since` chooses the same records for
    // the page and for this test a moment apart.
    ctx.d = await startDashboard({
      seed: async (url) => {
        await fillRecordsAt(url, { count: 1000, to: now - 65 * MINUTE, spanMs: 55 * MINUTE, seed: 1 });
        await fillRecordsAt(url, { count: 1000, to: now - 20 * MINUTE, spanMs: 35 * MINUTE, seed: 2 });
        await fillRecordsAt(url, { count: 400, to: now - 2 * MINUTE, spanMs: 8 * MINUTE, seed: 3 });
      },
    });
    ctx.browser = await launchChromium();
    await ctx.d.traffic(['/api/orders/1', '/api/fail'], 4);
    // The last hour holds the two newer spans and the traffic.
    await waitForRequests(ctx.d, 1404);
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('filters: a status class, an exact status, a label, a route and the time change the URL and the list; back and forward restore them', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/requests`);
    await listed(page, d, {}, 'the newest records');

    await page.click('[role="radiogroup"][aria-label="Status"] [role="radio"]:has-text("5xx")');
    const errors = await listed(page, d, { status: '5xx' }, 'status class 5xx');
    assert.ok(errors.every((r) => r.status >= 500 && r.status < 600));

    // A row's status filters by that exact status (the newest error's: the gateway's own traffic).
    const status = String(errors[0].status);
    await page.locator('.requests-table tbody tr').first().locator(`a[title="Only status ${status}"]`).click();
    const exact = await listed(page, d, { status }, `exact status ${status}`);
    assert.ok(exact.every((r) => String(r.status) === status));
    assert.is(await page.locator('.filter-chip').textContent(), `Status ${status}`);
    assert.is(await page.locator('[role="radiogroup"][aria-label="Status"] [aria-checked="true"]').count(), 0, 'no class is chosen');

    // A row's label filters by that label, beside the status.
    const tenant = exact[0].labels.tenant;
    await page.locator('.requests-table tbody tr').first().locator(`a[title="Only tenant ${tenant}"]`).click();
    const labelled = await listed(page, d, { status, 'label.tenant': tenant }, `status ${status} and tenant ${tenant}`);
    assert.ok(labelled.every((r) => r.labels.tenant === tenant));

    // A row's route filters by that route.
    const route = labelled[0].route[labelled[0].route.length - 1];
    await page.locator('.requests-table tbody tr').first().locator('.route-cell a').click();
    const routed = await listed(page, d, { status, 'label.tenant': tenant, route }, `and route ${route}`);
    assert.ok(routed.every((r) => r.route.includes(route)));

    // The time: the last hour holds fewer of them than the last 24 hours, and only records of the last hour.
    await page.click('[role="radio"][aria-label="Last hour"]');
    const hour = await listed(page, d, { status, 'label.tenant': tenant, route, since: '1h' }, 'and the last hour');
    assert.ok(hour.every((r) => r.time >= Date.now() - 60 * MINUTE));

    // Back through each choice, then forward again.
    await page.goBack();
    await listed(page, d, { status, 'label.tenant': tenant, route }, 'back: 24 hours again');
    await page.goBack();
    await listed(page, d, { status, 'label.tenant': tenant }, 'back: no route');
    await page.goBack();
    await listed(page, d, { status }, 'back: no label');
    await page.goForward();
    await listed(page, d, { status, 'label.tenant': tenant }, 'forward: the label again');
    // A chip removes its filter.
    await page.click(`button[aria-label="Remove the filter tenant ${tenant}"]`);
    await listed(page, d, { status }, 'the label removed');
    await page.click(`button[aria-label="Remove the filter Status ${status}"]`);
    await listed(page, d, {}, 'every record again');
    assert.equal(problems, []);
    await context.close();
  });

  s('the time filter: 15 minutes and 7 days choose different records', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/requests?since=15m&status=5xx`);
    const recent = await listed(page, d, { since: '15m', status: '5xx' }, 'the last 15 minutes');
    assert.ok(recent.every((r) => r.time >= Date.now() - 15 * MINUTE));
    assert.ok(recent.length < 50, `${recent.length} errors in 15 minutes: one page, not full`);
    await page.click('[role="radio"][aria-label="Last 7 days"]');
    const week = await listed(page, d, { since: '7d', status: '5xx' }, 'the last 7 days');
    assert.is(week.length, 50);
    assert.ok(week.some((r) => r.time < Date.now() - 60 * MINUTE), 'older records than the hour');
    await context.close();
  });

  s('paging: Older and Newer walk the list by cursor, the cursor and the filters in the URL, no record repeated or skipped', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/requests?label.tenant=acme`);
    const expected = (await api(d, 'label.tenant=acme&limit=150')).map((r) => r.id);
    assert.is(expected.length, 150);
    await showing(page, expected.slice(0, 50), 'page 1');
    assert.ok(await page.locator('button:has-text("Newer")').isDisabled(), 'nothing is newer than the newest page');

    await page.click('button:has-text("Older")');
    await page.waitForURL((u) => u.searchParams.has('before') && u.searchParams.get('label.tenant') === 'acme');
    await showing(page, expected.slice(50, 100), 'page 2');
    const page2 = page.url();
    await page.click('button:has-text("Older")');
    await showing(page, expected.slice(100, 150), 'page 3');
    const page3 = page.url();

    await page.goBack();
    await page.waitForURL(page2);
    await showing(page, expected.slice(50, 100), 'back to page 2');
    await page.goForward();
    await page.waitForURL(page3);
    await showing(page, expected.slice(100, 150), 'forward to page 3');

    await page.click('button:has-text("Newer")');
    await page.waitForURL((u) => u.searchParams.has('after') && u.searchParams.get('label.tenant') === 'acme');
    await showing(page, expected.slice(50, 100), 'newer than page 3: page 2');
    await page.click('button:has-text("Newer")');
    // Newer than page 2 is the newest page, which is shown under its own URL.
    await page.waitForURL((u) => u.search === '?label.tenant=acme');
    await showing(page, expected.slice(0, 50), 'newer than page 2: the newest');

    // A reload keeps the page the URL names.
    await page.goto(page3);
    await showing(page, expected.slice(100, 150), 'page 3, opened from its URL');
    assert.equal(problems, []);
    await context.close();
  });

  s('live: new records appear at the top of the newest page, and the row the reader scrolled to stays where it was (also as cards, at 375 px)', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    for (const [view, send, width] of [['', '/api/users/live', 1440], ['?status=5xx', '/api/fail', 1440], ['', '/api/users/narrow', 375]] as const) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.goto(`${d.url}/gateway/requests${view}`);
      const before = (await api(d, new URLSearchParams(view).toString())).map((r) => r.id);
      await showing(page, before, `the newest page ${view}`);
      // Scroll so that the 20th row is near the top of the window: that is what the reader is reading.
      const reading = before[19];
      await page.evaluate((id) => {
        const tr = document.querySelector(`.requests-table tbody tr[data-id="${id}"]`)!;
        window.scrollTo(0, window.scrollY + tr.getBoundingClientRect().top - 120);
      }, reading);
      const top = await topOf(page, reading);
      assert.ok(Math.abs(top - 120) < 2, `scrolled: the row is at ${top}`);

      const sentAt = Date.now();
      await d.traffic([send], 3);
      await page.waitForFunction((first) => document.querySelector('.requests-table tbody tr')?.getAttribute('data-id') !== first, before[0], { timeout: 15_000 });
      assert.match(await page.locator('.requests-table tbody tr').first().locator('.request-path').textContent() ?? '', send);
      assert.ok(Math.abs(await topOf(page, reading) - top) < 2, `${view || 'every record'} at ${width} px: the row read stays at ${top}, now at ${await topOf(page, reading)}`);
      // The first of the three shows the list moved; capture may store the others a moment later. The next view's
      // read of the API is the list it expects: wait until all three are stored.
      await waitFor(async () => (await api(d, '')).filter((r) => r.path === send && r.time >= sentAt - 1_000).length >= 3,
        { timeoutMs: 10_000, intervalMs: 250, what: `the three ${send} records stored` });
    }
    await context.close();
  });

  s('an older page stays as it is while records arrive, and says that newer ones did', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/requests`);
    await page.waitForSelector('.requests-table tbody tr');
    await page.click('button:has-text("Older")');
    await page.waitForURL((u) => u.searchParams.has('before'));
    const expected = (await api(d, new URL(page.url()).search.slice(1))).map((r) => r.id);
    await showing(page, expected, 'page 2');
    await d.traffic(['/api/orders/after'], 2);
    await page.waitForSelector('text=Newer requests arrived', { timeout: 15_000 });
    assert.equal(await rowIds(page), expected, 'the page has not moved');
    await page.click('button:has-text("Newest")');
    await page.waitForURL((u) => u.search === '');
    await page.waitForFunction(() => /\/api\/orders\/after/.test(document.querySelector('.requests-table tbody tr .request-path')?.textContent ?? ''));
    await context.close();
  });
}

s.run();
