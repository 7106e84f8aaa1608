// The Projects page and GNOME tweaks in a real browser against a real `vigil run`: a folder is picked under the
// roots, a make target runs after its command line is shown and its output arrives live, a long script is stopped from
// the page, the history lists both; GNOME tweaks change a setting through the real gsettings (keyfile backend). Axe
// clean at 1440 and 375 px, light and dark (screenshots in /tmp/vigil-shots).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, watchedPage, type Watched } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { tempDir } from '../support/tmp.js';

const SHOTS = '/tmp/vigil-shots';
const s = suite<{ d: Dashboard; browser: Browser; dir: { path: string; cleanup(): void } }>('e2e: projects and GNOME tweaks');

async function open(browser: Browser, d: Dashboard, path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Watched> {
  const w = await watchedPage(browser, { colorScheme });
  await w.page.goto(d.link);
  await w.page.goto(`${d.url}${path}`);
  return w;
}

if (chromiumAvailable('e2e projects')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    ctx.dir = tempDir('vigil-e2e-projects-');
    const app = join(ctx.dir.path, 'projects', 'shop-api');
    mkdirSync(join(app, 'src'), { recursive: true });
    mkdirSync(join(ctx.dir.path, 'projects', 'website'));
    mkdirSync(join(ctx.dir.path, 'xdg'));
    writeFileSync(join(app, 'Makefile'), '.PHONY: build test\n.DEFAULT_GOAL := build\nbuild:\n\t@echo "compiling shop-api"\n\t@echo "\\033[32mbuild ok\\033[0m"\ntest: build\n\t@echo "12 tests passed"\n');
    writeFileSync(join(app, 'package.json'), JSON.stringify({
      name: 'shop-api', private: true,
      scripts: { serve: 'node -e "console.log(\'listening on 3000\'); setInterval(() => console.log(\'tick\'), 500)"', lint: 'node -e "console.log(\'lint clean\')"' },
    }));
    ctx.d = await startDashboard({
      gateway: false,
      extra: `probes: {}\ndevtools: { roots: [${JSON.stringify(join(ctx.dir.path, 'projects'))}] }\n`,
      env: { GSETTINGS_BACKEND: 'keyfile', XDG_CONFIG_HOME: join(ctx.dir.path, 'xdg') },
    });
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser, dir }) => {
    await browser?.close();
    await d?.stop();
    dir?.cleanup();
  });

  s('no folder yet: the roots to pick from, and an empty history that says what to do', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/projects');
    await w.page.waitForSelector('text=Choose a folder');
    await w.page.waitForSelector('text=No runs yet');
    await checkFinishedPage(w, SHOTS, 'host-projects-empty');
    await w.context.close();
  });

  s('pick a folder, run a make target after seeing its command, see its output live; stop a long script; history', async ({ d, browser, dir }) => {
    const w = await open(browser, d, '/host/projects');
    const { page } = w;
    await page.click('.folder-picker .db-connection:has-text("projects")');
    await page.click('.folder-picker .db-connection:has-text("shop-api")');
    await page.waitForSelector('.script-name:has-text("build")');
    assert.match(await page.locator('.script-list').innerText(), /serve[\s\S]*npm script[\s\S]*lint[\s\S]*build[\s\S]*default/);
    await page.click('button[aria-label="Run make build"]');
    assert.is(await page.locator('.script-command').innerText(), 'make build');
    assert.match(await page.locator('form.confirm').innerText(), new RegExp(`Run this in ${join(dir.path, 'projects', 'shop-api').replace(/[/.]/g, '\\$&')}`));
    await page.click('form.confirm button:has-text("Run")');
    await page.waitForSelector('.run-output .badge:has-text("Succeeded")');
    assert.match(await page.locator('.run-log').innerText(), /compiling shop-api\nbuild ok/);

    await page.click('button[aria-label="Run npm run serve"]');
    await page.click('form.confirm button:has-text("Run")');
    await page.waitForSelector('.run-log:has-text("listening on 3000")');
    await page.waitForSelector('.run-log:has-text("tick")');
    await page.waitForSelector('.run-output .badge:has-text("Running")');
    await checkFinishedPage(w, SHOTS, 'host-projects-running');
    await page.click('.run-output button:has-text("Stop…")');
    await page.click('.run-output form.confirm button:has-text("Stop the run")');
    await page.waitForSelector('.run-output .badge:has-text("Stopped")');
    await page.waitForSelector('table tbody tr:has-text("npm run serve")');
    await page.waitForSelector('table tbody tr:has-text("make build")');
    assert.match(await page.locator('table tbody tr', { hasText: 'npm run serve' }).innerText(), /Stopped/);
    await checkFinishedPage(w, SHOTS, 'host-projects-history');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'host-projects-history-dark');
    await w.context.close();
  });

  s('GNOME tweaks: switch to dark through gsettings; the keyfile holds it', async ({ d, browser, dir }) => {
    const w = await open(browser, d, '/host/gnome');
    const { page } = w;
    await page.waitForSelector('label:has-text("Style")');
    await page.selectOption('select.gnome-control', 'prefer-dark');
    await page.waitForSelector('text=Style is changed.', { state: 'attached' });
    const file = join(dir.path, 'xdg', 'glib-2.0', 'settings', 'keyfile');
    assert.match(readFileSync(file, 'utf8'), /color-scheme='prefer-dark'/);
    await page.getByRole('switch', { name: 'Clock shows seconds' }).click();
    await page.waitForSelector('text=Clock shows seconds is changed.', { state: 'attached' });
    assert.match(readFileSync(file, 'utf8'), /clock-show-seconds=true/);
    await checkFinishedPage(w, SHOTS, 'host-gnome');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'host-gnome-dark');
    await w.context.close();
  });
}

s.run();
