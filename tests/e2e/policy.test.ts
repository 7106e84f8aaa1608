// The gateway's Policy page in a real browser, over real traffic through a real gateway: the rules in order with
// what they do and the routes they matched, "try a request" with a card number in the body, keyboard use, axe, and
// the state without rules. Screenshots go to /tmp/vigil-shots/policy-*.png (1440, 1920 and 375 px wide).
import { mkdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { startDashboard, waitForRequests, type Dashboard } from '../support/dashboard.js';

const SHOTS = '/tmp/vigil-shots';
const CARD = '4111 1111 1111 1111';

const RULES = `rules:
  - name: all-traffic
    match: { path: /** }
    labels: { tenant: header:X-Tenant-Id }
    redact: { headers: [Authorization] }
  - name: payments
    match: { path: /api/payments/**, methods: [POST] }
    redact: { json_fields: [$.card.number, $.**.cvc], detect: [card_number] }
  - name: admin
    match: { path: /admin/** }
    restrict: [request_body, response_body]
  - name: search
    match: { path: /api/search }
    sample: 0.1
    keep_errors: true
  - name: llm
    match: { path: /v1/chat/completions }
    meter: { tokens: $.usage.total_tokens }
`;

const s = suite<{ d: Dashboard; browser: Browser }>('e2e: gateway policy');

async function openPolicy(page: Page, d: Dashboard): Promise<void> {
  await page.goto(d.link);
  await page.goto(`${d.url}/gateway/policy`);
  await page.waitForSelector('.rule-list');
}

const ruleItem = (page: Page, name: string) => page.locator(`li.rule[data-rule="${name}"]`);

if (chromiumAvailable('e2e policy')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    ctx.d = await startDashboard({ rules: RULES });
    ctx.browser = await launchChromium();
    await ctx.d.traffic(['/api/orders/1', '/api/orders/ord_v2', '/api/orders/3'], 6);
    await ctx.d.traffic(['/admin/users', '/ADMIN/users', '/admin/users'], 3, { method: 'POST', body: '{"password":"hunter2"}', headers: { 'content-type': 'application/json' } });
    await ctx.d.traffic(['/api/payments/charge'], 2, { method: 'POST', body: JSON.stringify({ card: { number: '4111111111111111' } }), headers: { 'content-type': 'application/json' } });
    await ctx.d.traffic(['/api/search'], 1);
    await waitForRequests(ctx.d, 12);
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('the rules in order, with what they do and how many requests each matched in the last 24 hours', async ({ d, browser }) => {
    const { page, context, problems, cspViolations } = await watchedPage(browser);
    await openPolicy(page, d);
    const names = await page.locator('.rule-list > li.rule:not(.rule-unmatched) .rule-name').allTextContents();
    assert.equal(names, ['all-traffic', 'payments', 'admin', 'search', 'llm']);
    const badges = async (name: string) => ruleItem(page, name).locator('.rule-badges .badge').allTextContents();
    assert.equal(await badges('all-traffic'), ['redact', 'label']);
    assert.equal(await badges('payments'), ['redact']);
    assert.equal(await badges('admin'), ['restrict']);
    assert.equal(await badges('search'), ['sample 10 %']);
    assert.equal(await badges('llm'), ['meter']);
    assert.match(await ruleItem(page, 'payments').locator('.rule-match').textContent() ?? '', /^POST on \/api\/payments\/\*\*$/);
    // Counts come from what the telemetry lane stored: 12 requests through the gateway.
    await page.waitForFunction(() => document.querySelector('li.rule[data-rule="all-traffic"] .rule-count')?.textContent?.startsWith('12 requests'));
    const count = async (name: string) => (await ruleItem(page, name).locator('.rule-count').textContent())?.replace(' in the last 24 hours', '');
    assert.is(await count('admin'), '3 requests');
    assert.is(await count('payments'), '2 requests');
    assert.is(await count('llm'), '0 requests');
    assert.equal(problems, []);
    assert.equal(await cspViolations(), []);
    await context.close();
  });

  s('a rule opens to its config as YAML and the routes it matched, each linking to its requests', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await openPolicy(page, d);
    const admin = ruleItem(page, 'admin');
    await admin.locator('.rule-toggle').click();
    assert.is(await admin.locator('.rule-toggle').getAttribute('aria-expanded'), 'true');
    const yaml = await admin.locator('.code-block pre').textContent();
    assert.is(yaml, '- name: admin\n  match:\n    path: /admin/**\n  restrict: [request_body, response_body]');
    assert.match(await admin.locator('.rule-source').textContent() ?? '', /vigil\.yaml:\d+$/);
    assert.match(await admin.locator('.rule-sentences').textContent() ?? '', /Never captures request bodies and response bodies/);
    await admin.locator('.rule-routes tbody tr').first().waitFor();
    const rows = await admin.locator('.rule-routes tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())));
    // The spelling that only the fold made match stays visible.
    assert.equal(rows, [['POST', '/admin/users', '2'], ['POST', '/ADMIN/users', '1']]);
    // Ids become parameters as vigil spec writes them, a prefixed one (`ord_v2`) too: one route, not one per id.
    const all = ruleItem(page, 'all-traffic');
    await all.locator('.rule-toggle').click();
    await all.locator('.rule-routes tbody tr').first().waitFor();
    const allRows = await all.locator('.rule-routes tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())));
    assert.ok(allRows.some((r) => r[0] === 'GET' && r[1] === '/api/orders/{id}' && r[2] === '6'), JSON.stringify(allRows));
    assert.not.ok(allRows.some((r) => r[1]?.includes('ord_v2')));
    const href = await admin.locator('.rule-routes tbody tr a').first().getAttribute('href');
    assert.is(href, `/gateway/requests?route=${encodeURIComponent('/admin/**')}`);
    await admin.locator('.rule-routes tbody tr a').first().click();
    await page.waitForURL((u) => u.pathname === '/gateway/requests' && u.searchParams.get('route') === '/admin/**');
    await page.waitForSelector('.requests-table tbody tr');
    assert.is(await page.locator('.requests-table tbody tr').count(), 3);
    assert.equal(problems, []);
    await context.close();
  });

  s('try a request: a card number in the body shows [REDACTED] in the record, and the rules it matched are marked', async ({ d, browser }) => {
    const { page, context, problems, cspViolations } = await watchedPage(browser);
    await openPolicy(page, d);
    await page.selectOption('select.input', 'POST');
    await page.fill('input.input-mono', '/api/payments/charge?token=abc');
    await page.fill('textarea[id$="-headers"]', 'Authorization: Bearer sk_live_123\nX-Tenant-Id: acme');
    await page.fill('textarea[id$="-body"]', JSON.stringify({ amount: 1250, card: { number: CARD, cvc: '123' }, note: `card ${CARD}` }));
    await page.click('button:has-text("Try it")');
    await page.waitForSelector('.try-result .json-view');
    const record = await page.locator('.try-result .json-view').textContent() ?? '';
    assert.match(record, /"number": "\[REDACTED\]"/);
    assert.match(record, /"cvc": "\[REDACTED\]"/);
    assert.match(record, /"note": "card \[REDACTED\]"/, 'the detector masks the card number in free text');
    assert.match(record, /"Authorization": "\[REDACTED\]"/);
    assert.match(record, /"amount": 1250/);
    assert.not.match(record, /4111|sk_live_123/);
    assert.ok(await page.locator('.try-result mark.redacted').count() >= 4);
    const matched = await page.locator('li.rule-matched').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-rule')));
    assert.equal(matched, ['all-traffic', 'payments']);
    const explained = await page.locator('.explanations').textContent() ?? '';
    assert.match(explained, /Matched rules all-traffic and payments/);
    assert.match(explained, /Masked: 4 values are stored as \[REDACTED\], by the redactions of all-traffic and payments\./);
    assert.match(explained, /Labelled: tenant = acme\./);
    // Nothing of a try is stored: the count of stored records is what the traffic made.
    const res = await fetch(`${d.url}/api/gateway/records?limit=200`, { headers: { authorization: `Bearer ${d.token}` } });
    assert.is(((await res.json()) as { data: unknown[] }).data.length, 12);

    await page.screenshot({ path: `${SHOTS}/policy-try-1440.png`, fullPage: true });
    assert.equal(problems, []);
    assert.equal(await cspViolations(), []);
    await context.close();
  });

  s('a restricted route says why its bodies are not stored', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await openPolicy(page, d);
    await page.selectOption('select.input', 'POST');
    await page.fill('input.input-mono', '/Admin/users');
    await page.fill('textarea[id$="-body"]', '{"password":"hunter2"}');
    await page.click('button:has-text("Try it")');
    await page.waitForSelector('.explanation-danger');
    assert.is(await page.locator('.explanation-danger').textContent(),
      'Restricted: the request and response bodies are not stored because rule admin restricts /admin/**.');
    assert.match(await page.locator('.try-result .json-view').textContent() ?? '', /"request_body": null/);
    assert.not.match(await page.locator('.try-result').textContent() ?? '', /hunter2/);
    await context.close();
  });

  s('keyboard only: open a rule, fill in the try panel and send it with Ctrl+Enter', async ({ d, browser }) => {
    const { page, context } = await watchedPage(browser);
    await openPolicy(page, d);
    await ruleItem(page, 'payments').locator('.rule-toggle').focus();
    await page.keyboard.press('Enter');
    assert.is(await ruleItem(page, 'payments').locator('.rule-toggle').getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('Space');
    assert.is(await ruleItem(page, 'payments').locator('.rule-toggle').getAttribute('aria-expanded'), 'false');
    await page.locator('input.input-mono').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('/api/search');
    await page.keyboard.press('Tab');
    await page.keyboard.type('X-Tenant-Id: globex');
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('.try-result');
    assert.equal(await page.locator('li.rule-matched').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-rule'))), ['all-traffic', 'search']);
    assert.match(await page.locator('.explanations').textContent() ?? '', /Sampled: rule search keeps the bodies of 10 % of requests\./);
    await context.close();
  });

  s('try: the example is one the policy masks; a sensitive value no rule masks is flagged with the rule that would; times as dates', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await openPolicy(page, d);
    await page.click('button:has-text("Fill in an example")');
    const body = JSON.parse(await page.inputValue('.try-form textarea >> nth=1'));
    assert.is(body.card.number, CARD, 'the example fills the fields the masking rule names');
    await page.click('button:has-text("Try it")');
    await page.waitForSelector('.try-result');
    assert.equal(await page.locator('li.rule-matched').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-rule'))), ['all-traffic', 'payments']);
    assert.is(await page.locator('.unmasked').count(), 0, 'everything sensitive in the example is masked');
    const record = await page.locator('.try-result .json-view').textContent() ?? '';
    assert.not.match(record, /4111/);
    assert.match(record, /"time": "\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z"/, 'the time as a date, not epoch ms');
    // An email in a field no rule names, on a route whose rules detect card numbers only: flagged, with the fix.
    await page.fill('.try-form textarea >> nth=1', JSON.stringify({ card: { number: CARD }, contact: 'ada@example.com' }));
    await page.click('button:has-text("Try it")');
    await page.waitForSelector('.unmasked');
    const flag = await page.locator('.unmasked').textContent() ?? '';
    assert.match(flag, /A value looks sensitive and would be stored in clear/);
    assert.match(flag, /request body field \$\.contact holds a\*\*\*@example\.com, which the email detector recognises \(email address\)\. No rule masks this field\./);
    assert.match(await page.locator('.unmasked .code-block pre').textContent() ?? '', /redact: \{ json_fields: \["\$\.contact"\] \}/);
    assert.equal(problems, []);
    await context.close();
  });

  s('axe finds nothing serious, with a rule open and a result shown; screenshots at 1440, 1920 and 375 px, light and dark', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await openPolicy(page, d);
    await ruleItem(page, 'admin').locator('.rule-toggle').click();
    await ruleItem(page, 'admin').locator('.rule-routes tbody tr').first().waitFor();
    await page.click('button:has-text("Fill in an example")');
    await page.click('button:has-text("Try it")');
    await page.waitForSelector('.try-result');
    assert.equal(await axeViolations(page), []);
    await page.screenshot({ path: `${SHOTS}/policy-1440.png`, fullPage: true });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.screenshot({ path: `${SHOTS}/policy-1920.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(100);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `nothing wider than the screen (${width} px)`);
    assert.equal(await axeViolations(page), []);
    await page.screenshot({ path: `${SHOTS}/policy-375.png`, fullPage: true });
    // The dark theme passes the same contrast checks.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: 'dark' });
    // Colours change with a transition: let it end before axe measures contrast.
    await page.waitForTimeout(400);
    assert.equal(await axeViolations(page), []);
    await page.screenshot({ path: `${SHOTS}/policy-1440-dark.png`, fullPage: true });
    assert.equal(problems, []);
    await context.close();
  });
}

const empty = suite<{ d: Dashboard; browser: Browser }>('e2e: gateway policy without rules');

if (chromiumAvailable('e2e policy without rules')) {
  empty.before(async (ctx) => {
    ctx.d = await startDashboard({ rules: '', gateway: false });
    ctx.browser = await launchChromium();
  });
  empty.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  empty('no rules: the page says everything is captured and shows the lines that add one', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/gateway/policy`);
    await page.waitForSelector('text=No rules: everything is captured as it is');
    assert.is(await page.locator('.empty-state .code-block pre').textContent(), 'rules:\n  - name: all-traffic\n    match: { path: /** }');
    // Trying a request still works: nothing matches, everything is kept.
    await page.fill('input.input-mono', '/anything');
    await page.click('button:has-text("Try it")');
    await page.waitForSelector('.try-result');
    assert.match(await page.locator('.explanations').textContent() ?? '', /No rule matched: the request would be captured in full/);
    assert.equal(await axeViolations(page), []);
    await page.screenshot({ path: `${SHOTS}/policy-empty-1440.png`, fullPage: true });
    assert.equal(problems, []);
    await context.close();
  });
}

s.run();
empty.run();
