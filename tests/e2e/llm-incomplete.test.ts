// A Langfuse generation never ended, as the dashboard shows it: the real `langfuse` v3 SDK against a real `vigil run`
// (llm.langfuse.unended_after: 500ms), the traces list and the trace page in headless Chromium marked
// "incomplete: never ended"; once the SDK ends it, the trace page shows the final output and no mark. Axe clean, at
// 1440 and 375 px, light and dark.
import { mkdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { Langfuse } from 'langfuse';
import { checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { waitFor } from '../support/net.js';

const SHOTS = '/tmp/vigil-shots';
const PROJECT = 'langfuse-app';

interface Ctx { d: Dashboard; browser: Browser; key: string }
const s = suite<Ctx>('e2e: a Langfuse generation never ended');

const traceOf = async (ctx: Ctx, id: string) => {
  const r = await fetch(`${ctx.d.url}/api/v1/traces/${id}`, { headers: { 'X-Service-Project-Key': ctx.key } });
  return r.status === 200 ? await r.json() as Record<string, unknown> : null;
};

if (chromiumAvailable('e2e llm incomplete')) {
  s.before(async (ctx) => {
    ctx.d = await startDashboard({ gateway: false, rules: '', llm: '  langfuse: { unended_after: 500ms }' });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
    ctx.key = await ctx.d.createProject(PROJECT);
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('the list and the trace page mark it incomplete; its end replaces it', async (ctx) => {
    const langfuse = new Langfuse({ publicKey: 'pk-lf', secretKey: ctx.key, baseUrl: ctx.d.url, flushAt: 100 });
    const generation = langfuse.trace({ name: 'chat' }).generation({
      name: 'streamed-answer', model: 'gpt-4o-mini', input: [{ role: 'user', content: 'Tell me a story' }],
      output: { role: 'assistant', content: 'Once upon a' }, usageDetails: { input: 9, output: 3 },
    });
    await langfuse.flushAsync();
    await waitFor(() => traceOf(ctx, generation.id), { what: 'the un-ended generation stored', timeoutMs: 20_000 });

    const w = await openLoggedIn(ctx.browser, ctx.d, `/llm?project=${PROJECT}`);
    const { page } = w;
    const row = page.locator(`table.traces-table tbody tr[data-id="${generation.id}"]`);
    await row.waitFor();
    assert.match(await row.textContent() ?? '', /incomplete/);
    await checkFinishedPage(w, SHOTS, 'llm-traces-incomplete');

    await page.goto(`${ctx.d.url}/llm/traces/${generation.id}?project=${PROJECT}`);
    const strip = page.locator('.call-strip');
    await strip.waitFor();
    assert.match(await strip.textContent() ?? '', /incomplete: never ended/);
    assert.match(await strip.locator('.call-fact:has(dt:text-is("Latency")) dd').textContent() ?? '', /not ended/);
    assert.match(await page.locator('main').textContent() ?? '', /Once upon a/);
    await checkFinishedPage(w, SHOTS, 'llm-trace-incomplete');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'llm-trace-incomplete-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    generation.end({ output: { role: 'assistant', content: 'Once upon a time, the end.' } });
    await langfuse.shutdownAsync();
    await waitFor(async () => ((await traceOf(ctx, generation.id))?.incomplete === undefined ? true : null), { what: 'the end applied', timeoutMs: 20_000 });
    await page.reload();
    await strip.waitFor();
    await page.waitForFunction(() => document.querySelector('main')?.textContent?.includes('the end.'));
    assert.not.match(await strip.textContent() ?? '', /incomplete/);
    await w.context.close();
  });

  s.run();
}
