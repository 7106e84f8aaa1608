// Host › Terminal in a real browser on a real `vigil run` with the terminal on: a shell that types and echoes, a
// split with its own shell, a second tab, font zoom and fullscreen, all under the dashboard's strict CSP (xterm's
// styles go through the CSSOM). With the host area on and no terminal, the page says how to turn it on. Axe-clean
// at 1440 and 375 px, light and dark; screenshots go to /tmp/vigil-shots/ (or VIGIL_SHOTS).
import { mkdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { tempDir } from '../support/tmp.js';

/** A home of its own, so the login shells read no dotfiles of the machine's user. */
const home = tempDir('vigil-e2e-home-');

const SHOTS = process.env.VIGIL_SHOTS ?? '/tmp/vigil-shots';

/** The text on screen of the `n`th pane of the visible tab (xterm's DOM renderer: one div per row). */
const screenText = (page: Page, n = 0): Promise<string> =>
  page.locator('.terminal-panes:not([hidden]) .terminal-pane').nth(n).locator('.xterm-rows').innerText();

async function typeInto(page: Page, n: number, line: string): Promise<void> {
  await page.locator('.terminal-panes:not([hidden]) .terminal-pane').nth(n).locator('.terminal-screen').click();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

async function waitForScreen(page: Page, n: number, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await screenText(page, n);
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`no ${pattern} on pane ${n}; it shows:\n${text}`);
    await page.waitForTimeout(50);
  }
}

const on = suite<{ d: Dashboard; browser: Browser }>('e2e: the terminal page');

if (chromiumAvailable('e2e terminal')) {
  on.before(async (ctx) => {
    ctx.d = await startDashboard({ gateway: false, extra: 'probes: {}\nterminal: { enabled: true }\n', env: { HOME: home.path } });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });
  on.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
    home.cleanup();
  });

  on('the shell types and echoes; splits, tabs, zoom and fullscreen work under the CSP', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, '/host/terminal');
    const { page } = w;
    await page.waitForSelector('h1:has-text("Terminal")');
    await page.waitForSelector('.terminal-pane-state[data-state="open"]');
    await typeInto(page, 0, 'echo "e2e-$((20 + 22))"');
    await waitForScreen(page, 0, /^e2e-42$/m);

    // xterm's cell sizes and theme came through the constructed stylesheets, not blocked <style> elements.
    const styled = await page.evaluate(() => ({
      sheets: document.adoptedStyleSheets.length,
      styleElements: document.querySelectorAll('style').length,
      rowHeight: (document.querySelector('.xterm-rows > div') as HTMLElement).getBoundingClientRect().height,
    }));
    assert.ok(styled.sheets > 0, 'xterm\'s CSS is in adopted stylesheets');
    assert.is(styled.styleElements, 0, 'no <style> element');
    assert.ok(styled.rowHeight > 10 && styled.rowHeight < 40, `a row is ${styled.rowHeight}px high`);

    // Truecolor output (xterm writes it as a style attribute) renders in its colour.
    await typeInto(page, 0, 'printf "\\033[38;2;255;0;0mRED-TEXT\\033[0m\\n"');
    await waitForScreen(page, 0, /^RED-TEXT$/m);
    const red = await page.locator('.xterm-rows span', { hasText: 'RED-TEXT' }).last().evaluate((el) => getComputedStyle(el).color);
    // Red, darkened as far as the minimum contrast against the white background needs.
    const [r, g, b] = red.match(/\d+/g)!.map(Number);
    assert.ok(r > 150 && g < 60 && b < 60, `RED-TEXT is ${red}`);

    // Font zoom changes the cell size and the shell's idea of the screen.
    const rowsBefore = await page.locator('.terminal-pane .xterm-rows > div').count();
    await page.click('button:has-text("Larger text")');
    await page.click('button:has-text("Larger text")');
    assert.is(await page.locator('.terminal-zoom-value').textContent(), '16px');
    await page.waitForFunction((n) => document.querySelectorAll('.terminal-pane .xterm-rows > div').length < n, rowsBefore);

    // A split: a second shell beside the first.
    await page.click('button:has-text("Split right")');
    await page.waitForFunction(() => document.querySelectorAll('.terminal-pane-state[data-state="open"]').length === 2);
    await typeInto(page, 1, 'echo "split-$$"');
    const second = await waitForScreen(page, 1, /^split-(\d+)$/m);
    const first = await screenText(page, 0);
    assert.not.match(first, /split-\d+/, 'the split has a shell of its own');
    assert.ok(/split-\d+/.test(second));
    await checkFinishedPage(w, SHOTS, 'terminal');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(200);
    await checkFinishedPage(w, SHOTS, 'terminal-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // A second tab, then back: the first tab's shells kept their output.
    await page.click('button:has-text("New tab")');
    assert.is(await page.locator('[role="tab"]').count(), 2);
    await page.waitForFunction(() => document.querySelectorAll('.terminal-pane-state[data-state="open"]').length === 3);
    await typeInto(page, 0, 'echo "tab-$((1 + 1))"');
    await waitForScreen(page, 0, /^tab-2$/m);
    await page.locator('[role="tab"]').first().click();
    await waitForScreen(page, 0, /^e2e-42$/m);

    // Fullscreen and back.
    await page.click('button:has-text("Fullscreen")');
    await page.waitForSelector('button[aria-pressed="true"]:has-text("Exit fullscreen")');
    await page.click('button:has-text("Exit fullscreen")');
    await page.waitForSelector('button[aria-pressed="false"]:has-text("Fullscreen")');

    // A shell that exits says so, and the pane starts a new one on Reopen.
    await typeInto(page, 1, 'exit');
    await page.waitForSelector('.terminal-panes:not([hidden]) .terminal-pane-state[data-state="closed"]');
    await waitForScreen(page, 1, /\[the shell exited with 0\]/);
    await page.click('.terminal-panes:not([hidden]) button:has-text("Reopen")');
    await page.waitForFunction(() => document.querySelectorAll('.terminal-panes:not([hidden]) .terminal-pane-state[data-state="open"]').length === 2);
    await typeInto(page, 1, 'echo "again-$((3 * 3))"');
    await waitForScreen(page, 1, /^again-9$/m);

    // Closing a pane ends its shell.
    await page.locator('.terminal-panes:not([hidden]) .terminal-pane-close').nth(1).click();
    assert.is(await page.locator('.terminal-panes:not([hidden]) .terminal-pane').count(), 1);
    await page.waitForFunction(async () => {
      const res = await fetch('/api/terminal');
      return ((await res.json()) as { open: number }).open === 2;
    });
    assert.equal(w.problems, [], 'console');
    assert.equal(await w.cspViolations(), [], 'CSP');
    await w.context.close();
  });

  on.run();

  const off = suite<{ d: Dashboard; browser: Browser }>('e2e: the terminal page, off');
  off.before(async (ctx) => {
    ctx.d = await startDashboard({ gateway: false, extra: 'probes: {}\n' });
    ctx.browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });
  off.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  off('says how to turn it on', async ({ d, browser }) => {
    const w = await openLoggedIn(browser, d, '/host/terminal');
    const { page } = w;
    await page.waitForSelector('text=The terminal is off');
    assert.match(await page.locator('.code-block pre').first().textContent() ?? '', /terminal:\s+enabled: true/);
    assert.match(await page.textContent('main') ?? '', /anyone who holds the dashboard token/);
    assert.is(await page.locator('.xterm').count(), 0, 'no terminal is made');
    await checkFinishedPage(w, SHOTS, 'terminal-off');
    await w.context.close();
  });

  off.run();
}
