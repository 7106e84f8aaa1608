// The Containers page in a real browser against a real `vigil run` and the engine fakes (tests/support/
// fake-container-engines.ts: a Docker Engine API with state, a Kubernetes API, a Podman socket that never answers):
// the environments with the hung one reported, Docker's containers and the cluster's pods; a stop confirmed changes
// the row; a remove says what is lost and needs force for a running container; logs read and followed; Shell opens
// a terminal tab typing the engine's exec. Axe-clean at 1440 and 375 px, light and dark (screenshots in /tmp/vigil-shots).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, watchedPage, type Watched } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { startFakeDocker, startFakeKube, startHungSocket, type FakeDocker, type FakeKube } from '../support/fake-container-engines.js';
import { tempDir } from '../support/tmp.js';

const SHOTS = process.env.VIGIL_SHOTS ?? '/tmp/vigil-shots';
interface Ctx {
  d: Dashboard; browser: Browser; dir: { path: string; cleanup(): void };
  docker: FakeDocker; hung: Awaited<ReturnType<typeof startHungSocket>>; kube: FakeKube;
}
const s = suite<Ctx>('e2e: containers');

async function open(browser: Browser, d: Dashboard, path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Watched> {
  const w = await watchedPage(browser, { colorScheme });
  await w.page.goto(d.link);
  await w.page.goto(`${d.url}${path}`);
  return w;
}

const row = (page: Page, name: string) => page.locator('tr', { has: page.locator('.ctr-name', { hasText: new RegExp(`^${name}$`) }) });

if (chromiumAvailable('e2e containers')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    ctx.dir = tempDir('vigil-e2e-ctr-');
    ctx.docker = await startFakeDocker(join(ctx.dir.path, 'docker.sock'));
    ctx.hung = await startHungSocket(join(ctx.dir.path, 'podman.sock'));
    ctx.kube = await startFakeKube(join(ctx.dir.path, 'kubeconfig'));
    const none = join(ctx.dir.path, 'none.sock');
    ctx.d = await startDashboard({
      gateway: false,
      extra: `probes: {}
terminal: { enabled: true }
containers:
  sockets: { docker: ${ctx.docker.socketPath}, podman: ${ctx.hung.socketPath}, lxd: ${none}, incus: ${none} }
  kubeconfig: ${ctx.kube.kubeconfig}
  nerdctl: ${join(ctx.dir.path, 'no-nerdctl')}
  timeout: 1s
`,
    });
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser, dir, docker, hung, kube }) => {
    await browser?.close();
    await d?.stop();
    await docker?.close();
    await hung?.close();
    await kube?.close();
    dir?.cleanup();
  });

  for (const scheme of ['light', 'dark'] as const) {
    s(`the page (${scheme}): environments with the hung Podman reported, Docker's containers, the other engines' section, the pods`, async ({ d, browser }) => {
      const w = await open(browser, d, '/host/containers', scheme);
      const { page } = w;
      await page.waitForSelector('.ctr-env');
      const envs = await page.locator('.ctr-envs').innerText();
      assert.match(envs, /Docker\s+answered/);
      assert.match(envs, /Podman\s+unreachable[\s\S]*no answer in 1 s/);
      assert.match(envs, /Kubernetes\s+answered[\s\S]*3 pods/);
      assert.is(await page.locator('.ctr-name').count(), 4 + 3, 'four containers and three pods');
      assert.match(await row(page, 'running_cat').innerText(), /running/);
      assert.match(await row(page, 'boring_feynman').innerText(), /3333->2222\/tcp/);
      assert.ok(await page.locator('text=Other engines').count() > 0, 'Podman was found, so its section shows');
      assert.match(await page.locator('tr', { hasText: 'web-7d4b9c8f6d-x2k9p' }).innerText(), /1\/2 · Running[\s\S]*7[\s\S]*node-a/);
      assert.is(await page.locator('.sidebar a[href="/host/containers"]').count(), 1, 'listed: /api/caps reports engines');
      await checkFinishedPage(w, SHOTS, `host-containers-${scheme}`);
      await w.context.close();
    });
  }

  s('stop, confirmed, turns the row to exited; remove says what is lost and a running container needs force', async ({ d, browser, docker }) => {
    const w = await open(browser, d, '/host/containers');
    const { page } = w;
    await page.waitForSelector('.ctr-name:text-is("running_cat")');
    await page.click('button[aria-label="Remove running_cat"]');
    const confirm = page.locator('form.confirm');
    assert.match(await confirm.innerText(), /writable layer[\s\S]*Kept: the image/);
    assert.is(await confirm.locator('button[type="submit"]').isDisabled(), true, 'a running container: remove waits for force');
    await checkFinishedPage(w, SHOTS, 'host-containers-remove-confirm');
    await confirm.locator('button:has-text("Cancel")').click();
    await page.click('button[aria-label="Stop running_cat"]');
    assert.match(await page.locator('form.confirm').innerText(), /SIGTERM/);
    await page.click('form.confirm button[type="submit"]');
    await page.waitForFunction(() => [...document.querySelectorAll('tr')].some((tr) => tr.textContent?.includes('running_cat') && tr.textContent.includes('exited')));
    assert.ok(docker.requests.includes('POST /containers/4cb07b47f9fb/stop?t=10'), docker.requests.join('\n'));
    await page.click('button[aria-label="Remove sleepy_dog"]');
    await page.click('form.confirm button[type="submit"]');
    await page.waitForFunction(() => ![...document.querySelectorAll('.ctr-name')].some((el) => el.textContent === 'sleepy_dog'));
    assert.is(docker.containers.has('3176a2479c92'), false);
    await w.context.close();
  });

  s('logs: the last lines, then followed as new lines come', async ({ d, browser, docker }) => {
    const w = await open(browser, d, '/host/containers');
    const { page } = w;
    await page.click('button[aria-label="Logs of coolName"]');
    await page.waitForSelector('pre.ctr-log:has-text("coolName line 300")');
    assert.not.match(await page.locator('pre.ctr-log').innerText(), /coolName line 200\n/, 'the last 100 lines only');
    await page.click('button:has-text("Follow")');
    await page.waitForSelector('text=following: new lines appear as they come');
    await page.waitForSelector('pre.ctr-log:has-text("coolName line 300")');
    docker.say('coolName', 'written while the page watched');
    await page.waitForSelector('pre.ctr-log:has-text("written while the page watched")');
    await checkFinishedPage(w, SHOTS, 'host-containers-logs');
    await page.click('button:has-text("Stop following")');
    await w.context.close();
  });

  s('Shell opens a terminal tab on the container\'s exec through the Engine API: typed into, answered', async ({ d, browser, docker }) => {
    const w = await open(browser, d, '/host/containers');
    const { page } = w;
    await page.click('button[aria-label="Start coolName"]');
    await page.click('form.confirm button[type="submit"]');
    await page.waitForSelector('button[aria-label="Shell in coolName"]');
    await page.click('button[aria-label="Shell in coolName"]');
    await page.waitForURL(/\/host\/terminal$/);
    const screen = () => page.evaluate(() => (document.querySelector('.terminal-pane .xterm-rows')?.textContent ?? '').replace(/\s+/g, ' '));
    await page.waitForFunction(() => (document.querySelector('.terminal-pane .xterm-rows')?.textContent ?? '').includes('/ #'), undefined, { timeout: 15_000 });
    await page.locator('.terminal-pane .terminal-screen').click();
    await page.keyboard.type('ls /');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (document.querySelector('.terminal-pane .xterm-rows')?.textContent ?? '').includes('ran: ls /'), undefined, { timeout: 15_000 });
    assert.ok(docker.requests.some((r) => /^POST \/exec\/[0-9a-f]{64}\/start upgrade$/.test(r)), docker.requests.join('\n'));
    assert.ok(docker.requests.includes('POST /containers/9cd87474be90/exec'), 'the exec was made for that container');
    assert.match(await screen(), /ran: ls \//);
    await w.context.close();
  });

  s('nothing found: the page is not listed, and opened by its address it says what it looked for and where', async ({ browser, dir }) => {
    const gone = join(dir.path, 'nothing-here');
    const bare = await startDashboard({
      gateway: false,
      extra: `probes: {}
containers:
  sockets: { docker: ${gone}/docker.sock, podman: ${gone}/podman.sock, lxd: ${gone}/lxd.sock, incus: ${gone}/incus.sock }
  kubeconfig: ${gone}/kubeconfig
  nerdctl: ${gone}/nerdctl
`,
    });
    try {
      const w = await open(browser, bare, '/host');
      await w.page.waitForSelector('.sidebar a[href="/host/processes"]');
      await w.page.waitForFunction(() => document.querySelectorAll('.sidebar a[href="/host/containers"]').length === 0);
      await w.page.goto(`${bare.url}/host/containers`);
      await w.page.waitForSelector('text=No container environment found');
      const text = await w.page.locator('.ctr-places').innerText();
      assert.match(text, new RegExp(`Docker: ${gone.replace(/[/.]/g, '\\$&')}/docker\\.sock`));
      assert.match(text, /Kubernetes: .*kubeconfig/);
      await checkFinishedPage(w, SHOTS, 'host-containers-none');
      await w.context.close();
    } finally {
      await bare.stop();
    }
  });
}

s.run();
