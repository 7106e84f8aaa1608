// The prompt page's registry in a real browser over a real `vigil run`: a template detected from traffic gets a new
// version from the page's form (and the same text again answers the version it is), a label is attached, moved to
// another version and removed, each move lands in the history with who made it, and what the page did is what an
// application fetching by label gets (GET /api/v1/prompts/:name?label=…). A template with no version yet offers the
// form at once. No console error, no CSP violation, axe clean at 1440 and 375 px. Screenshots go to /tmp/vigil-shots/.
import { mkdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { sendTraces, waitForTraces } from '../support/llm-traffic.js';

const SHOTS = '/tmp/vigil-shots';
const PROJECT = 'registry-app';
const V1 = 'You answer questions about {{product}}.\nBe brief.';
const V2 = 'You answer questions about {{product}}.\nBe brief and cite the manual.';

interface Ctx { d: Dashboard; browser: Browser; key: string }
const s = suite<Ctx>('e2e: prompt labels on the prompt page');

/** What an application fetching `label` gets: the version number, or the HTTP status when there is none. */
async function fetched(ctx: Ctx, label: string): Promise<number> {
  const res = await fetch(`${ctx.d.url}/api/v1/prompts/faq?label=${label}`, { headers: { 'x-service-project-key': ctx.key } });
  return res.status === 200 ? ((await res.json()) as { version: number }).version : -res.status;
}

const rows = (page: Page, table: string): Promise<string[][]> =>
  page.locator(`${table} tbody tr`).evaluateAll((trs) => trs.map((r) => [...r.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim())));

if (chromiumAvailable('e2e prompt labels')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard({ gateway: false, rules: '', llm: true });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
    ctx.key = await ctx.d.createProject(PROJECT);
    await sendTraces(ctx.d.url, ctx.key, [{ model: 'gpt-4o-mini', name: 'faq-call', prompt_template: { name: 'faq', raw: V1 } }]);
    await waitForTraces(ctx.d.url, ctx.key, 1);
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('create a version, attach production, move it, remove it: the history and the fetch follow every step', async (ctx) => {
    const w = await openLoggedIn(ctx.browser, ctx.d, `/llm/prompts/faq?project=${PROJECT}`);
    const { page } = w;
    await page.getByRole('heading', { name: 'Labels', exact: true }).waitFor();
    assert.match(await page.locator('section:has(h2:text-is("Labels"))').textContent() ?? '', /No labels yet/);

    // A new version from the form: the page goes to it, compared with v1.
    await page.getByRole('button', { name: 'New version…' }).click();
    await page.getByLabel('Text', { exact: true }).fill(V2);
    await page.getByLabel('Labels (optional)').fill('staging');
    await page.getByRole('button', { name: 'Create version' }).click();
    await page.waitForURL(/version=2/);
    await page.getByRole('rowheader', { name: 'staging', exact: true }).waitFor();
    assert.equal(await fetched(ctx, 'staging'), 2);

    // The same text again (CRLF, trailing spaces) is version 1: no new version.
    await page.getByRole('button', { name: 'New version…' }).click();
    await page.getByLabel('Text', { exact: true }).fill(V1.replace(/\n/g, '  \r\n'));
    await page.getByRole('button', { name: 'Create version' }).click();
    await page.waitForURL(/version=1/);
    const versions = await fetch(`${ctx.d.url}/api/v1/prompt-templates`, { headers: { 'x-service-project-key': ctx.key } }).then((r) => r.json()) as { data: { versions: unknown[] }[] };
    assert.is(versions.data[0].versions.length, 2);

    // Attach production to v1 (the version shown is the default target).
    await page.getByLabel('New label').fill('Production!');
    await page.getByRole('button', { name: 'Attach label' }).click();
    await page.getByText('Use lowercase letters').waitFor();
    assert.equal(await fetched(ctx, 'production'), -404, 'nothing sent for a name that is not a label');
    await page.getByLabel('New label').fill('production');
    await page.getByRole('button', { name: 'Attach label' }).click();
    await page.getByRole('rowheader', { name: 'production', exact: true }).waitFor();
    assert.equal(await fetched(ctx, 'production'), 1);

    // Move production to v2 in its row.
    await page.getByLabel('Version for production').selectOption('2');
    await page.getByRole('button', { name: 'Move production', exact: true }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('.label-history-table tbody tr')].some((r) => r.textContent?.includes('v1 → v2')));
    assert.equal(await fetched(ctx, 'production'), 2);
    const labels = await rows(page, 'table.labels-table');
    assert.equal(labels.map((r) => [r[0], r[1]]), [['production', 'v2'], ['staging', 'v2']]);
    assert.match(labels[0][2], /by dashboard \(session\)/);
    await checkFinishedPage(w, SHOTS, 'llm-prompt-labels');

    // Remove staging: applications asking for it get 404 (their client its cache or fallback).
    await page.getByRole('button', { name: 'Remove staging' }).click();
    await page.getByRole('rowheader', { name: 'staging', exact: true }).waitFor({ state: 'detached' });
    assert.equal(await fetched(ctx, 'staging'), -404);
    const history = await rows(page, 'table.label-history-table');
    assert.equal(history.map((r) => [r[1], r[2], r[3]]), [
      ['staging', 'removed from v2', 'dashboard (session)'],
      ['production', 'v1 → v2', 'dashboard (session)'],
      ['production', 'attached to v1', 'dashboard (session)'],
      ['staging', 'attached to v2', 'dashboard (session)'],
    ]);
    assert.equal(w.problems, []);
    await w.context.close();
  });

  s('a template with no version yet: the page offers the form, and the first version appears with its labels', async (ctx) => {
    const w = await openLoggedIn(ctx.browser, ctx.d, `/llm/prompts/onboarding?project=${PROJECT}`);
    const { page } = w;
    await page.getByRole('heading', { name: 'New version of onboarding' }).waitFor();
    await checkFinishedPage(w, SHOTS, 'llm-prompt-first-version');
    await page.getByRole('button', { name: 'Create version' }).click();
    await page.getByText('Write the template\'s text').waitFor();
    await page.getByLabel('Text', { exact: true }).fill('Welcome {{name}}!');
    await page.getByLabel('Config (optional JSON)').fill('{ "temperature": ');
    await page.getByRole('button', { name: 'Create version' }).click();
    await page.getByText('Not JSON').waitFor();
    await page.getByLabel('Config (optional JSON)').fill('{ "temperature": 0.2 }');
    await page.getByLabel('Labels (optional)').fill('production');
    await page.getByRole('button', { name: 'Create version' }).click();
    await page.getByRole('rowheader', { name: 'production', exact: true }).waitFor();
    const res = await fetch(`${ctx.d.url}/api/v1/prompts/onboarding`, { headers: { 'x-service-project-key': ctx.key } });
    const body = await res.json() as { version: number; text: string; config: unknown };
    assert.equal([body.version, body.text, body.config], [1, 'Welcome {{name}}!', { temperature: 0.2 }]);
    assert.equal(w.problems, []);
    await w.context.close();
  });
}

s.run();
