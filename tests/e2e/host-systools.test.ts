// The Services, Scheduled tasks and SSH keys pages in Chromium against a real `vigil run` with the systools plugin:
// the crontab of a user made here edited through the page (a bad schedule read back as an error before saving, an
// entry added, disabled and deleted through their confirmations, another edited) with every other line kept byte for
// byte; a key generated with a passphrase that ssh-keygen then opens; the services page explaining that systemd does
// not run this machine (it does not on the test machine) or listing the units where it does. Each page is axe-clean
// at 1440 and 375 px (screenshots in /tmp/vigil-shots).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { axeViolations, checkFinishedPage, chromiumAvailable, launchChromium, watchedPage, type Watched } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { tempDir } from '../support/tmp.js';

const SHOTS = '/tmp/vigil-shots';
const USER = `vgui${randomBytes(3).toString('hex')}`;
const work = tempDir('vigil-e2e-systools-');
const home = join(work.path, 'home');
const ssh = join(home, '.ssh');
const TABLE = '# nightly jobs -- keep\nMAILTO=""\n\n0 3 * * 1-5 /usr/local/bin/backup --all\n@reboot /usr/bin/true\n';
const crontabOf = () => execFileSync('crontab', ['-u', USER, '-l'], { encoding: 'utf8' });

const s = suite<{ d: Dashboard; browser: Browser }>('e2e: host system tools');

async function open(browser: Browser, d: Dashboard, path: string): Promise<Watched> {
  const w = await watchedPage(browser);
  await w.page.goto(d.link);
  await w.page.goto(`${d.url}${path}`);
  return w;
}

if (chromiumAvailable('e2e host system tools')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    execFileSync('useradd', ['-M', '-s', '/usr/sbin/nologin', USER]);
    execFileSync('crontab', ['-u', USER, '-'], { input: TABLE });
    mkdirSync(ssh, { recursive: true, mode: 0o700 });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'dev@laptop', '-f', join(ssh, 'id_ed25519')]);
    execFileSync('sh', ['-c', `{ echo '# the laptop'; echo "no-pty $(cat ${join(ssh, 'id_ed25519.pub')})"; } > ${join(ssh, 'authorized_keys')}`]);
    ctx.d = await startDashboard({ gateway: false, extra: `probes: {}\nprivilege: {}\nsystools: { home: ${JSON.stringify(home)}, crontab_user: ${USER} }\n` });
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
    spawnSync('crontab', ['-u', USER, '-r']);
    spawnSync('userdel', [USER]);
    work.cleanup();
  });

  s('services: where systemd does not run, the page says so; where it does, the units are listed', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/services');
    const { page } = w;
    if (existsSync('/run/systemd/system')) {
      await page.waitForSelector('table');
      assert.match(await page.locator('table').innerText(), /\.service/);
    } else {
      await page.waitForSelector('text=systemd does not run this machine');
      assert.match(await page.locator('.empty-state').innerText(), /not the init system here[\s\S]*Scheduled tasks/);
      assert.is(await page.locator('table').count(), 0, 'no empty table');
    }
    await checkFinishedPage(w, SHOTS, 'host-services');
    await w.context.close();
  });

  s('services with run/systemd/system under the root: the real systemctl answers, and where it fails its words show, not an empty table', async ({ browser }) => {
    const root = join(work.path, 'root');
    mkdirSync(join(root, 'run/systemd/system'), { recursive: true });
    const other = await startDashboard({ gateway: false, extra: `probes: {}\nsystools: { home: ${JSON.stringify(home)}, root: ${JSON.stringify(root)} }\n` });
    try {
      const w = await open(browser, other, '/host/services?scope=user');
      if (existsSync('/run/systemd/system')) {
        // A systemd machine: the user's manager answers with units, or its absence is said in systemctl's words.
        await w.page.waitForSelector('table, text=No user manager answered');
        assert.ok(await w.page.locator('table, .empty-state').count() > 0);
      } else {
        await w.page.waitForSelector('text=No user manager answered');
        assert.match(await w.page.locator('.empty-state').innerText(), /not been booted with systemd|Failed to connect to bus[\s\S]*loginctl enable-linger/);
      }
      await checkFinishedPage(w, SHOTS, 'host-services-no-manager');
      await w.context.close();
    } finally {
      await other.stop();
    }
  });

  s('scheduled tasks: schedules in words; add, disable and delete through the page keep every other line byte for byte', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/scheduled');
    const { page } = w;
    await page.waitForSelector('text=every weekday at 03:00');
    assert.match(await page.locator('.cron-file').innerText(), /# nightly jobs -- keep[\s\S]*MAILTO=""/);
    await checkFinishedPage(w, SHOTS, 'host-scheduled');

    await page.getByRole('button', { name: 'Add a task' }).click();
    const form = page.getByRole('form', { name: 'New scheduled task' });
    await form.getByLabel('Schedule', { exact: true }).fill('0 25 * * *');
    await form.getByLabel('Command').fill('/usr/bin/report --weekly');
    await page.waitForSelector('text=the hour field has 25: it must be from 0 to 23');
    assert.ok(await form.getByRole('button', { name: 'Save' }).isDisabled(), 'an invalid schedule cannot be saved');
    assert.equal(await axeViolations(page), [], 'the form with a refused schedule');
    await form.getByLabel('Schedule', { exact: true }).fill('30 4 * * mon-fri');
    await page.waitForSelector('text=every weekday at 04:30');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('td >> text="/usr/bin/report --weekly"');
    assert.is(crontabOf(), `${TABLE}30 4 * * mon-fri /usr/bin/report --weekly\n`);

    // Disable the 03:00 entry through its confirmation: the line is commented out, nothing else changes.
    const row = page.locator('tr', { hasText: '/usr/local/bin/backup' });
    await row.getByRole('button', { name: 'Disable…' }).click();
    assert.equal(await axeViolations(page), [], 'the question before disabling');
    await row.getByRole('button', { name: 'Disable', exact: true }).click();
    await page.waitForFunction(() => /# 0 3 \* \* 1-5/.test(document.querySelector('.cron-file')?.textContent ?? ''));
    assert.is(crontabOf(), TABLE.replace('0 3 * * 1-5', '# 0 3 * * 1-5') + '30 4 * * mon-fri /usr/bin/report --weekly\n');

    const added = page.locator('tr', { hasText: '/usr/bin/report' });
    await added.getByRole('button', { name: 'Delete…' }).click();
    await added.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForFunction(() => !/report --weekly/.test(document.querySelector('.cron-file')?.textContent ?? ''));
    assert.is(crontabOf(), TABLE.replace('0 3 * * 1-5', '# 0 3 * * 1-5'));

    // Edit the @reboot entry: its line becomes the new schedule and command, every other line stays.
    await page.locator('tr', { hasText: '/usr/bin/true' }).getByRole('button', { name: /^Edit line/ }).click();
    const edit = page.getByRole('form', { name: /^Edit line/ });
    await edit.getByLabel('Schedule', { exact: true }).fill('@hourly');
    await edit.getByLabel('Command').fill('/usr/bin/true --hourly');
    await page.waitForSelector('text=every hour, on the hour');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('td >> text="/usr/bin/true --hourly"');
    assert.is(crontabOf(), TABLE.replace('0 3 * * 1-5', '# 0 3 * * 1-5').replace('@reboot /usr/bin/true', '@hourly /usr/bin/true --hourly'));
    assert.equal(w.problems, []);
    await w.context.close();
  });

  s('ssh keys: fingerprints as ssh-keygen prints them, authorized_keys with options; a key generated through the page opens with its passphrase', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/ssh-keys');
    const { page } = w;
    await page.waitForSelector('.ssh-fingerprint');
    const printed = execFileSync('ssh-keygen', ['-lf', join(ssh, 'id_ed25519.pub')], { encoding: 'utf8' }).split(' ')[1];
    assert.ok((await page.locator('.ssh-fingerprint').allInnerTexts()).includes(printed), 'the fingerprint as ssh-keygen prints it');
    assert.match(await page.getByRole('table', { name: 'authorized_keys' }).innerText(), /no-pty[\s\S]*|# the laptop/);
    await checkFinishedPage(w, SHOTS, 'host-ssh-keys');

    // The palette's command opens the form.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('Generate an SSH');
    await page.waitForSelector('[role="option"][aria-selected="true"]:has-text("Generate an SSH key")');
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Generate an ed25519 key' });
    await form.waitFor();
    await form.getByLabel('File name in ~/.ssh').fill('id_ed25519');
    await page.waitForSelector('text=id_ed25519 already exists');
    assert.equal(await axeViolations(page), [], 'the generate form with a refused name');
    await form.getByLabel('File name in ~/.ssh').fill('id_work');
    await form.getByLabel('Comment').fill('work laptop');
    const pass = `p-${randomBytes(8).toString('hex')}`;
    await form.getByLabel('Passphrase (optional)').fill(pass);
    await form.getByLabel('Passphrase again').fill(pass);
    await form.getByRole('button', { name: 'Generate ed25519 key' }).click();
    await page.waitForSelector('td >> text=id_work');
    const pub = readFileSync(join(ssh, 'id_work.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
    assert.is(execFileSync('ssh-keygen', ['-y', '-P', pass, '-f', join(ssh, 'id_work')], { encoding: 'utf8' }).split(' ').slice(0, 2).join(' '), pub);
    assert.match(await page.locator('tr', { hasText: 'id_work' }).innerText(), /Passphrase/);
    assert.equal(w.problems, []);
    await w.context.close();
  });

  s.run();
}
