// The Database page in a real browser against a real `vigil run` with a real SQLite file: the empty state says what
// to do, a connection is added through the form and opens read-only, the schema tree counts rows, the rows grid
// pages, the editor cuts a result at the row cap and says so, a write is refused with the database's own reason,
// the CSV downloads; a MariaDB connection added through the form lists its tables and has a write refused by the
// server (error 1792); and the JSON string tool escapes and unescapes; axe-clean at 1440 and 375 px (screenshots in
// /tmp/vigil-shots).
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import sqlite3 from 'sqlite3';
import { checkFinishedPage, chromiumAvailable, launchChromium, watchedPage, type Watched } from './browser.js';
import { startDashboard, type Dashboard } from '../support/dashboard.js';
import { mariadbAvailable, mariadbDo, mariadbLogin } from '../support/mariadb.js';
import { tempDir } from '../support/tmp.js';

const SHOTS = '/tmp/vigil-shots';
const s = suite<{ d: Dashboard; browser: Browser; dir: { path: string; cleanup(): void }; file: string; maria: boolean }>('e2e: database browser');
const MARIA_DB = `vigil_dbb_e2e_${process.pid}`;

function makeDb(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, (err) => {
      if (err) return reject(err);
      db.exec(`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, total REAL, note TEXT);
        WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 240)
        INSERT INTO orders SELECT i, 'customer ' || i, i * 1.5, CASE WHEN i % 7 = 0 THEN NULL ELSE 'a note that is long enough to wrap on a phone screen ' || i END FROM s;
        CREATE TABLE empty_one (a TEXT);`, (e) => db.close(() => (e ? reject(e) : resolve())));
    });
  });
}

async function open(browser: Browser, d: Dashboard, path: string): Promise<Watched> {
  const w = await watchedPage(browser, { acceptDownloads: true });
  await w.page.goto(d.link);
  await w.page.goto(`${d.url}${path}`);
  return w;
}

if (chromiumAvailable('e2e database browser')) {
  s.before(async (ctx) => {
    mkdirSync(SHOTS, { recursive: true });
    ctx.dir = tempDir('vigil-e2e-db-');
    ctx.file = join(ctx.dir.path, 'shop.db');
    await makeDb(ctx.file);
    ctx.d = await startDashboard({ gateway: false, extra: `probes: {}\ndbbrowser: { roots: [${JSON.stringify(ctx.dir.path)}] }\n` });
    ctx.browser = await launchChromium();
    ctx.maria = await mariadbAvailable('e2e database browser (MariaDB)');
    if (ctx.maria) {
      await mariadbDo(`DROP DATABASE IF EXISTS ${MARIA_DB}`, `CREATE DATABASE ${MARIA_DB}`,
        `CREATE TABLE ${MARIA_DB}.invoices (id INT PRIMARY KEY, customer VARCHAR(40) NOT NULL, amount DECIMAL(10,2))`,
        `INSERT INTO ${MARIA_DB}.invoices SELECT seq, CONCAT('customer ', seq), seq * 2.25 FROM seq_1_to_120`);
    }
  });
  s.after(async ({ d, browser, dir, maria }) => {
    await browser?.close();
    await d?.stop();
    dir?.cleanup();
    if (maria) await mariadbDo(`DROP DATABASE IF EXISTS ${MARIA_DB}`).catch(() => {});
  });

  s('no connection yet: the empty state says what to add and where from', async ({ d, browser, dir }) => {
    const w = await open(browser, d, '/host/database');
    await w.page.waitForSelector('text=No database yet');
    assert.match(await w.page.locator('.empty-state').innerText(), new RegExp(dir.path.replace(/[/.]/g, '\\$&')));
    await checkFinishedPage(w, SHOTS, 'host-database-empty');
    await w.context.close();
  });

  s('the sidebar folds the host\'s tools: the fold of the page on screen is open, another opens on a click and stays open', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/database');
    const fold = (name: string) => w.page.locator(`#sidebar details:has(summary:has-text("${name}"))`);
    await w.page.waitForSelector('#sidebar summary:has-text("Developer tools")');
    assert.ok(await fold('Developer tools').evaluate((e) => (e as HTMLDetailsElement).open), 'holds the Database page');
    assert.not.ok(await fold('System').evaluate((e) => (e as HTMLDetailsElement).open));
    assert.not.ok(await w.page.locator('#sidebar a:has-text("Packages")').isVisible(), 'folded away');
    await w.page.click('#sidebar summary:has-text("System")');
    await w.page.waitForSelector('#sidebar a:has-text("Packages")', { state: 'visible' });
    await w.page.reload();
    await w.page.waitForSelector('#sidebar a:has-text("Packages")', { state: 'visible' });
    await w.context.close();
  });

  s('add a SQLite file, browse its tables and page its rows', async ({ d, browser, file }) => {
    const w = await open(browser, d, '/host/database');
    const { page } = w;
    await page.click('text=Add a connection');
    await page.fill('form.db-form input >> nth=0', 'shop');
    await page.fill('form.db-form input.input-mono', file);
    await page.click('text=Add the connection');
    await page.waitForSelector('.db-connection[aria-current="true"]');
    assert.match(await page.locator('.db-connection[aria-current="true"]').innerText(), /shop[\s\S]*SQLite[\s\S]*Read-only/);
    await page.waitForSelector('.db-table-button');
    assert.match(await page.locator('.db-table-button', { hasText: 'orders' }).innerText(), /240 rows/);
    await page.click('.db-table-button:has-text("orders")');
    await page.waitForSelector('text=Rows 1–100 of 240');
    await page.click('.db-pager button:has-text("Next")');
    await page.waitForSelector('text=Rows 101–200 of 240');
    assert.match(await page.locator('.db-main table tbody tr').first().innerText(), /101/);
    await page.click('.db-pager button:has-text("Previous")');
    await page.waitForSelector('text=Rows 1–100 of 240');
    await checkFinishedPage(w, SHOTS, 'host-database-rows');
    await w.context.close();
  });

  s('the editor cuts at the row cap, a write is refused by SQLite, and the CSV downloads', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/database');
    const { page } = w;
    await page.click('.db-connection:has-text("shop")');
    const sql = page.locator('textarea.db-sql');
    await sql.fill('SELECT id, customer, note FROM orders ORDER BY id');
    await page.selectOption('.db-editor select >> nth=0', '100');
    await page.click('.db-editor button:has-text("Run")');
    await page.waitForSelector('.db-result-summary');
    assert.match(await page.locator('.db-result-summary').innerText(), /100 rows[\s\S]*cut at 100 rows/);
    assert.ok(await page.locator('.db-result .db-null').count() > 0, 'NULL shown as NULL');
    await checkFinishedPage(w, SHOTS, 'host-database-query');

    await sql.fill("DELETE FROM orders WHERE id = 1");
    await sql.press('Control+Enter');
    await page.waitForSelector('.error-state');
    assert.match(await page.locator('.error-state').innerText(), /read-only|readonly/i);

    await sql.fill('SELECT id, customer FROM orders WHERE id <= 3 ORDER BY id');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('.db-editor button:has-text("Download CSV")')]);
    const text = readFileSync((await download.path())!, 'utf8');
    assert.is(text, '"id","customer"\r\n"1","customer 1"\r\n"2","customer 2"\r\n"3","customer 3"\r\n');
    // The refused write's 403 is the one problem the console may show.
    assert.equal(w.problems.filter((p) => !/status of 403/.test(p)), []);
    assert.is(w.problems.length, 1, w.problems.join(' | '));
    await w.context.close();
  });

  s('add a MariaDB server through the form: its tables with counts, and a write refused by the server', async ({ d, browser, maria }) => {
    if (!maria) return;
    const w = await open(browser, d, '/host/database');
    const { page } = w;
    // The SQLite connection of the test before is saved: the button is the card's, not the empty state's.
    await page.click('button:text-is("Add connection")');
    await page.fill('form.db-form input >> nth=0', 'billing');
    await page.selectOption('form.db-form select', 'mysql');
    const form = page.locator('form.db-form');
    assert.is(await form.getByLabel('Port', { exact: true }).inputValue(), '3306', 'the MariaDB port filled in');
    await form.getByLabel('Host', { exact: true }).fill(mariadbLogin.host);
    await form.getByLabel('Database', { exact: true }).fill(MARIA_DB);
    await form.getByLabel('User', { exact: true }).fill(mariadbLogin.user);
    await page.click('text=Add the connection');
    await page.waitForSelector('.db-connection[aria-current="true"]:has-text("billing")');
    assert.match(await page.locator('.db-connection[aria-current="true"]').innerText(), /billing[\s\S]*MariaDB\/MySQL[\s\S]*Read-only/);
    await page.waitForSelector('.db-table-button:has-text("invoices")');
    assert.match(await page.locator('.db-table-button', { hasText: 'invoices' }).innerText(), /120 rows/);
    await page.click('.db-table-button:has-text("invoices")');
    await page.waitForSelector('text=Rows 1–100 of 120');
    await checkFinishedPage(w, SHOTS, 'host-database-mariadb');
    const sql = page.locator('textarea.db-sql');
    await sql.fill(`DELETE FROM ${MARIA_DB}.invoices`);
    await sql.press('Control+Enter');
    await page.waitForSelector('.error-state');
    assert.match(await page.locator('.error-state').innerText(), /error 1792/);
    assert.equal(w.problems.filter((p) => !/status of 403/.test(p)), []);
    await w.context.close();
  });

  s('JSON string: escape and unescape in the browser, a bad literal explained', async ({ d, browser }) => {
    const w = await open(browser, d, '/host/json-string');
    const { page } = w;
    const input = page.locator('textarea').first();
    await input.fill('{"a": "b\\\\c", "n": 1}');
    await page.click('button:text-is("Escape")');
    assert.is(await page.locator('textarea[readonly]').inputValue(), '"{\\"a\\": \\"b\\\\\\\\c\\", \\"n\\": 1}"');
    await input.fill(await page.locator('textarea[readonly]').inputValue());
    await page.click('button:text-is("Unescape")');
    assert.is(await page.locator('textarea[readonly]').inputValue(), '{\n  "a": "b\\\\c",\n  "n": 1\n}');
    await checkFinishedPage(w, SHOTS, 'host-json-string');
    await input.fill('"broken \\x"');
    await page.click('button:text-is("Unescape")');
    assert.match(await page.locator('.field-error').innerText(), /Not a valid escaped string/);
    await w.context.close();
  });
}

s.run();
