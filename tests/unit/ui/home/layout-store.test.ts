// The home layout's store against a server that answers late: a change the user makes while the page is still
// loading the server's copy must not be replaced by that (older) copy when it arrives. fetch and localStorage are the
// browser's; here a fetch whose GET answers when the test says, and a Map-backed storage.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { HomeLayout } from '../../../../ui/src/home/layout.js';

const storage = new Map<string, string>();
(globalThis as { localStorage?: unknown }).localStorage = {
  getItem: (k: string) => storage.get(k) ?? null,
  setItem: (k: string, v: string) => { storage.set(k, v); },
  removeItem: (k: string) => { storage.delete(k); },
};

const posted: unknown[] = [];
let answerGet!: (layout: HomeLayout | null) => void;
globalThis.fetch = (async (_path: string, init?: { method?: string; body?: string }) => {
  if (init?.method === 'POST') {
    posted.push(JSON.parse(init.body!));
    return new Response(JSON.stringify(JSON.parse(init.body!)), { status: 200 });
  }
  const layout = await new Promise<HomeLayout | null>((r) => { answerGet = r; });
  return new Response(JSON.stringify({ layout }), { status: 200 });
}) as typeof fetch;

const { loadLayout, saveLayout, savedLayout } = await import('../../../../ui/src/home/layout-store.js');

test('a change saved while the server\'s copy is loading stays on screen and in the cache when that copy arrives', async () => {
  const loading = loadLayout();
  const moved: HomeLayout = { order: ['mem', 'cpu'], hidden: [], sizes: {} };
  await saveLayout(moved);
  assert.equal(posted, [{ layout: moved }], 'the change was sent');
  answerGet(null); // the server's copy, read before the change reached it
  await loading;
  assert.equal(savedLayout.value, moved, 'the older copy replaced the change');
  assert.equal(JSON.parse(storage.get('vigil.homelayout')!), { layout: moved, pending: false });
});

test.run();
