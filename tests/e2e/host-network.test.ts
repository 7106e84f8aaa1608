// The Network and Traffic pages in a real browser against a real `vigil run` with the network plugin: a listener the
// test starts is listed and stopped through the confirmation (the process ends), the dashboard's own port has no
// buttons, the firewall says what it is, connections filter by state, and a capture of loopback traffic is started,
// ends at its packet count and is viewed in place; both pages are axe-clean at 1440 and 375 px (screenshots in
// /tmp/vigil-shots); the home gallery offers the ports widget, which lists the listeners.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, watchedPage, type Watched } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { freePort, waitFor } from '../support/net.js';

const SHOTS = '/tmp/vigil-shots';
const s = suite<{ d: Dashboard; browser: Browser; children: ChildProcess[] }>('e2e: host network and traffic');

async function open(browser: Browser, d: Dashboard, path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Watched> {
  const w = await watchedPage(browser, { colorScheme });
  await w.page.goto(d.link);
  await w.page.goto(`${d.url}${path}`);
  return w;
}

/** A real listener on 127.0.0.1:`port` with `marker` in its command line. */
async function listener(children: ChildProcess[], port: number, marker: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', `require('net').createServer(()=>{}).listen(${port},'127.0.0.1',()=>console.log('ready'));setInterval(()=>{},1000)`, marker], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (b) => { out += b; });
  await waitFor(() => out.includes('ready'), { what: marker });
  return child;
}

if (chromiumAvailable('e2e host network')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    ctx.children = [];
    ctx.d = await startDashboard({ gateway: false, extra: 'probes: {}\nnetwork: { captures: { keep: 5 } }\n' });
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser, children }) => {
    for (const c of children ?? []) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await browser?.close();
    await d?.stop();
  });

  s('network: a listener appears, Stop asks first and ends it; the own port has no buttons; the firewall is said', async ({ d, browser, children }) => {
    const port = await freePort();
    const child = await listener(children, port, 'vigil-e2e-listener');
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_c, sig) => resolve(sig)));
    const w = await open(browser, d, '/host/network');
    const { page } = w;
    await page.waitForSelector('.table tbody tr');
    await page.waitForSelector('.firewall-message');
    assert.match(await page.locator('.firewall-message').innerText(), /installed but not enabled|No firewall tool|enabled/);
    // The dashboard's own port: labelled, no Stop.
    const ownPort = new URL(d.url).port;
    const own = page.locator('.table tbody tr', { has: page.locator(`.port-cell strong:text-is("${ownPort}")`) });
    await own.first().waitFor();
    assert.match(await own.first().innerText(), /Vigil: this dashboard/);
    assert.is(await own.first().locator('button').count(), 0, 'no buttons on the own port');
    await checkFinishedPage(w, SHOTS, 'host-network');
    // Filter to the listener by its port, through the address.
    await page.fill('input[type="search"]', String(port));
    await page.waitForURL((u) => u.searchParams.get('q') === String(port));
    const row = page.locator('.table tbody tr', { hasText: 'vigil-e2e-listener' });
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(String(child.pid)));
    await row.locator('button:has-text("Stop…")').click();
    await row.locator('.confirm button:has-text("Stop it")').click();
    assert.is(await ended, 'SIGTERM', 'the listener ended by the Stop');
    await page.waitForSelector('text=No listening port matches');
    // The network-visible toggle is in the address.
    await page.click('[role="switch"]');
    await page.waitForURL((u) => u.searchParams.get('visible') === '1');
    await w.context.close();
  });

  s('traffic: interfaces, connections by state, and a loopback capture viewed in place', async ({ d, browser, children }) => {
    const port = await freePort();
    await listener(children, port, 'vigil-e2e-traffic');
    const held = connect(port, '127.0.0.1');
    await new Promise((r) => held.once('connect', r));
    try {
      const w = await open(browser, d, '/host/traffic', 'dark');
      const { page } = w;
      await page.waitForSelector('table[aria-label="Interfaces"] tbody tr, .table tbody tr');
      await page.waitForSelector('.network-states .chip');
      assert.match(await page.locator('.capture-warning').innerText(), /may record credentials/);
      await page.click('.network-states .chip:has-text("ESTABLISHED")');
      await page.waitForURL((u) => u.searchParams.get('state') === 'ESTABLISHED');
      // A capture of 4 packets on lo, filtered to the listener's port: connections made here fill it.
      await page.selectOption('.capture-form select', 'lo');
      await page.fill('.capture-form input[type="number"] >> nth=0', '4');
      await page.fill('.capture-form input[type="number"] >> nth=1', '20');
      await page.fill('.capture-form input[type="text"]', `tcp port ${port}`);
      await page.click('.capture-form button:has-text("Start a capture…")');
      await page.click('.capture-form .confirm button:has-text("Start the capture")');
      await page.waitForSelector('.capture-running');
      await waitFor(async () => {
        await new Promise<void>((resolve) => { const c = connect(port, '127.0.0.1', () => c.end()); c.on('close', () => resolve()); c.on('error', () => resolve()); });
        return (await page.locator('.capture-running').count()) === 0;
      }, { timeoutMs: 20_000, intervalMs: 300, what: 'the capture to end' });
      const item = page.locator('.capture-item').first();
      await item.locator('text=reached its packet count').waitFor();
      assert.match(await item.innerText(), /4 packets/);
      await item.locator('button:has-text("View")').click();
      await item.locator('.capture-view tbody tr').first().waitFor();
      assert.is(await item.locator('.capture-view tbody tr').count(), 4);
      assert.match(await item.locator('.capture-view').innerText(), new RegExp(`127\\.0\\.0\\.1:${port}`));
      // Without the privileged helper (Vigil is root here), the capture is recorded as a host action all the same.
      const audit = await page.evaluate(async () => (await fetch('/api/audit?action=host%20&limit=50')).json()) as { entries: { action: string; status: number }[] };
      assert.ok(audit.entries.some((e) => e.action === 'host tcpdump-capture' && e.status === 200), JSON.stringify(audit.entries.map((e) => e.action)));
      await checkFinishedPage(w, SHOTS, 'host-traffic');
      // Delete asks first.
      await item.locator('button:has-text("Delete…")').click();
      await item.locator('.confirm button:has-text("Delete")').click();
      await page.waitForSelector('text=No captures yet');
      await w.context.close();
    } finally {
      held.destroy();
    }
  });

  s('home: the gallery offers the ports widget, which lists the listeners, network-visible first', async ({ d, browser, children }) => {
    const port = await freePort();
    await listener(children, port, 'vigil-e2e-widget');
    const w = await open(browser, d, '/');
    const { page } = w;
    await page.waitForSelector('[data-widget-id="cpu"]');
    // The grid is drawn before GET /api/homelayout answers, and the answer (kept in localStorage then) would replace a
    // widget added before it.
    await page.waitForFunction(() => localStorage.getItem('vigil.homelayout') !== null);
    await page.click('button:has-text("Customize")');
    await page.click('button:has-text("Add a widget")');
    await page.waitForSelector('dialog.widget-gallery[open]');
    await page.fill('#gallery-query', 'listening');
    await page.click('button[aria-label="Add Listening ports"]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-widget-id="ports"] .widget-list li');
    // Network-visible first, then by port: the first line is the API's first such row; the count names the new one too.
    type Ports = { total: number; ports: { port: number; protocol: string; visible: boolean; pid: number | null }[] };
    const read = async () => await page.evaluate(async () => (await fetch('/api/net?limit=200')).json()) as Ports;
    const firstOf = (a: Ports) => [...a.ports].sort((x, y) => Number(y.visible) - Number(x.visible) || x.port - y.port)[0];
    // The widget shows its last poll (every 15 s) and this machine's listeners change meanwhile (other suites' processes
    // start and stop): wait until the widget and a read of the API agree on everything compared below.
    const api = (await waitFor(async () => {
      const a = await read();
      const f = firstOf(a);
      const line = await page.locator('[data-widget-id="ports"] .widget-list li').first().innerText();
      const label = await page.locator('[data-widget-id="ports"] .widget-list').getAttribute('aria-label') ?? '';
      return a.ports.some((p) => p.port === port) && new RegExp(`^${f.port}/${f.protocol}`).test(line) && new RegExp(`Listening ports: ${a.total}`).test(label) ? a : undefined;
    }, { timeoutMs: 20_000, intervalMs: 500, what: 'the ports widget to agree with /api/net' }).catch(() => undefined)) ?? await read();
    assert.ok(api.ports.some((p) => p.port === port), 'the listener is in the list the widget reads');
    const first = firstOf(api);
    assert.match(await page.locator('[data-widget-id="ports"] .widget-list li').first().innerText(), new RegExp(`^${first.port}/${first.protocol}`));
    assert.match(await page.locator('[data-widget-id="ports"] .widget-list').getAttribute('aria-label') ?? '', new RegExp(`Listening ports: ${api.total}`));
    assert.equal(w.problems, []);
    await w.context.close();
  });
}

s.run();
