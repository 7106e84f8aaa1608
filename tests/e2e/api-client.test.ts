// The API client page in a real browser against a real `vigil run` and a real loopback API: the empty state says
// what to do; a Postman collection is imported by pasting it; a secret variable is saved (shown as set, never its
// value); a request is sent and its response, status and timings shown; a flow takes the token from the login's
// answer into the next request and passes; the drawer opens at 375 px. Axe-clean at 1440 and 375 px, light and dark
// (screenshots in /tmp/vigil-shots).
import { mkdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, watchedPage, type Watched } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { fixture } from '../support/paths.js';
import { startShopApi, type ShopApi } from '../support/shop-api.js';

const SHOTS = '/tmp/vigil-shots';
const s = suite<{ d: Dashboard; browser: Browser; shop: ShopApi }>('e2e: API client');

async function open(browser: Browser, d: Dashboard, scheme: 'light' | 'dark' = 'light'): Promise<Watched> {
  const w = await watchedPage(browser, { colorScheme: scheme });
  await w.page.goto(d.link);
  await w.page.goto(`${d.url}/host/api-client`);
  return w;
}

if (chromiumAvailable('e2e API client')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    ctx.shop = await startShopApi();
    ctx.d = await startDashboard({ gateway: false, extra: 'probes: {}\napiclient: {}\n' });
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser, shop }) => {
    await browser?.close();
    await d?.stop();
    await shop?.close();
  });

  s('nothing yet: the empty state offers an import or a new request', async ({ d, browser }) => {
    for (const scheme of ['light', 'dark'] as const) {
      const w = await open(browser, d, scheme);
      await w.page.waitForSelector('text=No requests yet');
      assert.match(await w.page.locator('.empty-state').innerText(), /Import a Postman or Insomnia collection/);
      await checkFinishedPage(w, SHOTS, `host-api-client-empty-${scheme}`);
      await w.context.close();
    }
  });

  s('import a Postman collection, save a secret, send a request and see the answer', async ({ d, browser, shop }) => {
    const w = await open(browser, d);
    const { page } = w;
    await page.click('text=Import a collection');
    const collection = readFileSync(fixture('apiclient', 'shop.postman_collection.json'), 'utf8').replace('http://127.0.0.1:3000', shop.base);
    await page.fill('.ac-import textarea', collection);
    await page.click('.ac-import button:text-is("Import")');
    await page.waitForSelector('.ac-item[aria-current="true"]:has-text("Log in")');
    assert.is(await page.locator('.ac-tree >> nth=0').locator('.ac-item').count(), 1, 'Auth holds Log in');
    assert.is(await page.locator('#ac-env option:checked').innerText(), 'Shop API');
    // The collection has no password: add it to the environment as a secret.
    await page.click('.ac-env-pick button:text-is("Edit")');
    await page.click('text=Add variable');
    await page.fill('.ac-var >> nth=-1 >> input >> nth=0', 'password');
    await page.check('.ac-var >> nth=-1 >> input[type="checkbox"]');
    await page.fill('.ac-var >> nth=-1 >> input[type="password"]', 'pw');
    await page.click('text=Save environment');
    // Saved, the store's answer replaces the form: the secret shows as set, its field empty (the value never comes back).
    await page.waitForFunction(() => {
      const input = [...document.querySelectorAll('.ac-var')].pop()?.querySelector<HTMLInputElement>('input[type="password"]');
      return input?.value === '' && input.placeholder.startsWith('set');
    });
    assert.match(await page.locator('.ac-var >> nth=-1').innerText(), /set/);
    assert.match(await page.locator('.ac-var >> nth=-1 >> input[type="password"]').getAttribute('placeholder') ?? '', /^set/);
    await page.click('.ac-env button:has-text("Close"), .card-header button:text-is("Close")');
    await page.click('.ac-item:has-text("Log in")');
    await page.click('.ac-line button:text-is("Send")');
    await page.waitForSelector('.ac-response-summary');
    assert.match(await page.locator('.ac-response-summary').innerText(), /200 OK/);
    assert.match(await page.locator('.ac-body').innerText(), /"token": "tok-1-/);
    assert.match(await page.locator('.ac-timings').innerText(), /Connect[\s\S]*First byte[\s\S]*Total/);
    await page.waitForSelector('.ac-history .ac-item:has-text("/login")');
    await checkFinishedPage(w, SHOTS, 'host-api-client-response');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'host-api-client-response-dark');
    await page.click('text=Copy as curl');
    await page.waitForSelector('.ac-snippet pre');
    assert.match(await page.locator('.ac-snippet pre').innerText(), /curl -X POST '.*\/login'[\s\S]*"\$PASSWORD"/);
    await w.context.close();
  });

  s('a flow carries the token from the login to the item list', async ({ d, browser }) => {
    const w = await open(browser, d);
    const { page } = w;
    await page.click('.ac-item:has-text("Log in")');
    await page.click('text=Add to flow');
    await page.waitForSelector('.ac-item:has-text("New flow · 1 steps")');
    await page.click('.ac-item:has-text("List items")');
    await page.click('text=Add to flow');
    await page.click('.ac-item:has-text("New flow · 2 steps")');
    await page.click('.ac-step >> nth=0 >> text=Take a value into a variable');
    await page.fill('[aria-label="Step 1 variable 1"]', 'token');
    await page.fill('[aria-label="Step 1 path 1"]', '$.data.token');
    await page.click('text=Run flow');
    await page.waitForSelector('text=Flow passed');
    assert.match(await page.locator('.ac-flow-result').innerText(), /\{\{token\}\}\s*tok-/);
    await checkFinishedPage(w, SHOTS, 'host-api-client-flow');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'host-api-client-flow-dark');
    await w.context.close();
  });

  s('at 375 px the collections are a drawer', async ({ d, browser }) => {
    const w = await open(browser, d);
    const { page } = w;
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForSelector('.ac-drawer-toggle');
    assert.is(await page.locator('.ac-sidebar').isVisible(), false);
    await page.click('.ac-drawer-toggle');
    await page.waitForSelector('.ac-sidebar:visible');
    await page.click('.ac-item:has-text("Me")');
    assert.is(await page.locator('.ac-sidebar').isVisible(), false, 'choosing a request closes the drawer');
    assert.is(await page.locator('.ac-url').inputValue(), '{{baseUrl}}/me');
    await page.click('.ac-drawer-toggle');
    await page.waitForSelector('.ac-sidebar:visible');
    await page.screenshot({ path: `${SHOTS}/host-api-client-drawer-375.png`, fullPage: true });
    await w.context.close();
  });

  s('the palette\'s import link opens the import; a browser\'s Copy as cURL line imports', async ({ d, browser, shop }) => {
    const w = await watchedPage(browser);
    await w.page.goto(d.link);
    await w.page.goto(`${d.url}/host/api-client?import=1`);
    const { page } = w;
    await page.fill('.ac-import textarea', `curl '${shop.base}/items?limit=2' \\\n  -H 'Accept: application/json' \\\n  -H 'Authorization: Bearer ${[...shop.tokens][0]}' \\\n  --compressed`);
    await page.click('.ac-import button:text-is("Import")');
    await page.waitForSelector('.ac-collection summary:has-text("Imported from curl")');
    await page.click('.ac-line button:text-is("Send")');
    await page.waitForSelector('.ac-response-summary');
    assert.match(await page.locator('.ac-response-summary').innerText(), /200 OK/);
    assert.match(await page.locator('.ac-body').innerText(), /"name": "item 2"/);
    await w.context.close();
  });
}

s.run();
