// The Host area in a real browser against a real `vigil run` with the probes plugin on this machine's /proc: the
// overview reads the machine and follows the live stream, the history switches range through the address and its
// CSV link carries no token, processes and kernel tunables search, the host alerts test a rule before saving; every
// page is axe-clean at 1440 and 375 px in both themes (screenshots in /tmp/vigil-shots).
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { axeViolations, checkFinishedPage, chromiumAvailable, launchChromium, watchedPage, type Watched } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { fixture } from '../support/paths.js';
import { hostRoot } from '../support/host-root.js';

/** bench/support/host-history-filler.ts, loaded at run time (outside this suite's type project, like records-filler). */
type FillHostHistory = (url: string, options?: { days?: number }) => Promise<{ samples: number; hours: number }>;
const filler = new URL('../../bench/support/host-history-filler.js', import.meta.url).href;
const { fillHostHistory } = (await import(filler)) as { fillHostHistory: FillHostHistory };

const SHOTS = '/tmp/vigil-shots';
const s = suite<{ d: Dashboard; browser: Browser; filled: { samples: number; hours: number } }>('e2e: host pages');

async function open(browser: Browser, d: Dashboard, path: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Watched> {
  const w = await watchedPage(browser, { colorScheme });
  await w.page.goto(d.link);
  await w.page.goto(`${d.url}${path}`);
  return w;
}

if (chromiumAvailable('e2e host pages')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    ctx.d = await startDashboard({
      gateway: false,
      extra: 'probes: {}\nalerts: { interval: 60s }\nchannels: {}\n',
      seed: async (url) => { ctx.filled = await fillHostHistory(url, { days: 14 }); },
    });
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
  });

  s('the history filler wrote a day of minutes and two weeks of hours', ({ filled }) => {
    assert.ok(filled.samples >= 1400 && filled.samples <= 1441, `${filled.samples} minute samples`);
    assert.ok(filled.hours >= 13 * 24, `${filled.hours} hours`);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    s(`overview: this machine's figures, then the live stream moves them (${colorScheme})`, async ({ d, browser }) => {
      const w = await open(browser, d, '/host', colorScheme);
      const { page } = w;
      await page.waitForSelector('.host-grid .card');
      await page.waitForSelector('.host-card-health');
      const cards = await page.locator('.host-grid .card-title').allInnerTexts();
      for (const title of ['CPU', 'Memory', 'Disks', 'Network', 'Health score']) assert.ok(cards.includes(title), `${title} card in ${cards.join(', ')}`);
      // What /api/caps says the machine lacks has no card.
      const caps = await page.evaluate(async () => (await fetch('/api/caps')).json()) as { battery: boolean };
      assert.is(cards.includes('Battery'), caps.battery, 'a battery card only with a battery');
      assert.match(await page.locator('.stats').innerText(), /CPU[\s\S]*Memory/);
      // The 2 s stream: the CPU sparkline gains points while the page is open.
      await page.waitForFunction(() => (document.querySelector('.host-card .sparkline-line')?.getAttribute('d')?.split('L').length ?? 0) >= 3, undefined, { timeout: 15_000 });
      assert.match(await page.locator('.live-badge').innerText(), /Live/);
      await checkFinishedPage(w, SHOTS, `host-overview-${colorScheme}`);
      await w.context.close();
    });
  }

  s('overview of a laptop (a fixture /proc and /sys): battery with its health, every sensor hottest first, the GPU', async ({ browser }) => {
    const laptop = await startDashboard({ gateway: false, extra: `probes: { root: ${JSON.stringify(fixture('proc-laptop'))}, nvidia_smi: false }\n` });
    try {
      for (const colorScheme of ['light', 'dark'] as const) {
        const w = await open(browser, laptop, '/host', colorScheme);
        const { page } = w;
        await page.waitForSelector('.host-grid .card');
        await page.waitForFunction(() => [...document.querySelectorAll('.host-grid .card-title')].some((t) => /Batter/.test(t.textContent ?? '')));
        const cards = await page.locator('.host-grid .card-title').allInnerTexts();
        for (const title of ['Temperatures', 'Battery', 'GPU']) assert.ok(cards.some((c) => c.startsWith(title)), `${title} in ${cards.join(', ')}`);
        // Sensors hottest first: the figure is the first bar's.
        const temps = await page.locator('.host-sensors .meter-value').allInnerTexts();
        const degrees = temps.map((t) => Number.parseFloat(t));
        assert.equal(degrees, [...degrees].sort((a, b) => b - a), 'hottest first');
        assert.match(await page.locator('.stats').innerText(), /Hottest sensor/);
        await checkFinishedPage(w, SHOTS, `host-overview-laptop-${colorScheme}`);
        await w.context.close();
      }
    } finally {
      await laptop.stop();
    }
  });

  s('security: SSH red flags, failed logins by source and a second root, worst first; they count in the health score', async ({ browser }) => {
    // A made-up machine: this one has no SSH server and no auth log. /proc and /sys are the laptop's.
    const now = new Date().toISOString();
    const root = hostRoot({
      '/etc/ssh/sshd_config': 'PermitRootLogin yes\nPasswordAuthentication yes\n',
      '/etc/group': 'root:x:0:\nsudo:x:27:alice\n',
      '/etc/passwd': 'root:x:0:0:root:/root:/bin/bash\ntoor:x:0:0::/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/bash\n',
      '/var/log/auth.log': [1, 2, 3].map((i) => `${now} web sshd[${i}]: Failed password for invalid user admin${i} from 203.0.113.9 port ${5000 + i} ssh2`).join('\n') + '\n',
    });
    symlinkSync(join(fixture('proc-laptop'), 'proc'), join(root.path, 'proc'));
    symlinkSync(join(fixture('proc-laptop'), 'sys'), join(root.path, 'sys'));
    const machine = await startDashboard({ gateway: false, extra: `probes: { root: ${JSON.stringify(root.path)}, nvidia_smi: false }\n` });
    try {
      for (const colorScheme of ['light', 'dark'] as const) {
        const w = await open(browser, machine, '/host/security', colorScheme);
        const { page } = w;
        await page.waitForSelector('.host-finding');
        const titles = await page.locator('.host-finding-title').allInnerTexts();
        assert.equal(titles.slice(0, 2), ['toor has user id 0', 'SSH lets root log in with a password'], titles.join(' | '));
        assert.ok(titles.includes('3 failed SSH logins this week'), titles.join(' | '));
        const row = page.locator('tr', { hasText: '203.0.113.9' });
        assert.match(await row.innerText(), /SSH[\s\S]*3[\s\S]*admin1, admin2, admin3/);
        assert.match(await page.locator('.host-note').first().innerText(), /reachable ports and the firewall \(the network plugin is off\)/);
        await checkFinishedPage(w, SHOTS, `host-security-${colorScheme}`);
        await w.context.close();
      }
      const health = await (await fetch(`${machine.url}/api/healthscore`, { headers: { authorization: `Bearer ${machine.token}` } })).json() as { findings: { title: string; action: string }[] };
      assert.ok(health.findings.some((f) => f.title === 'toor has user id 0' && f.action === 'security'), JSON.stringify(health.findings));
    } finally {
      await machine.stop();
      root.cleanup();
    }
  });

  s('history: the range is in the address, each range draws its charts, and the CSV link carries no token', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/history', 'dark');
    const { page } = w;
    await page.waitForFunction(() => document.querySelectorAll('.chart canvas').length >= 6);
    assert.match(await page.locator('.stats').innerText(), /Samples\s*1,?4\d\d/);
    for (const [range, label] of [['7d', 'Last 7 days'], ['30d', 'Last 30 days'], ['90d', 'Last 90 days'], ['24h', 'Last 24 hours']] as const) {
      await page.click(`[role="radio"][aria-label^="${label}"]`);
      // The default range is left out of the address.
      await page.waitForURL((u) => u.searchParams.get('range') === (range === '24h' ? null : range));
      await page.waitForFunction(() => document.querySelectorAll('.chart canvas').length >= 6);
      const stats = await page.locator('.stats').innerText();
      if (range === '24h') assert.match(stats, /Samples/);
      else assert.match(stats, /Hours\s*\d{3}/, `${range}: ${stats}`);
    }
    const href = await page.locator('a[download]').getAttribute('href');
    assert.is(href, '/api/trendcsv?range=24h');
    const csv = await page.evaluate(async (h) => { const r = await fetch(h!); return { status: r.status, type: r.headers.get('content-type'), text: (await r.text()).slice(0, 200) }; }, href);
    assert.is(csv.status, 200);
    assert.match(csv.type ?? '', /csv/);
    assert.match(csv.text, /cpu/);
    // Back goes to the range before.
    await page.goto(`${d.url}/host/history?range=30d`);
    await page.waitForFunction(() => document.querySelectorAll('.chart canvas').length >= 6);
    await checkFinishedPage(w, SHOTS, 'host-history-30d');
    await w.context.close();
  });

  s('processes: top by CPU and by memory, a search in the address, cards at 375 px', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/processes');
    const { page } = w;
    await page.waitForSelector('.table tbody tr');
    assert.ok(await page.locator('.table tbody tr').count() > 3, 'several processes');
    await page.click('[role="radio"][aria-label="Largest by memory"]');
    await page.waitForURL((u) => u.searchParams.get('sort') === 'mem');
    await page.fill('input[type="search"]', 'node');
    await page.waitForURL((u) => u.searchParams.get('q') === 'node');
    await page.waitForFunction(() => [...document.querySelectorAll('.table tbody tr')].length > 0
      && [...document.querySelectorAll('.table tbody tr')].every((tr) => /node/i.test(tr.textContent ?? '')));
    await checkFinishedPage(w, SHOTS, 'host-processes');
    await w.context.close();
  });

  s('kernel: read-only tunables with a search', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/kernel?q=swappiness', 'dark');
    const { page } = w;
    await page.waitForSelector('text=vm.swappiness');
    assert.is(await page.locator('input[type="search"]').inputValue(), 'swappiness');
    await page.fill('input[type="search"]', 'no-such-tunable-xyz');
    await page.waitForSelector('text=No tunable matches');
    await checkFinishedPage(w, SHOTS, 'host-kernel');
    await w.context.close();
  });

  s('logs: a source and filters in the address; the page is whole whatever this machine has', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/logs?source=file&path=/nonexistent/x.log');
    const { page } = w;
    await page.waitForSelector('.error-state, .log-lines, .card .empty-state');
    await page.goto(`${d.url}/host/logs?source=file`);
    await page.waitForSelector('text=Which file?');
    assert.equal(await axeViolations(page), [], 'the file prompt');
    await page.click('[role="radio"][aria-label="Kernel messages"]');
    await page.waitForURL((u) => u.searchParams.get('source') === 'kernel');
    await page.waitForSelector('.error-state, .log-lines, .card .empty-state');
    assert.equal(await axeViolations(page), [], 'kernel lines');
    await w.context.close();
    // The system journal, where this machine has one readable: a finished page at both widths.
    const sys = await open(browser, d, '/host/logs?prio=info');
    await sys.page.waitForSelector('.error-state, .log-lines, .card .empty-state');
    if (await sys.page.locator('.log-lines').count()) {
      assert.match(await sys.page.locator('.log-line').first().innerText(), /\S/);
      await checkFinishedPage(sys, SHOTS, 'host-logs');
    }
    await sys.context.close();
  });

  s('host alerts: the five thresholds, and a custom rule tested before it is saved', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/alerts');
    const { page } = w;
    await page.waitForSelector('.thresholds .threshold');
    const names = await page.locator('.threshold-name').allInnerTexts();
    assert.ok(names.length >= 4, names.join(', '));
    await page.click('text=Add a rule');
    await page.selectOption('.custom-form select', 'port');
    await page.fill('.custom-form input[placeholder="Shown in the notice"]', 'Nothing on 9');
    await page.fill('.custom-form input[placeholder="5432"]', '9');
    await page.click('.custom-form button:has-text("Test")');
    await page.waitForSelector('.custom-test');
    assert.match(await page.locator('.custom-test').innerText(), /Would fire now|Cannot look/);
    await checkFinishedPage(w, SHOTS, 'host-alerts-test');
    await page.click('.custom-form button:has-text("Save the rule")');
    await page.waitForSelector('.custom-rule:has-text("Nothing on 9")');
    await w.context.close();
  });
}

s.run();
