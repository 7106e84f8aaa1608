// The sudo password prompt in a real browser, against `vigil run` as an unprivileged account made here (with sudo
// rights from a sudoers.d file this test removes): the Packages page asks for the account's password before any
// change, a wrong one is refused with sudo's reason, the right one unlocks this session (and the field is emptied),
// and "Forget the password" asks again. Axe-clean at 1440 and 375 px.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, openLoggedIn } from './browser.js';
import { freePort, waitFor } from '../support/net.js';
import { makeSudoUser, startVigilAs, type SudoUser, type UserVigil } from '../support/sudo-user.js';
import { tempDir } from '../support/tmp.js';
import { writeConfig } from '../support/vigil-process.js';

const SHOTS = '/tmp/vigil-shots';
const TOKEN = 'e2e-privilege-token-0123456789abcdef';
const s = suite<{ user: SudoUser; vigil: UserVigil; browser: Browser; url: string; work: { path: string; cleanup(): void } }>('e2e: host privilege prompt');

if (chromiumAvailable('e2e host privilege')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    ctx.work = tempDir('vigil-e2e-privilege-');
    chmodSync(ctx.work.path, 0o755);
    ctx.user = makeSudoUser();
    ctx.user.own(ctx.work.path);
    const port = await freePort();
    ctx.url = `http://127.0.0.1:${port}`;
    const file = writeConfig(ctx.work.path, `data_dir: ${join(ctx.work.path, 'data')}
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
ui: {}
probes: {}
privilege: {}
packages: {}
`);
    ctx.user.own(file);
    ctx.vigil = await startVigilAs(ctx.user, file, ctx.work.path, ctx.url);
    ctx.browser = await launchChromium();
  });
  s.after(async ({ vigil, browser, user, work }) => {
    await browser?.close();
    await vigil?.stop();
    user?.remove();
    // The data folder belongs to the account, which is gone: root removes it.
    if (work) execFileSync('rm', ['-rf', work.path]);
  });

  s('the prompt: wrong password refused, right one unlocks, forget asks again; accessible at both widths', async ({ url, user, browser, vigil }) => {
    const w = await openLoggedIn(browser, { url, link: `${url}/?token=${TOKEN}` }, '/host/packages');
    const { page } = w;
    const prompt = page.locator('form.privilege-prompt');
    await prompt.waitFor();
    assert.match(await prompt.innerText(), new RegExp(`sudo as ${user.name}`));
    await page.waitForSelector('table tbody tr');
    assert.ok(await page.getByRole('button', { name: 'Refresh lists' }).isDisabled(), 'no change before the password');
    await checkFinishedPage(w, SHOTS, 'host-privilege-prompt');

    const field = page.getByLabel(`Password for ${user.name}`);
    await field.fill('not-the-password');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await prompt.locator('text=sudo refused the password').waitFor({ timeout: 20_000 });
    assert.is(await field.inputValue(), '', 'the field is emptied after each try');
    // The refusal's 403 is the one console line this page may have: the browser reports every failed request. The
    // console line comes to the test as a DevTools event of its own, not with the page's text: wait for it.
    await waitFor(() => w.problems.length > 0, { timeoutMs: 5_000, intervalMs: 250, what: 'the refusal\'s console line' });
    assert.equal(w.problems.splice(0), ['error: Failed to load resource: the server responded with a status of 403 (Forbidden)']);

    await field.fill(user.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.locator('.privilege-note', { hasText: 'Unlocked for this session' }).waitFor({ timeout: 20_000 });
    assert.ok(await page.getByRole('button', { name: 'Refresh lists' }).isEnabled(), 'changes are offered once unlocked');
    await checkFinishedPage(w, SHOTS, 'host-privilege-unlocked');

    await page.getByRole('button', { name: 'Forget the password' }).click();
    await prompt.waitFor();
    assert.not.ok(vigil.output().includes(user.password), 'the password is not in the log');
    await w.context.close();
  });
}

s.run();
