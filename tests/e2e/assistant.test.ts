// The assistant panel in a real browser against a real `vigil run` and a loopback OpenAI-compatible server that
// streams over time: Ctrl+I opens the panel (the provider form first), Esc closes it and gives focus back, an answer
// streams in, a proposal shows as a card and nothing runs until the user clicks (and then only a page opens), Stop
// and Esc close the upstream request, the health card's AI report streams; axe-clean at 1440 and 375 px, light and dark
// (screenshots in /tmp/vigil-shots).
import { mkdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, watchedPage, type Watched } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { waitFor } from '../support/net.js';
import { FAKE_ANSWER, startStreamingChatServer, type StreamingChatServer } from '../support/streaming-chat-servers.js';

const SHOTS = '/tmp/vigil-shots';
const KEY = 'sk-e2e-provider-key-never-shown-9c2d';
const s = suite<{ d: Dashboard; browser: Browser; fake: StreamingChatServer }>('e2e: assistant');

async function open(browser: Browser, d: Dashboard, path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Watched & { posts: string[] }> {
  const w = await watchedPage(browser, { colorScheme });
  const posts: string[] = [];
  w.page.on('request', (r) => { if (r.method() !== 'GET') posts.push(new URL(r.url()).pathname); });
  await w.page.goto(d.link);
  await w.page.goto(`${d.url}${path}`);
  await w.page.waitForSelector('main h1');
  return Object.assign(w, { posts });
}

/** Points the saved provider (the key kept) at the loopback server's `model`, as the page's own session. */
async function useModel(page: Page, fake: StreamingChatServer, model: string): Promise<void> {
  const status = await page.evaluate(async ([base, m]) => (await fetch('/api/llmconfig', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ provider: 'openai', base_url: base, model: m }),
  })).status, [`${fake.url}/v1`, model] as const);
  assert.is(status, 200);
}

async function ask(page: Page, question: string): Promise<void> {
  await page.fill('#assistant-question', question);
  await page.keyboard.press('Enter');
}

if (chromiumAvailable('e2e assistant')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    ctx.fake = await startStreamingChatServer();
    ctx.d = await startDashboard({ gateway: false, extra: 'probes: {}\nassistant: { first_token_timeout: 5s }\n' });
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser, fake }) => {
    await browser?.close();
    await d?.stop();
    await fake?.close();
  });

  s('Ctrl+I opens the provider form, Esc closes it and focus comes back; the form saves the provider, key kept out of sight', async ({ d, browser, fake }) => {
    const w = await open(browser, d, '/host');
    const { page } = w;
    await page.click('.search-button:has-text("Assistant")');
    await page.waitForSelector('#assistant');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#assistant', { state: 'detached' });
    assert.is(await page.evaluate(() => document.activeElement?.textContent?.includes('Assistant')), true, 'focus went back to the button');
    await page.keyboard.press('Control+i');
    await page.waitForSelector('text=Pick where questions go');
    assert.is(await page.evaluate(() => document.getElementById('assistant')?.contains(document.activeElement)), true, 'focus moved into the panel');
    await checkFinishedPage(w, SHOTS, 'assistant-setup');
    await page.fill('.assistant-setup input[type="url"]', `${fake.url}/v1`);
    await page.fill('.assistant-setup input[placeholder="gpt-4o-mini"]', 'gpt-test');
    await page.fill('.assistant-setup input[type="password"]', KEY);
    await page.click('text=Save provider');
    await page.waitForSelector('#assistant-question');
    assert.match(await page.locator('.assistant-model').innerText(), /openai · gpt-test/);
    const shown = await page.evaluate(() => document.body.innerHTML);
    assert.not.ok(shown.includes(KEY), 'the key is in the page');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#assistant', { state: 'detached' });
    await w.context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    s(`an answer streams in and a proposal is a card; nothing runs without the click (${colorScheme})`, async ({ d, browser, fake }) => {
      const w = await open(browser, d, '/host', colorScheme);
      const { page } = w;
      await useModel(page, fake, 'propose');
      await page.keyboard.press('Control+i');
      await page.waitForSelector('#assistant-question');
      await ask(page, 'nginx is down, what now?');
      await page.waitForSelector('.assistant-proposal');
      assert.match(await page.locator('.assistant-proposal').innerText(), /Proposed: Restart nginx\.service[\s\S]*Nothing has run/);
      assert.is(await page.locator('.assistant-proposal').count(), 1, 'the unknown action is no card');
      assert.match(await page.locator('.assistant-turn-assistant').innerText(), /rm_rf/);
      await page.waitForSelector('.assistant-compose button:has-text("Send")');
      await checkFinishedPage(w, SHOTS, `assistant-answer-${colorScheme}`);
      assert.equal(w.posts.filter((p) => p !== '/api/ai' && p !== '/api/llmconfig'), [], 'only the question was sent');
      await page.click('.assistant-proposal button:has-text("Open Services")');
      await page.waitForURL(/\/host\/services\?q=nginx\.service$/);
      await page.waitForSelector('#assistant', { state: 'detached' });
      assert.equal(w.posts.filter((p) => p !== '/api/ai' && p !== '/api/llmconfig'), [], 'opening the page ran nothing');
      await w.context.close();
    });
  }

  s('Stop ends a streaming answer and the provider sees its request closed', async ({ d, browser, fake }) => {
    const w = await open(browser, d, '/host');
    const { page } = w;
    await useModel(page, fake, 'slow');
    const closedBefore = fake.closedEarly;
    await page.keyboard.press('Control+i');
    await ask(page, 'count slowly');
    await page.waitForSelector('.assistant-text p:has-text("word1")');
    await page.click('.assistant-compose button:has-text("Stop")');
    await page.waitForSelector('.assistant-note:has-text("Stopped.")');
    await waitFor(() => fake.closedEarly > closedBefore, { what: 'the upstream request to close' });
    // Esc during an answer stops it too, and closes the panel.
    await ask(page, 'count again');
    await page.waitForSelector('.assistant-turn-assistant >> nth=1 >> text=word1');
    await page.keyboard.press('Escape');
    await page.waitForSelector('#assistant', { state: 'detached' });
    await waitFor(() => fake.closedEarly > closedBefore + 1, { what: 'the second upstream request to close' });
    await w.context.close();
  });

  s('the health card asks for the AI report: the findings are shown before they are sent, and the report streams', async ({ d, browser, fake }) => {
    const w = await open(browser, d, '/host');
    const { page } = w;
    await useModel(page, fake, 'gpt-test');
    await page.click('button:has-text("AI report")');
    await page.waitForSelector('.assistant-chip summary:has-text("Health findings")');
    const requestsBefore = fake.requests.length;
    await page.click('button[aria-label^="Do not send Health findings"]');
    await page.waitForSelector('text=Write the health report', { state: 'detached' });
    assert.is(fake.requests.length, requestsBefore, 'removing the findings sent nothing');
    await page.keyboard.press('Escape');
    await page.click('button:has-text("AI report")');
    await page.waitForSelector('.assistant-chip summary:has-text("Health findings")');
    await page.click('.assistant-chip summary');
    assert.match(await page.locator('.assistant-chip-text').innerText(), /\[|No findings/);
    await page.click('text=Write the health report');
    await page.waitForSelector(`.assistant-text p:has-text("${FAKE_ANSWER}")`);
    assert.match(JSON.stringify(fake.requests.at(-1)!.body.messages), /health score of this machine is \d+\/100/);
    await w.context.close();
  });
}

s.run();
