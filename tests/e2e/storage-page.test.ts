// Host › Storage and Files in a real browser against a real `vigil run` with the files plugin over a tree the test
// made: folder sizes with a drill-down and back, a duplicate search whose progress shows and whose cancel stops it
// early, a text file edited and saved, moved to the trash after a confirmation and restored, a cache cleaned after its
// size was shown and confirmed; each page axe-clean at 1440 and 375 px (screenshots in /tmp/vigil-shots).
import { mkdirSync, readFileSync, truncateSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { checkFinishedPage, chromiumAvailable, launchChromium, watchedPage, type Watched } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { makeDuplicateTree } from '../support/file-trees.js';
import { waitFor } from '../support/net.js';
import { tempDir } from '../support/tmp.js';

const SHOTS = '/tmp/vigil-shots';
const work = tempDir('vigil-e2e-storage-');
const root = join(work.path, 'home');
const s = suite<{ d: Dashboard; browser: Browser }>('e2e: storage pages');

async function open(browser: Browser, d: Dashboard, path: string): Promise<Watched> {
  const w = await watchedPage(browser);
  await w.page.goto(d.link);
  await w.page.goto(`${d.url}${path}`);
  return w;
}

if (chromiumAvailable('e2e storage pages')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    makeDuplicateTree(join(root, 'tree'));
    // Two sparse 64 GiB files of one size: hashing them whole takes far longer than the test waits.
    mkdirSync(join(root, 'sparse'));
    for (const name of ['one.img', 'two.img']) { writeFileSync(join(root, 'sparse', name), ''); truncateSync(join(root, 'sparse', name), 64 * 1024 ** 3); }
    writeFileSync(join(root, 'notes.txt'), 'first line\n');
    mkdirSync(join(work.path, 'cache', 'thumbs'), { recursive: true });
    writeFileSync(join(work.path, 'cache', 'thumbs', 'a.png'), Buffer.alloc(50_000, 1));
    ctx.d = await startDashboard({
      gateway: false,
      extra: `probes: {}\nfiles: { roots: [${JSON.stringify(root)}], scan_roots: [${JSON.stringify(root)}] }\n`,
      env: { XDG_DATA_HOME: join(work.path, 'xdg'), XDG_CACHE_HOME: join(work.path, 'cache') },
    });
    ctx.browser = await launchChromium();
  });
  s.after(async ({ d, browser }) => {
    await browser?.close();
    await d?.stop();
    work.cleanup();
  });

  s('folder sizes: the scan ends, a folder opens from the kept tree, Up goes back', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/storage');
    const { page } = w;
    await page.waitForSelector('.storage-mounts .meter');
    assert.is(await page.inputValue('.scan-form input'), root, 'the scan starts in the root by default');
    await page.fill('.scan-form input', join(root, 'tree'));
    await page.click('button:has-text("Count sizes")');
    await page.waitForSelector('.scan-status:has-text("Finished")');
    const names = await page.locator('.scan-results tbody tr td:first-child, .scan-results tbody tr th:first-child').allInnerTexts();
    assert.ok(names.some((n) => n.includes('a/')), names.join(', '));
    await page.click('.scan-results button.link-button:has-text("b/")');
    await page.waitForSelector('.folder-head:has-text("/tree/b")');
    assert.match(await page.locator('.scan-results tbody').innerText(), /deep\//);
    await page.click('.folder-head button:has-text("Up")');
    await page.waitForFunction(() => /\/tree:/.test(document.querySelector('.folder-head')?.textContent ?? ''));
    await checkFinishedPage(w, SHOTS, 'host-storage-sizes');
    await w.context.close();
  });

  s('duplicates: the progress bar shows the phase and the budget left, and cancel stops early', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/storage?tab=duplicates');
    const { page } = w;
    await page.waitForSelector('.scan-form');
    await page.fill('.scan-form input >> nth=0', join(root, 'sparse'));
    await page.click('button:has-text("Find duplicates")');
    await page.waitForSelector('progress.scan-progress');
    await page.waitForSelector('.scan-status:has-text("hashing whole files")');
    assert.match(await page.locator('.scan-status').innerText(), /budget left/);
    await page.click('.scan-status button:has-text("Cancel")');
    await page.waitForSelector('.scan-status:has-text("Stopped early")');
    assert.match(await page.locator('.scan-status').innerText(), /cancelled/);
    assert.match(await page.locator('.scan-summary').innerText(), /2 files were not compared/);
    // The real tree: the true copies, each path a link to its File page; the 10-byte copies are under the 1 KB minimum.
    await page.fill('.scan-form input >> nth=0', join(root, 'tree'));
    await page.click('button:has-text("Find duplicates")');
    await page.waitForSelector('.dupe-group');
    assert.is(await page.locator('.dupe-group').count(), 1);
    assert.match(await page.locator('.dupe-head').innerText(), /× 3 copies/);
    assert.is(await page.locator('.dupe-paths a').count(), 3);
    await checkFinishedPage(w, SHOTS, 'host-storage-duplicates');
    await w.context.close();
  });

  s('a file: edited and saved, moved to the trash after a confirmation, restored from the trash', async ({ d, browser }) => {
    const path = join(root, 'notes.txt');
    const w = await open(browser, d, `/host/files?path=${encodeURIComponent(path)}`);
    const { page } = w;
    await page.waitForSelector('textarea.file-editor');
    assert.is(await page.inputValue('textarea.file-editor'), 'first line\n');
    await page.fill('textarea.file-editor', 'first line\nsecond line\n');
    await page.click('button:has-text("Save")');
    await waitFor(() => readFileSync(path, 'utf8') === 'first line\nsecond line\n', { what: 'the save' });
    await page.waitForFunction(() => !document.querySelector('.file-editor + .form-actions')?.textContent?.includes('unsaved'));
    await checkFinishedPage(w, SHOTS, 'host-file-editor');
    await page.click('button:has-text("Move to trash…")');
    assert.ok(existsSync(path), 'nothing moves before the confirmation');
    await page.click('.confirm button:has-text("Move to trash")');
    await page.waitForSelector('text=Moved to the trash');
    assert.not.ok(existsSync(path));
    await page.goto(`${d.url}/host/storage?tab=trash`);
    await page.waitForSelector('.card:has-text("Trash") tbody tr');
    await checkFinishedPage(w, SHOTS, 'host-storage-trash');
    await page.click('button:has-text("Restore")');
    await page.waitForSelector('text=The trash is empty');
    assert.is(readFileSync(path, 'utf8'), 'first line\nsecond line\n');
    await w.context.close();
  });

  s('find by name: text and a regular expression; big old files with the clock they were judged by', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/storage?tab=search');
    const { page } = w;
    await page.waitForSelector('.scan-form');
    await page.fill('.scan-form input >> nth=0', '^copy-\\d\\.bin$');
    await page.check('.check-field input');
    await page.click('.scan-form button:has-text("Search")');
    await page.waitForSelector('.scan-status:has-text("Finished")');
    const found = await page.locator('.scan-results tbody').innerText();
    assert.match(found, /a\/copy-1\.bin/);
    assert.match(found, /deep\/er\/copy-2\.bin/);
    assert.not.match(found, /newline/);
    await checkFinishedPage(w, SHOTS, 'host-storage-search');
    await page.click('[role="radio"]:has-text("Old files")');
    await page.waitForSelector('button:has-text("Find old files")');
    await page.click('button:has-text("Find old files")');
    await page.waitForSelector('.scan-status:has-text("Finished")');
    assert.match(await page.locator('.scan-summary').innerText(), /0 files[\s\S]*(access times|modification time)/);
    await w.context.close();
  });

  s('backup: folders and a destination saved, a run on request, its result said', async ({ d, browser }) => {
    // The destination must lie under files.scan_roots (here the test's root): a drive mounted there.
    mkdirSync(join(root, 'usb'));
    const w = await open(browser, d, '/host/storage?tab=backup');
    const { page } = w;
    await page.waitForSelector('#backup-sources');
    await page.fill('#backup-sources', join(root, 'tree'));
    await page.fill('.scan-form .field-grow input', join(root, 'usb'));
    await page.click('[role="radio"]:has-text("Weekly")');
    await page.click('.scan-form button:has-text("Save")');
    await page.waitForSelector('button:has-text("Back up now"):not([disabled])');
    await page.click('button:has-text("Back up now")');
    await page.waitForSelector('.scan-summary:has-text("Last run")');
    assert.ok(existsSync(join(root, 'usb/vigil-backup/tree/a/copy-1.bin')));
    await checkFinishedPage(w, SHOTS, 'host-storage-backup');
    await w.context.close();
  });

  s('clean-up: the sizes before anything is removed, a confirmation, then the caches are empty; drives listed', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/storage?tab=cleanup');
    const { page } = w;
    await page.waitForSelector('.cleanup-item');
    const first = page.locator('.cleanup-item').first();
    assert.match(await first.innerText(), /Your caches: [\d.]+\s?KiB/);
    await page.waitForSelector('.card:has-text("Drives")');
    await checkFinishedPage(w, SHOTS, 'host-storage-cleanup');
    await first.locator('button:has-text("Clean…")').click();
    assert.ok(existsSync(join(work.path, 'cache', 'thumbs', 'a.png')), 'nothing is removed before the confirmation');
    await first.locator('.confirm button:has-text("Clean")').click();
    await page.waitForSelector('.cleanup-item [role="status"]:has-text("Freed")');
    assert.not.ok(existsSync(join(work.path, 'cache', 'thumbs')));
    await w.context.close();
  });

  s.run();
}
