// The API page in a real browser, against a real `vigil run`: every route of the control plane's OpenAPI listing,
// grouped by owner, with parameters and a curl command that works as printed (with the token in $VIGIL_TOKEN, never
// on the page), and the filter in the URL. Screenshots go to /tmp/vigil-shots/.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';

const SHOTS = '/tmp/vigil-shots';
const s = suite<{ d: Dashboard; browser: Browser; routes: string[] }>('e2e: API page');

/** `METHOD path` of every operation the page shows now. */
const shownOperations = (page: Page): Promise<string[]> =>
  page.locator('.api-op-line').evaluateAll((lines) => lines.map((l) => `${l.querySelector('.badge')?.textContent} ${l.querySelector('.api-path')?.textContent}`));

/** Opens the operation `method path` and returns its body. */
async function open(page: Page, method: string, path: string) {
  const op = page.locator('details.api-op').filter({ has: page.locator(`.api-op-line:has(.badge:text-is("${method}")) .api-path:text-is("${path}")`) });
  await op.locator('summary').click();
  await op.locator('.api-op-body').waitFor();
  return op;
}

if (chromiumAvailable('e2e api page')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard();
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
    const doc = await (await fetch(`${ctx.d.url}/api`, { headers: { authorization: `Bearer ${ctx.d.token}` } })).json() as { paths: Record<string, Record<string, unknown>> };
    ctx.routes = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('every route of the listing, grouped by owner, with its parameters and a curl command that works', async ({ d, browser, routes }) => {
    const { page, context, problems, cspViolations } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/api`);
    await page.waitForSelector('.api-group');
    assert.equal((await shownOperations(page)).sort(), [...routes].sort());
    assert.ok(routes.length > 20);
    const groups = await page.locator('.api-group h2').allTextContents();
    for (const owner of ['capture', 'control-plane', 'proxy', 'ui']) assert.ok(groups.includes(owner), `the ${owner} group is listed`);
    assert.match(await page.locator('.api-toolbar [role="status"]').textContent() ?? '', new RegExp(`^${routes.length} endpoints$`));

    const series = await open(page, 'GET', '/api/gateway/usage/series');
    const params = await series.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim())));
    assert.equal(params.map((p) => p.slice(0, 3)), [
      ['range', 'query', '1h | 24h | 7ddefault 24h'],
      ['by', 'query', 'requests | tokens | costdefault requests'],
      ['top', 'query', 'integerdefault 5 · 1 to 10'],
      ['tenant', 'query', 'string[]at most 10 items'],
    ]);
    assert.match(params[0][3] ?? '', /One of 1h, 24h, 7d/);
    assert.match(await series.locator('.api-facts').textContent() ?? '', /the dashboard token \(bearer\) or the dashboard session cookie/);
    const curl = (await series.locator('.code-block pre').textContent())!;
    assert.is(curl, `curl -s -H "Authorization: Bearer $VIGIL_TOKEN" "${d.url}/api/gateway/usage/series"`);
    // The command as printed, with the token where it belongs: in the environment.
    const answer = JSON.parse(execFileSync('sh', ['-c', curl], { env: { ...process.env, VIGIL_TOKEN: d.token }, encoding: 'utf8' }));
    assert.is(answer.range, '24h');
    assert.ok(Array.isArray(answer.times));

    const records = await open(page, 'GET', '/api/gateway/records');
    assert.match(await records.locator('tr:has(code:text-is("status"))').textContent() ?? '', /matches \^\(\[1-5\]xx\|\[1-5\]\[0-9\]\{2\}\|0\)\$/);
    const one = await open(page, 'GET', '/api/gateway/records/{id}');
    assert.match(await one.locator('tr:has(code:text-is("id"))').textContent() ?? '', /idrequiredpath/);
    assert.is(await one.locator('.code-block pre').textContent(), `curl -s -H "Authorization: Bearer $VIGIL_TOKEN" "${d.url}/api/gateway/records/$ID"`);

    const settings = await open(page, 'PUT', '/api/ui/settings');
    assert.equal(await settings.locator('tbody tr td:first-child').allTextContents(), ['themerequired', 'simple_moderequired', 'reduce_effectsrequired']);
    const put = (await settings.locator('.code-block pre').textContent())!;
    assert.is(put, [
      'curl -s -X PUT',
      '-H "Authorization: Bearer $VIGIL_TOKEN"',
      '-H \'Content-Type: application/json\'',
      '-d \'{"theme":"system","simple_mode":false,"reduce_effects":false}\'',
      `"${d.url}/api/ui/settings"`,
    ].join(' \\\n  '));
    // The example body is one the server accepts.
    const stored = JSON.parse(execFileSync('sh', ['-c', put], { env: { ...process.env, VIGIL_TOKEN: d.token }, encoding: 'utf8' }));
    assert.equal(stored, { theme: 'system', simple_mode: false, reduce_effects: false });

    const health = await open(page, 'GET', '/api/health');
    assert.match(await page.locator('.api-op-line:has(.api-path:text-is("/api/health"))').textContent() ?? '', /No credential/);
    assert.is(await health.locator('.code-block pre').textContent(), `curl -s "${d.url}/api/health"`);

    const html = await page.content();
    assert.not.ok(html.includes(d.token), 'the token is nowhere on the page');
    const hrefs = await page.evaluate(() => [...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href));
    assert.not.ok(hrefs.some((h) => h.includes(d.token) || h.includes('token=')));

    assert.equal(await axeViolations(page), []);
    // From the top: a full-page capture scrolled part-way draws the fixed parts (the skip link) mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/api-1440.png`, fullPage: true });
    assert.equal(problems, []);
    assert.equal(await cspViolations(), []);
    await context.close();
  });

  s('the filter: every word must match, it lives in the URL, and an empty result says how to go back', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/api`);
    await page.waitForSelector('.api-group');
    await page.fill('input[type="search"]', 'usage');
    await page.waitForURL((u) => u.searchParams.get('q') === 'usage');
    assert.equal(await shownOperations(page),
      ['GET /api/gateway/usage', 'GET /api/gateway/usage.csv', 'GET /api/gateway/usage/series', 'GET /api/gateway/policy/usage']);
    assert.match(await page.locator('.api-toolbar [role="status"]').textContent() ?? '', /^4 endpoints of \d+ match$/);
    assert.equal(await page.locator('.api-group h2').allTextContents(), ['capture']);

    await page.fill('input[type="search"]', 'put settings');
    await page.waitForURL((u) => u.searchParams.get('q') === 'put settings');
    assert.equal(await shownOperations(page), ['PUT /api/ui/settings']);

    await page.reload();
    await page.waitForSelector('.api-group');
    assert.is(await page.inputValue('input[type="search"]'), 'put settings');
    assert.equal(await shownOperations(page), ['PUT /api/ui/settings']);

    await page.fill('input[type="search"]', 'no such endpoint');
    await page.waitForSelector('text=No endpoint matches');
    assert.equal(await axeViolations(page), []);
    await page.click('button:has-text("Clear the filter")');
    await page.waitForURL((u) => u.search === '');
    assert.ok((await shownOperations(page)).length > 20);

    // Keyboard: an operation opens with Enter from its line.
    await page.focus('.api-op-line >> nth=0');
    await page.keyboard.press('Enter');
    assert.is(await page.locator('details.api-op >> nth=0').getAttribute('open'), '');
    assert.equal(problems, []);
    await context.close();
  });

  s('375 px: nothing wider than the screen; dark theme', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser, { viewport: { width: 375, height: 812 }, colorScheme: 'dark' });
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/api?q=gateway`);
    await page.waitForSelector('.api-group');
    await open(page, 'GET', '/api/gateway/usage');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.is(overflow, 0);
    assert.equal(await axeViolations(page), []);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/api-375.png`, fullPage: true });
    assert.equal(problems, []);
    await context.close();
  });
}

s.run();
