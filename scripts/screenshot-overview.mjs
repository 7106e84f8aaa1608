// Regenerates docs/images/overview.png, the README's screenshot, from a real demo: it runs `vigil demo` (built tree),
// lets its traffic flow, opens the dashboard's link in headless Chromium (Debian's, driven by playwright-core) and
// photographs the gateway overview at 1440×900. Nothing is staged: the figures are what the demo's traffic made.
//
// Usage: node scripts/build.mjs && node scripts/screenshot-overview.mjs [--wait 300] [--theme dark|light] [--out FILE]
// Env:   VIGIL_CHROMIUM (default /usr/bin/chromium)
// The README's image is what the defaults make: the overview's last hour after five minutes of traffic, dark theme.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const waitSeconds = Number(flag('wait', '300'));
const theme = flag('theme', 'dark');
const out = resolve(flag('out', join(root, 'docs/images/overview.png')));
if (!(waitSeconds >= 0) || !['light', 'dark'].includes(theme)) {
  console.error('usage: node scripts/screenshot-overview.mjs [--wait SECONDS] [--theme light|dark] [--out FILE]');
  process.exit(2);
}

const freePort = () => new Promise((resolve, reject) => {
  const srv = createServer();
  srv.on('error', reject);
  srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const [port, proxyPort] = [await freePort(), await freePort()];
const demo = spawn(process.execPath, ['--max-semi-space-size=64', join(root, 'bin/vigil.js'), 'demo', '--port', String(port), '--proxy-port', String(proxyPort)], {
  cwd: root, env: { ...process.env, VIGIL_TOKEN: '' }, stdio: ['ignore', 'pipe', 'inherit'],
});
let stdout = '';
demo.stdout.on('data', (d) => { stdout += d; });
const exited = new Promise((resolve) => demo.on('close', (code, signal) => resolve({ code, signal })));

let browser;
try {
  let link;
  for (let i = 0; i < 200 && !link; i++) {
    link = /Dashboard: (http:\/\/\S+\?token=\S+)/.exec(stdout)?.[1];
    if (demo.exitCode !== null) throw new Error(`vigil demo exited:\n${stdout}`);
    if (!link) await sleep(100);
  }
  if (!link) throw new Error(`no dashboard link from vigil demo:\n${stdout}`);
  console.log(`demo running; letting its traffic flow for ${waitSeconds} s`);
  await sleep(waitSeconds * 1000);

  browser = await chromium.launch({
    executablePath: process.env.VIGIL_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
    headless: true,
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: theme, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(link);
  await page.goto(new URL('/gateway?range=1h', link).href);
  // The overview marks the moment its three charts have drawn (overview-page.tsx, CHARTS_DRAWN_MARK); then fonts,
  // and a second for the frame to settle.
  await page.waitForFunction("performance.getEntriesByName('vigil:overview-charts-drawn').length > 0", undefined, { timeout: 15_000 });
  await page.evaluate('document.fonts.ready');
  await sleep(1000);
  await page.screenshot({ path: out });
  console.log(`${relative(process.cwd(), out)}: ${Math.round(statSync(out).size / 1024)} KB`);
} finally {
  await browser?.close();
  demo.kill('SIGINT');
  const { code } = await exited;
  if (code !== 0) console.error(`vigil demo exited with ${code}`);
}
