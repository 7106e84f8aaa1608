// The request inspector in a real browser, over real traffic: the list, its filters in the URL, a record with its
// masked values marked and traced to their rules, the record as a curl command that runs as pasted, and new records
// arriving while the first page is open.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { assertCardList, axeViolations, chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { startDashboard, waitForRequests, type Dashboard } from '../support/dashboard.js';

const s = suite<{ d: Dashboard; browser: Browser }>('e2e: request inspector');

if (chromiumAvailable('e2e requests')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard();
    ctx.browser = await launchChromium();
    await ctx.d.traffic(['/api/orders/1', '/api/fail'], 6, { headers: { authorization: 'Bearer upstream-secret' } });
    await ctx.d.traffic(['/api/payments/charge'], 1, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer upstream-secret' }, body: JSON.stringify({ card: { number: '4111111111111111' }, amount: 12 }),
    });
    await waitForRequests(ctx.d, 7);
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('the list: newest first, status badges, masked counts; the status filter lives in the URL', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/requests`);
    await page.waitForSelector('.requests-table tbody tr');
    assert.is(await page.locator('.requests-table tbody tr').count(), 7);
    assert.match(await page.locator('.requests-table tbody tr').first().textContent() ?? '', /POST\s*\/api\/payments\/charge/);
    assert.is(await page.locator('.requests-table tbody tr').first().locator('.masked').textContent(), '2', 'the Authorization header and the card number');
    assert.is(await page.locator('.requests-table tbody tr').first().locator('.masked').evaluate((e) => getComputedStyle(e).color),
      await page.locator('.requests-table tbody tr').first().locator('.request-path').evaluate((e) => getComputedStyle(e).color), 'a masked count reads as information, in the text colour');
    await page.click('[role="radio"]:has-text("5xx")');
    await page.waitForURL((u) => u.searchParams.get('status') === '5xx');
    await page.waitForFunction(() => document.querySelectorAll('.requests-table tbody tr').length === 3);
    assert.equal([...new Set(await page.locator('.requests-table tbody .badge').filter({ hasText: /^\d+$/ }).allTextContents())], ['503']);
    await page.goBack();
    await page.waitForFunction(() => document.querySelectorAll('.requests-table tbody tr').length === 7);
    assert.equal(problems, []);
    await context.close();
  });

  s('text, method and tenant filters: in the URL, shown as chips that remove them; the route filter visible at rest', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/requests`);
    await page.waitForSelector('.requests-table tbody tr');
    const rows = () => page.locator('.requests-table tbody tr');
    // The route link is marked as a filter without a hover: its icon shows.
    assert.ok(await rows().first().locator('.route-filter-icon').isVisible());
    await page.fill('input[placeholder="Filter by path"]', 'ORDERS');
    await page.waitForURL((u) => u.searchParams.get('q') === 'ORDERS');
    await page.waitForFunction(() => document.querySelectorAll('.requests-table tbody tr').length === 3);
    assert.ok((await rows().allTextContents()).every((t) => t.includes('/api/orders/1')));
    await page.selectOption('select:has(option:text("Any method"))', 'POST');
    await page.waitForURL((u) => u.searchParams.get('method') === 'POST');
    await page.waitForSelector('text=No request matches');
    await page.click('.filter-chip:has-text("Path has") button');
    await page.waitForFunction(() => document.querySelectorAll('.requests-table tbody tr').length === 1);
    assert.match(await rows().first().textContent() ?? '', /\/api\/payments\/charge/);
    await page.click('.filter-chip:has-text("Method") button');
    await page.fill('input[placeholder="Tenant"]', 'globex');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('tenant') === 'globex');
    await page.waitForFunction(() => document.querySelectorAll('.requests-table tbody tr').length === 3);
    assert.ok((await rows().locator('.labels-cell').allTextContents()).every((t) => t.includes('tenant: globex')));
    assert.equal(await page.locator('.filter-chip').allTextContents(), ['Tenant globex']);
    await page.click('.filter-chip button');
    await page.waitForFunction(() => document.querySelectorAll('.requests-table tbody tr').length === 7);
    assert.is(await page.inputValue('input[placeholder="Tenant"]'), '', 'the field follows the URL');
    assert.equal(problems, []);
    await context.close();
  });

  s('375 px: each record a card that needs no sideways scroll, still a table for a screen reader; axe clean in both themes', async ({ d, browser }) => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, context, problems } = await watchedPage(browser, { viewport: { width: 375, height: 812 }, colorScheme });
      await page.goto(d.link);
      await page.goto(`${d.url}/gateway/requests`);
      await page.waitForSelector('.requests-table tbody tr');
      await assertCardList(page, '.requests-table', 'td:nth-child(3) .badge', `requests at 375 px (${colorScheme})`);
      const first = page.locator('.requests-table tbody tr').first();
      // The card's lines: the request on the first, then its status, its time and duration; the route named as such.
      const top = async (cell: string) => (await first.locator(cell).boundingBox())!.y;
      assert.ok(await top('.request-cell') < await top('td:nth-child(3)'), 'the request above its status');
      assert.ok(Math.abs(await top('td:nth-child(3)') - await top('td:nth-child(1)')) < 8, 'the status and the time on one line');
      assert.is(await first.locator('.route-cell').evaluate((td) => getComputedStyle(td, '::before').content), '"Route" / ""', 'the route named, for the eye only');
      assert.equal(await axeViolations(page), [], `requests at 375 px (${colorScheme})`);
      // The row still opens its record.
      await first.locator('a.request-link').click();
      await page.waitForSelector('h1:has-text("POST /api/payments/charge")');
      assert.equal(problems, []);
      await context.close();
    }
  });

  s('a record: what the policy did, and every masked value marked', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/requests`);
    await page.click('.requests-table tbody tr:first-child a');
    await page.waitForURL((u) => u.pathname.startsWith('/gateway/requests/'));
    await page.waitForSelector('h1:has-text("POST /api/payments/charge")');
    assert.is(await page.locator('nav a[aria-current="page"]').textContent(), 'Requests', 'the list it belongs to is current, not the overview');
    const marks = await page.locator('mark.redacted').allTextContents();
    assert.equal(marks.sort(), ['"[REDACTED]"', '[REDACTED]'], 'the card number in the body, the Authorization header');
    const body = await page.locator('.json-view').first().textContent();
    assert.match(body ?? '', /"amount": 12/);
    assert.not.match(await page.content(), /4111111111111111|upstream-secret/);
    // Each masked value beside the rule that masked it, and the setting that did.
    const masks = page.locator('.masked-by tbody tr');
    await masks.first().waitFor();
    const byField = Object.fromEntries((await masks.evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]))));
    assert.match(byField['Request header Authorization'] ?? '', /all-traffic\s*redact\.headers Authorization/);
    assert.match(byField['Request body $.card.number'] ?? '', /payments\s*redact\.json_fields \$\.card\.number/);
    // As curl: masked values stay masked and say so; pasted into a shell, it goes through the gateway as captured.
    const curl = await page.locator('.code-block pre').last().textContent() ?? '';
    assert.match(curl, /^# \[REDACTED\] marks values the policy masked before storage \(header Authorization, body\)/);
    assert.match(curl, /curl -g -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/payments\/charge'/);
    const { stdout } = await promisify(execFile)('sh', ['-c', `${curl} -sS -o /dev/null -w '%{http_code}'`]);
    assert.is(stdout, '200', 'the gateway answered the pasted command');
    await waitForRequests(d, 8);
    await page.goto(`${d.url}/gateway/requests/0190f3a2-7c4d-7b1e-9a3f-2c1d4e5f6a7b`);
    await page.waitForSelector('text=This request is not stored');
    await context.close();
  });

  s('new records appear on the first page while it is open', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/requests?route=${encodeURIComponent('/**')}`);
    await page.waitForSelector('.filter-chip');
    // The chip shows with the URL; the rows come with the API's answer.
    await page.waitForSelector('.requests-table tbody tr');
    const before = await page.locator('.requests-table tbody tr').count();
    await d.traffic(['/api/users/live'], 2);
    await page.waitForFunction((n) => document.querySelectorAll('.requests-table tbody tr').length === n + 2, before, { timeout: 15_000 });
    assert.match(await page.locator('.requests-table tbody tr').first().textContent() ?? '', /\/api\/users\/live/);
    await context.close();
  });
}

s.run();
