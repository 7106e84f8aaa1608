// The About page's Updates card in a real browser against a real `vigil run` whose `selfupdate.install_dir` is a git
// checkout of a local bare repository, with the release feed on loopback: it shows the install method and the running
// version and commit; Check shows the newest release's notes; a checkout with uncommitted changes is warned of, and
// Update now's refusal says plainly that nothing was fetched or merged. Axe-clean at 1440 and 375 px, light and dark
// (screenshots in /tmp/vigil-shots).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { git, ReleaseUpstream } from '../support/release-upstream.js';
import { waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';

const SHOTS = '/tmp/vigil-shots';
const s = suite<{ d: Dashboard; browser: Browser; dir: { path: string; cleanup(): void }; upstream: ReleaseUpstream; install: string }>('e2e: about, updates');

if (chromiumAvailable('e2e about updates')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    ctx.dir = tempDir('vigil-e2e-update-');
    ctx.upstream = new ReleaseUpstream(ctx.dir.path);
    ctx.install = ctx.upstream.clone(join(ctx.dir.path, 'vigil'));
    ctx.upstream.write('package.json', '{ "name": "vigil", "version": "0.2.0" }\n');
    ctx.upstream.commit('release 0.2.0', 'v0.2.0');
    ctx.upstream.publish('0.2.0', '## Vigil 0.2.0\n\n- Self-update from the About page\n- Signed source archives for git checkouts');
    const feed = await ctx.upstream.serve();
    ctx.d = await startDashboard({
      gateway: false,
      extra: `selfupdate: { release_url: ${JSON.stringify(`${feed}/latest.json`)}, public_key: ${JSON.stringify(ctx.upstream.keyFile)}, install_dir: ${JSON.stringify(ctx.install)} }\n`,
    });
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser, dir, upstream }) => {
    await browser?.close();
    await d?.stop();
    await upstream?.close();
    dir?.cleanup();
  });

  s('About shows the install method, the running version and commit; Check shows the notes', async ({ d, browser, upstream, install }) => {
    const w = await openLoggedIn(browser, d, '/about');
    const { page } = w;
    const card = page.locator('.card', { hasText: 'Check for updates' });
    await card.locator('text=git checkout').waitFor();
    const facts = await card.locator('.facts').innerText();
    assert.match(facts, /Install method\s+git checkout/);
    assert.match(facts, new RegExp(`Running\\s+\\d+\\.\\d+\\.\\d+ at ${git(install, 'rev-parse', 'HEAD').slice(0, 12)}`));
    assert.match(facts, /Branch\s+main tracking origin\/main/);
    assert.match(await card.innerText(), /Nothing is sent until you do/);
    assert.equal(upstream.seen, [], 'opening the page sent nothing to the feed');
    await checkFinishedPage(w, SHOTS, 'about-updates');

    await card.locator('button:has-text("Check for updates")').click();
    await card.locator('.update-notes').waitFor();
    assert.match(await card.locator('.update-notes').innerText(), /Self-update from the About page/);
    assert.match(await card.locator('.update-release').innerText(), /Vigil 0\.2\.0\s*New/);
    assert.equal(upstream.seen, ['GET /latest.json']);
    await checkFinishedPage(w, SHOTS, 'about-updates-checked');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'about-updates-checked-dark');
    await w.context.close();
  });

  s('uncommitted changes: the card warns, and Update now\'s refusal says nothing was fetched or merged', async ({ d, browser, install }) => {
    writeFileSync(join(install, 'README.md'), 'a local edit\n');
    const head = git(install, 'rev-parse', 'HEAD');
    const w = await openLoggedIn(browser, d, '/about');
    const { page } = w;
    const card = page.locator('.card', { hasText: 'Check for updates' });
    await card.locator('.notice-warning').waitFor();
    assert.match(await card.locator('.notice-warning').innerText(), /Update now would refuse this checkout\. The checkout has uncommitted changes \(README\.md\)/);
    await card.locator('button:has-text("Update now")').click();
    const confirm = card.locator('form.confirm');
    assert.match(await confirm.innerText(), /verified against its signature before anything changes/);
    await confirm.locator('button[type="submit"]').click();
    const refusal = card.locator('.notice-danger[role="alert"]');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), /Update refused: nothing was fetched or merged\. The checkout has uncommitted changes \(README\.md\): commit or stash them/);
    assert.is(git(install, 'rev-parse', 'HEAD'), head);
    // The refusal's 409 is the one problem the console may show (Chromium logs every error status it loads). The
    // console line comes to the test as a DevTools event of its own, not with the page's text: wait for it.
    await waitFor(() => w.problems.length > 0, { timeoutMs: 5_000, intervalMs: 250, what: 'the refusal\'s console line' });
    assert.equal(w.problems.map((p) => /status of 409/.test(p)), [true], w.problems.join(' | '));
    w.problems.length = 0;
    await checkFinishedPage(w, SHOTS, 'about-updates-refused');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(600); // the theme's colour transition settles before axe measures contrast
    await checkFinishedPage(w, SHOTS, 'about-updates-refused-dark');
    await w.context.close();
  });

  s('Update now on a clean checkout streams its output, ends applied, and offers Restart (asked first)', async ({ d, browser, install, upstream }) => {
    git(install, 'checkout', '--', 'README.md');
    const w = await openLoggedIn(browser, d, '/about');
    const { page } = w;
    const card = page.locator('.card', { hasText: 'Check for updates' });
    await card.locator('.facts').waitFor();
    assert.is(await card.locator('.notice-warning').count(), 0, 'no refusal is warned of');
    await card.locator('button:has-text("Update now")').click();
    await card.locator('form.confirm button[type="submit"]').click();
    const panel = card.locator('section[aria-label="Update output"]');
    await panel.locator('.badge:has-text("Done")').waitFor({ timeout: 60_000 });
    assert.match(await panel.innerText(), /Fast-forwarded main from [0-9a-f]{12} to v0\.2\.0/);
    assert.match(await panel.locator('.job-log').innerText(), /ok\s+signature of SHA256SUMS/);
    assert.is(git(install, 'rev-parse', 'HEAD'), git(upstream.publisher, 'rev-parse', 'v0.2.0^{commit}'));
    assert.match(await card.locator('.facts').innerText(), /Installed\s+0\.2\.0\s+Restart to run it/);
    await card.locator('button:has-text("Restart")').click();
    assert.match(await card.locator('form.confirm').innerText(), /Restart Vigil to run 0\.2\.0\?/);
    await checkFinishedPage(w, SHOTS, 'about-updates-applied');
    await card.locator('form.confirm button:has-text("Cancel")').click();
    assert.is(await card.locator('form.confirm').count(), 0);
    await w.context.close();
  });

  s.run();
}
