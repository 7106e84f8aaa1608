// The home grid's layout route (plugins/ui/home-layout.ts): null until saved, stored per installation (SQLite and
// PostgreSQL), reset by null, and every bound of a layout enforced with an error that names the key.
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshPostgresSchema, postgresAvailable } from '../../../support/postgres.js';
import { tempDir } from '../../../support/tmp.js';
import { startUi, type UiHarness } from './ui-harness.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
const layout = { order: ['cpu', 'mem', 'gateway-requests'], hidden: ['battery'], sizes: { cpu: { w: 2, h: 1 }, mem: { w: 'full', h: 3 } } };

const post = (h: UiHarness, body: unknown) =>
  h.page('/api/homelayout', { method: 'POST', headers: JSON_HEADERS, body: typeof body === 'string' ? body : JSON.stringify(body) });
const read = async (h: UiHarness) => (await (await h.page('/api/homelayout')).json()) as { layout: unknown };

test('null until saved; a POST stores it and answers it; null restores the default', async () => {
  const h = await startUi();
  try {
    assert.equal(await read(h), { layout: null });
    const saved = await post(h, { layout });
    assert.is(saved.status, 200);
    assert.equal(await saved.json(), { layout });
    assert.equal(await read(h), { layout });
    const reset = await post(h, { layout: null });
    assert.is(reset.status, 200);
    assert.equal(await read(h), { layout: null });
  } finally {
    await h.stop();
  }
});

test('a cookie write needs proof of our own page; the token works from a script', async () => {
  const h = await startUi();
  try {
    const noProof = await h.raw('/api/homelayout', { method: 'POST', headers: { ...JSON_HEADERS, cookie: h.cookie }, body: JSON.stringify({ layout }) });
    assert.is(noProof.status, 403);
    assert.equal(await read(h), { layout: null });
    const script = await h.raw('/api/homelayout', { method: 'POST', headers: { ...JSON_HEADERS, authorization: `Bearer ${h.rt.token}` }, body: JSON.stringify({ layout }) });
    assert.is(script.status, 200);
    assert.equal(await read(h), { layout });
  } finally {
    await h.stop();
  }
});

test('bad layouts are 400s that say which key and why; sizes and counts are bounded; nothing is stored', async () => {
  const h = await startUi();
  try {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);
    const cases: [unknown, RegExp][] = [
      [{ layout: { ...layout, order: ['cpu', 'bad id!'] } }, /order\/1|order\[1\]|pattern|letters/i],
      [{ layout: { ...layout, order: ['x'.repeat(41)] } }, /order/],
      [{ layout: { ...layout, order: ids(121) } }, /order.*(120|more than)|120/i],
      [{ layout: { ...layout, hidden: ['cpu', 'cpu'] } }, /hidden/],
      [{ layout: { ...layout, sizes: { cpu: { w: 7, h: 1 } } } }, /sizes\/cpu\/w|w/],
      [{ layout: { ...layout, sizes: { cpu: { w: 0, h: 1 } } } }, /sizes\/cpu\/w|w/],
      [{ layout: { ...layout, sizes: { cpu: { w: 'half', h: 1 } } } }, /sizes\/cpu\/w|w/],
      [{ layout: { ...layout, sizes: { cpu: { w: 2, h: 7 } } } }, /sizes\/cpu\/h|h/],
      [{ layout: { ...layout, sizes: { cpu: { w: 2, h: 1.5 } } } }, /sizes\/cpu\/h|integer/],
      [{ layout: { ...layout, sizes: { 'no way': { w: 2, h: 1 } } } }, /sizes|no way/],
      [{ layout: { ...layout, sizes: Object.fromEntries(ids(121).map((id) => [id, { w: 1, h: 1 }])) } }, /sizes/],
      [{ layout: { ...layout, extra: true } }, /extra/],
      [{ layout: { order: [], hidden: [] } }, /sizes/],
      [{}, /layout/],
      ['{"layout":', /JSON/i],
    ];
    for (const [body, pattern] of cases) {
      const res = await post(h, body);
      const text = typeof body === 'string' ? body : JSON.stringify(body).slice(0, 120);
      assert.is(res.status, 400, text);
      const error = ((await res.json()) as { error: { code: string; message: string; path?: string } }).error;
      assert.match(`${error.path ?? ''} ${error.message}`, pattern, text);
    }
    const big = await post(h, { layout: { ...layout, pad: 'x'.repeat(70 * 1024) } });
    assert.is(big.status, 413);
    assert.equal(await read(h), { layout: null }, 'nothing was stored');
    // The largest valid layout fits the body limit.
    const most = { order: ids(120).map((id) => `${id}-${'x'.repeat(30)}`), hidden: ids(120).map((id) => `h${id}-${'x'.repeat(30)}`), sizes: Object.fromEntries(ids(120).map((id) => [`${id}-${'x'.repeat(30)}`, { w: 'full', h: 6 }])) };
    assert.is((await post(h, { layout: most })).status, 200);
    assert.equal(await read(h), { layout: most });
  } finally {
    await h.stop();
  }
});

async function persists(storage: { url: string } | undefined, dataDir: string): Promise<void> {
  const config = { data_dir: dataDir, ...(storage ? { storage } : {}) };
  const first = await startUi({ config });
  try {
    assert.is((await post(first, { layout })).status, 200);
  } finally {
    await first.stop();
  }
  const second = await startUi({ config });
  try {
    assert.equal(await read(second), { layout }, 'the next start of the installation has it');
  } finally {
    await second.stop();
  }
}

test('the layout persists across restarts (SQLite)', async () => {
  const dir = tempDir();
  try {
    await persists({ url: `sqlite:${join(dir.path, 'shared.db')}` }, join(dir.path, 'data'));
  } finally {
    dir.cleanup();
  }
});

test('the layout persists across restarts (PostgreSQL, when reachable)', async () => {
  if (!(await postgresAvailable('ui home layout'))) return;
  const schema = await freshPostgresSchema('ui_home_layout');
  const dir = tempDir();
  try {
    await persists({ url: schema.url }, dir.path);
  } finally {
    dir.cleanup();
    await schema.drop();
  }
});

test.run();
