// Benchmark: time from navigation start to the gateway overview's three charts drawn, in Debian's headless Chromium,
// against a real `vigil run` (control plane, ui, capture) whose store holds 100,000 records over the last 24 hours
// (bench/support/records-filler.ts: capture's own rows and minute rollups). The page sets a performance mark once
// its charts have drawn on their canvases (overview-page.tsx, CHARTS_DRAWN_MARK); its startTime is the figure.
// Target (bench/README.md): ≤ 1 s. Printed against it as a ratio, for a cold visit (a fresh browser context: nothing
// cached, the session cookie only) and a warm one (the same context again: the hashed assets come from the cache).
//
// Also printed, to tell where the time goes: the overview API's own time over HTTP (median), and per visit the
// time to the first byte of the document and the overview API's response as the browser timed it.
//
// Usage: node dist/bench/ui-overview-time.js [records, default 100000]
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '../tests/support/net.js';
import { tempDir } from '../tests/support/tmp.js';
import { startVigil, writeConfig } from '../tests/support/vigil-process.js';
import { median } from './support/median.js';
import { fillRecordsAt } from './support/records-filler.js';

const COUNT = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET_MS = 1000;
const TOKEN = 'bench-ui-overview-token-0123456789';
const MARK = 'vigil:overview-charts-drawn';
// As tests/e2e/browser.ts has them (that module is typed for the DOM, which the benchmarks' project is not).
const CHROMIUM = process.env.VIGIL_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

if (!existsSync(CHROMIUM)) {
  console.log(`ui overview time: skipped, no Chromium at ${CHROMIUM}`);
  process.exit(0);
}

const work = tempDir('vigil-bench-overview-');
// Ten minutes short of 24 h, so that every record is still in the overview's range when the visits end.
const fill = await fillRecordsAt(`sqlite:${join(work.path, 'data', 'vigil.db')}`, { count: COUNT, spanMs: 86_400_000 - 600_000 });
console.log(`  filled ${fill.records} records over 24 h in ${(fill.ms / 1000).toFixed(1)} s`);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const config = writeConfig(work.path, `data_dir: ${work.path}/data
control_plane: { listen: 127.0.0.1:${port}, token: ${TOKEN} }
ui: {}
capture: {}
rules:
  - { name: all-traffic, match: { path: /** }, labels: { tenant: header:X-Tenant-Id } }
`);
const vigil = await startVigil(config, url, { timeoutMs: 60_000 });
let browser: Browser | undefined;

interface Visit { drawn: number; ttfb: number; overviewApi: number }

/** One visit to the overview: navigation start to the charts' mark, with the document's and the API's timings. */
async function visit(page: Page): Promise<Visit> {
  await page.goto(`${url}/gateway`);
  // Functions, not strings: the page's CSP forbids eval, which a string predicate would need. Typed loosely: this
  // project has no DOM types.
  await page.waitForFunction((mark) => (globalThis as any).performance.getEntriesByName(mark).length > 0, MARK, { timeout: 30_000 });
  return page.evaluate((mark) => {
    const perf = (globalThis as any).performance;
    const nav = perf.getEntriesByType('navigation')[0];
    const api = perf.getEntriesByType('resource').find((e: { name: string }) => e.name.includes('/api/gateway/overview'));
    return { drawn: perf.getEntriesByName(mark)[0].startTime as number, ttfb: nav.responseStart as number, overviewApi: api ? (api.responseEnd - api.startTime) as number : NaN };
  }, MARK);
}

try {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  // The API alone, over HTTP: what the page waits for before it can draw.
  const api: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/gateway/overview?range=24h`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const body = await res.json() as { requests: number };
    if (i >= 2) api.push(performance.now() - t0);
    if (body.requests !== COUNT) throw new Error(`the overview counts ${body.requests} requests, not ${COUNT}`);
  }
  const cold: Visit[] = [];
  const warm: Visit[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    // Log in as a script would (POST /login, whose cookie the context keeps): no page loaded, so nothing is cached.
    const login = await context.request.post(`${url}/login`, { form: { token: TOKEN }, maxRedirects: 0 });
    if (login.status() !== 303) throw new Error(`login answered ${login.status()}`);
    const fresh = await context.newPage();
    cold.push(await visit(fresh));
    warm.push(await visit(fresh));
    await context.close();
  }
  const report = (name: string, visits: Visit[]) => {
    const drawn = median(visits.map((v) => v.drawn));
    console.log(`ui overview time (${name}): ${drawn.toFixed(0)} ms to the charts drawn (ratio ${(drawn / TARGET_MS).toFixed(2)} vs target ${TARGET_MS} ms; ` +
      `median of ${visits.length}, range ${Math.min(...visits.map((v) => v.drawn)).toFixed(0)}-${Math.max(...visits.map((v) => v.drawn)).toFixed(0)} ms; ` +
      `document first byte ${median(visits.map((v) => v.ttfb)).toFixed(0)} ms, overview API ${median(visits.map((v) => v.overviewApi)).toFixed(0)} ms)`);
  };
  report('cold cache', cold);
  report('warm cache', warm);
  console.log(`  GET /api/gateway/overview?range=24h alone: ${median(api).toFixed(1)} ms (median of ${api.length}); ${COUNT} records over 24 h in SQLite`);
} finally {
  await browser?.close();
  await vigil.stop();
  work.cleanup();
}
