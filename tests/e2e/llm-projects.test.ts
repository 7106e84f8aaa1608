// The LLM area's first run and projects in a real browser on a real `vigil run`: no project → create one, its key
// shown once and never again; the empty traces page says how to send the first trace, and one sent with that key
// appears live; settings, a key rotation with a grace period and a deletion through the dashboard; a project the
// config file declares is read-only, and says why. Screenshots go to /tmp/vigil-shots/.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, chromiumAvailable, launchChromium, watchedPage } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { waitFor } from '../support/net.js';

const SHOTS = '/tmp/vigil-shots';
const CONFIG_KEY = 'prod-bot-key-0123456789abcdef';
const s = suite<{ d: Dashboard; browser: Browser; key?: string }>('e2e: LLM projects and the first run');

const projects = async (d: Dashboard) =>
  (await (await fetch(`${d.url}/api/llm/projects`, { headers: { authorization: `Bearer ${d.token}` } })).json()) as { data: { name: string; settings: Record<string, unknown>; keys: { hint: string; expires_at: string | null }[] }[] };

const ingest = (d: Dashboard, key: string, name: string) => fetch(`${d.url}/v1/traces`, {
  method: 'POST', headers: { 'content-type': 'application/json', 'x-service-project-key': key },
  body: JSON.stringify({ traces: [{ model: 'gpt-4o-mini', name, latency_ms: 300, tokens: { input: 10, output: 2 } }] }),
});

/** A command line run by a POSIX shell, as pasted into a terminal. */
function runShell(command: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => { stdout += b; });
    child.stderr.on('data', (b) => { stderr += b; });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Nothing wider than the screen, axe clean, and a screenshot at 375 px. */
async function narrow(page: Page, shot: string): Promise<void> {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.waitForTimeout(300);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.is(overflow, 0, `${shot}: nothing wider than the screen at 375 px`);
  assert.equal(await axeViolations(page), [], `${shot} at 375 px`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}/${shot}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

if (chromiumAvailable('e2e llm projects')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard({ gateway: false, rules: '', llm: `  projects:\n    - { name: prod-bot, key: ${CONFIG_KEY} }` });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('a new project from the traces page: its key once, then never again; the empty page says how to send a trace; a trace sent with the key appears live', async (ctx) => {
    const { d, browser } = ctx;
    const { page, context, problems, cspViolations } = await watchedPage(browser);
    await page.goto(d.link);
    // Only the config file's project exists: the sidebar's project is it. Start a project of our own from the palette.
    await page.goto(`${d.url}/llm/projects`);
    await page.waitForSelector('table.projects-table');
    assert.match(await page.locator('table.projects-table tbody').textContent() ?? '', /prod-bot\s*config file/);
    await page.keyboard.press('Control+k');
    await page.waitForSelector('dialog.palette[open]');
    await page.keyboard.type('create an llm project');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/llm/projects' && u.search === '?new=1');
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.placeholder === 'checkout-bot', undefined, { timeout: 5000 });

    await page.keyboard.type('bad name!');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.field-error');
    assert.match(await page.locator('.field-error').textContent() ?? '', /letters, digits/);
    await page.fill('input[placeholder="checkout-bot"]', 'checkout-bot');
    await page.click('button:has-text("Create project")');
    await page.waitForSelector('.key-once');
    const key = (await page.locator('.key-once pre').first().textContent())!.trim();
    assert.match(key, /^vk_[A-Za-z0-9_-]{43}$/);
    assert.match(await page.locator('.key-once').textContent() ?? '', /Copy this key now: you won't see it again/);
    // Its first trace, the key already in the command while it is shown anyway.
    const firstTrace = (await page.locator('.key-once .code-block pre').nth(1).textContent())!;
    assert.match(firstTrace, new RegExp(`^curl -X POST ${d.url.replace(/\./g, '\\.')}/v1/traces \\\\\n  -H "X-Service-Project-Key: ${key}"`));
    // The panel takes the focus in an effect, which runs after the frame that drew it (onboarding.tsx KeyOnce).
    await waitFor(() => page.evaluate(() => document.activeElement?.classList.contains('key-once')), { timeoutMs: 5_000, intervalMs: 100, what: 'the focus on the key' }).catch(() => undefined);
    assert.is(await page.evaluate(() => document.activeElement?.classList.contains('key-once')), true, 'focus moves to the key and its warning');
    assert.equal(await axeViolations(page), []);
    await page.screenshot({ path: `${SHOTS}/llm-key-once-1440.png`, fullPage: true });
    // The server keeps a hint only; the list the page reads never holds the key.
    const listed = await projects(d);
    const made = listed.data.find((p) => p.name === 'checkout-bot')!;
    assert.ok(made && made.keys.length === 1 && key.startsWith(made.keys[0].hint.replace('…', '')));
    assert.not.ok(JSON.stringify(listed).includes(key));

    await page.click('button:has-text("I have saved the key")');
    await page.waitForURL((u) => u.pathname === '/llm' && u.searchParams.get('project') === 'checkout-bot');
    await page.waitForSelector('text=No traces in checkout-bot yet');
    assert.is(await page.locator('.toolbar').count(), 0, 'no filters before there is anything to filter');
    assert.not.ok((await page.content()).includes(key), 'the key is gone from the page');
    const blocks = await page.locator('.code-block pre').allTextContents();
    assert.match(blocks[0], new RegExp(`^curl -X POST ${d.url.replace(/\./g, '\\.')}/v1/traces`));
    assert.match(blocks[0], /-H "X-Service-Project-Key: \$VIGIL_PROJECT_KEY"/);
    assert.match(blocks[1], /npm pack \.\/clients\/node[\s\S]*npm install \/path\/to\/vigil\/vigil-llm-client-[\d.]+\.tgz/, 'the client installs from a packed tarball');
    assert.match(blocks[2], new RegExp(`createClient\\(\\{\\n  url: '${d.url.replace(/\./g, '\\.')}',\\n  projectKey: process\\.env\\.VIGIL_PROJECT_KEY,\\n\\}\\)`));
    assert.equal(await axeViolations(page), []);
    await page.screenshot({ path: `${SHOTS}/llm-no-traces-1440.png`, fullPage: true });

    // The curl's body, sent with the key the page showed: the trace appears without a reload.
    const body = blocks[0].match(/-d '([\s\S]*)'$/)![1];
    const sent = await fetch(`${d.url}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-project-key': key }, body });
    assert.is(sent.status, 202);
    await page.waitForSelector('table.traces-table tbody tr', { timeout: 15_000 });
    assert.match(await page.locator('table.traces-table tbody tr').first().textContent() ?? '', /hello.*gpt-4o-mini.*greeting/);

    // The key-once panel's command, pasted in a shell as it was shown: a second trace arrives.
    const pasted = await runShell(firstTrace);
    assert.is(pasted.code, 0, pasted.stderr);
    assert.match(pasted.stdout, /"accepted":1/);
    await page.waitForFunction(() => document.querySelectorAll('table.traces-table tbody tr').length === 2, undefined, { timeout: 15_000 });

    await page.reload();
    await page.waitForSelector('table.traces-table');
    assert.not.ok((await page.content()).includes(key), 'never again after a reload');
    assert.equal(problems, []);
    assert.equal(await cspViolations(), []);
    ctx.key = key;
    await context.close();
  });

  s('settings are saved, a bad value is refused on its field; rotation shows the new key once and keeps the old for the grace period', async (ctx) => {
    const { d, browser } = ctx;
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/llm/projects/checkout-bot`);
    await page.waitForSelector('form.settings-form');
    await page.fill('label:has-text("Monthly cap (USD)") + input', 'lots');
    await page.fill('label:has-text("Keep traces for") + input', '14d');
    await page.click('button:has-text("Save settings")');
    await page.waitForSelector('.field-error');
    assert.match(await page.locator('.field-error').textContent() ?? '', /An amount in USD/);
    await page.fill('label:has-text("Monthly cap (USD)") + input', '25');
    await page.fill('label:has-text("Traces a request") + input', '200');
    await page.fill('textarea', '$.metadata.phone\n$.input.**.email');
    await page.click('label.check:has-text("IBANs") input');
    await page.click('button:has-text("Save settings")');
    await page.waitForSelector('text=Saved.');
    const saved = (await projects(d)).data.find((p) => p.name === 'checkout-bot')!;
    assert.equal(saved.settings, {
      budget: { monthly_usd: 25 }, limits: { items_per_batch: 200 }, retention: '14d',
      redact: { json_fields: ['$.metadata.phone', '$.input.**.email'], detect: ['email', 'card_number', 'jwt', 'api_key', 'bearer_token', 'aws_access_key_id', 'private_key', 'us_ssn'] },
    });
    // What only the server knows comes back on the form: a JSON path that does not compile.
    await page.fill('textarea', '$.metadata[');
    await page.click('button:has-text("Save settings")');
    await page.waitForSelector('textarea[aria-invalid="true"]');
    assert.match(await page.locator('textarea + .field-error').textContent() ?? '', /unclosed "\["/);

    await page.click('[role="radio"][aria-label="The old key keeps working for 1 hour"]');
    await page.click('button:has-text("Rotate key…")');
    assert.match(await page.locator('.confirm').textContent() ?? '', /keeps working for 1 hour/);
    await page.click('button:has-text("Rotate the key")');
    await page.waitForSelector('.key-once');
    const fresh = (await page.locator('.key-once pre').textContent())!.trim();
    assert.match(fresh, /^vk_/);
    assert.is.not(fresh, ctx.key);
    assert.is((await ingest(d, ctx.key!, 'old key in grace')).status, 202, 'the old key works for its grace period');
    assert.is((await ingest(d, fresh, 'new key')).status, 202);
    await page.click('button:has-text("I have saved the key")');
    await page.waitForSelector('.key-list li:nth-child(2)');
    assert.match(await page.locator('.key-list').textContent() ?? '', /stops at/);
    assert.not.ok((await page.content()).includes(fresh));
    assert.equal(await axeViolations(page), []);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/llm-project-1440.png`, fullPage: true });
    await narrow(page, 'llm-project');
    // The one refused save above is the browser's console line for its 400; nothing else.
    assert.equal(problems.filter((p) => !/status of 400 \(Bad Request\)/.test(p)), []);
    assert.is(problems.length, 1);
    await context.close();
  });

  s('a project the config file declares is read-only, and the page says where to change it', async ({ d, browser }) => {
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/llm/projects/prod-bot`);
    await page.waitForSelector('form.settings-form');
    // Said once, above the keys and settings it covers, not once a card.
    assert.is(await page.locator('text=Read-only: the config file owns this project').count(), 1);
    const notice = await page.locator('.notice').first().textContent() ?? '';
    assert.match(notice, /Read-only: the config file owns this project/);
    assert.match(notice, /vigil\.yaml/);
    // The fields are read-only values: the one the file sets, the defaults said as such; none greyed as disabled.
    assert.is(await page.locator('form.settings-form input:not([readonly]), form.settings-form textarea:not([readonly])').count(), 0, 'every field is read-only');
    assert.is(await page.locator('form.settings-form :disabled').count(), 0, 'nothing is greyed out as disabled');
    assert.is(await page.locator('label:has-text("Traces a request") + input').inputValue(), '1000 (default)');
    const look = await page.locator('label:has-text("Traces a request") + input').evaluate((el) => {
      const css = getComputedStyle(el);
      return { border: css.borderTopColor, background: css.backgroundColor, color: css.color, body: getComputedStyle(document.body).color };
    });
    assert.is(look.background, 'rgba(0, 0, 0, 0)', 'no input box');
    assert.is(look.border, 'rgba(0, 0, 0, 0)', 'no input border');
    assert.is(look.color, look.body, 'the value in the text colour, not greyed');
    const detectors = await page.locator('.detectors-read').textContent() ?? '';
    assert.match(detectors, /E-mail addresses/);
    assert.match(detectors, /Card numbers \(Luhn\)/);
    assert.is(await page.locator('input[type="checkbox"]').count(), 0);
    assert.is(await page.locator('button:has-text("Save settings")').count(), 0);
    assert.is(await page.locator('button:has-text("Rotate key")').count(), 0);
    assert.is(await page.locator('text=Delete the project').count(), 0);
    assert.is(await page.locator('text=The same from the CLI').count(), 0, 'no CLI command that would be refused');
    await page.screenshot({ path: `${SHOTS}/llm-project-config-1440.png`, fullPage: true });
    await narrow(page, 'llm-project-config');
    // The API refuses as the page says.
    const refused = await fetch(`${d.url}/api/llm/projects/prod-bot/settings`, { method: 'PUT', headers: { authorization: `Bearer ${d.token}`, 'content-type': 'application/json' }, body: '{}' });
    assert.is(refused.status, 409);
    assert.equal(await axeViolations(page), []);
    assert.equal(problems, []);
    await context.close();
  });

  s('deleting takes the typed name; the project, its key and its traces are gone', async (ctx) => {
    const { d, browser } = ctx;
    const { page, context, problems } = await watchedPage(browser);
    await page.goto(d.link);
    await page.goto(`${d.url}/llm/projects`);
    await page.waitForSelector('table.projects-table');
    assert.equal(await axeViolations(page), []);
    await page.screenshot({ path: `${SHOTS}/llm-projects-1440.png`, fullPage: true });
    await narrow(page, 'llm-projects');
    await page.click('a.project-link:has-text("checkout-bot")');
    await page.waitForSelector('text=Delete the project');
    const button = page.locator('button:has-text("Delete the project")');
    assert.is(await button.isDisabled(), true);
    await page.fill('.delete-form input', 'checkout-bo');
    assert.is(await button.isDisabled(), true);
    await page.fill('.delete-form input', 'checkout-bot');
    await button.click();
    await page.waitForURL((u) => u.pathname === '/llm/projects');
    await page.waitForSelector('table.projects-table');
    assert.not.match(await page.locator('table.projects-table').textContent() ?? '', /checkout-bot/);
    assert.is((await ingest(d, ctx.key!, 'after delete')).status, 401);
    assert.equal(problems, []);
    await context.close();
  });
}

s.run();
