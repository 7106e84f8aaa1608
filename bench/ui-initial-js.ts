// Benchmark: the JavaScript a browser downloads to show the gateway's overview with its charts, gzip-compressed as
// the ui plugin sends it, against the budget of 120 KB (bench/README.md). Measured in Debian's Chromium on a real
// `vigil run` with captured traffic, so it counts what the page really loads: the shell, its preloaded chunks, the
// overview's chunk and the lazily loaded chart library; later pages' chunks are not fetched.
// Prints `ui initial js: X KB gzip (ratio X.XX vs budget 120 KB)`.
//
// Usage: node dist/bench/ui-initial-js.js
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { fromRoot } from '../tests/support/paths.js';
import { startDashboard, waitForRequests } from '../tests/support/dashboard.js';

const BUDGET_KB = 120;
const CHROMIUM = process.env.VIGIL_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  console.log(`ui initial js: skipped, no Chromium at ${CHROMIUM}`);
  process.exit(0);
}

/** Bytes on the wire with gzip: the build's .gz sibling when it kept one (only when smaller), else the file. */
function gzipBytes(name: string): { gzip: number; raw: number } {
  const file = fromRoot('dist/ui/assets', name);
  const raw = statSync(file).size;
  return { gzip: existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : Math.min(raw, gzipSync(readFileSync(file)).length), raw };
}

const d = await startDashboard();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  await d.traffic(['/api/orders/1', '/api/users/2', '/api/fail'], 30);
  await waitForRequests(d, 30);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(d.link);
  await page.waitForSelector('.stats');
  // The first visit logs in; the count is of a fresh load of the overview, as after a bookmark.
  await context.clearCookies();
  await page.goto(d.link);
  const scripts = new Set<string>();
  page.on('request', (r) => { if (r.resourceType() === 'script') scripts.add(basename(new URL(r.url()).pathname)); });
  await page.goto(`${d.url}/gateway?range=24h`);
  // A function, not a string: the page's CSP forbids eval, which a string predicate would need.
  await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('.chart canvas').length === 3);
  const sizes = [...scripts].map(gzipBytes);
  const gzip = sizes.reduce((n, s) => n + s.gzip, 0) / 1024;
  const raw = sizes.reduce((n, s) => n + s.raw, 0) / 1024;
  console.log(`ui initial js: ${gzip.toFixed(1)} KB gzip (ratio ${(gzip / BUDGET_KB).toFixed(2)} vs budget ${BUDGET_KB} KB; ` +
    `${scripts.size} files, ${raw.toFixed(1)} KB minified, chart library included)`);
} finally {
  await browser.close();
  await d.stop();
}
