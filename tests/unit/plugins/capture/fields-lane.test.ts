// capture_fields as the lane writes it, on every backend: while it runs (every fields_flush) and at a clean stop,
// with two worker threads, every exchange observed is counted once (record_fields: full, so counts are exact).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { definePlugin, type Store } from '@vigil/plugin-sdk';
import type { PolicyConfig } from '../../../../policies/schema.js';
import { openStore } from '../../../../runtime/store/index.js';
import { waitFor } from '../../../support/net.js';
import { tempDir } from '../../../support/tmp.js';
import { captureBackends, exchange, startCapture } from './capture-harness.js';

const backends = await captureBackends('capture_fields_lane');
const policy: PolicyConfig = { rules: [{ name: 'api', match: { path: '/api/**' } }] };
const capture = { record_fields: 'full', workers: 2, batch: 8, batch_delay: '1ms' };

/** Exchange rows of one route, the way `vigil check` reads them. */
const exchangeCount = async (store: Pick<Store, 'query'>, route: string): Promise<number> => {
  const rows = await store.query<{ count: number }>("SELECT count FROM capture_fields WHERE route = ? AND location = 'exchange'", [route]);
  return rows.reduce((n, r) => n + Number(r.count), 0);
};

/** Reads capture_fields through the runtime's own store (the only way into `sqlite::memory:`). */
function storeReader(): { plugin: ReturnType<typeof definePlugin>; store: () => Store } {
  let store: Store | undefined;
  const plugin = definePlugin({
    name: 'fields-reader', version: '0.0.0', needs: ['capture', 'store'],
    setup(ctx) { store = ctx.store; return {}; },
  });
  return { plugin, store: () => store! };
}

for (const backend of backends) {
  const lane = suite(`capture_fields from the lane (${backend.name})`);
  lane.after(() => backend.cleanup());

  lane('written every fields_flush while the lane runs, each exchange counted once', async () => {
    const reader = storeReader();
    const h = await startCapture({ policy, storage: await backend.storage(), capture: { ...capture, fields_flush: '1s' }, plugins: [reader.plugin] });
    try {
      await h.feed(Array.from({ length: 60 }, (_, i) => exchange(policy, { target: `/api/running/${i}`, requestBody: { a: i } })));
      await waitFor(async () => (await exchangeCount(reader.store(), 'POST /api/running/{id}')) === 60,
        { what: '60 exchanges in capture_fields', timeoutMs: 10_000 });
      await new Promise((r) => setTimeout(r, 1_500));
      assert.is(await exchangeCount(reader.store(), 'POST /api/running/{id}'), 60, 'a later flush adds nothing twice');
    } finally {
      await h.stop();
    }
  });

  // Read back after stop, so only where the database outlives the runtime.
  if (backend.persistent) lane('a clean stop writes what every worker thread observed since the last flush', async () => {
    const dir = tempDir('vigil-capture-fields-');
    const storage = (await backend.storage()) ?? { url: `sqlite:${join(dir.path, 'vigil.db')}` };
    try {
      const h = await startCapture({ policy, storage, capture: { ...capture, fields_flush: '1h' } });
      // Fed in waves, so that both threads govern some (a wave of batches keeps both busy).
      for (let wave = 0; wave < 4; wave++) {
        await h.feed(Array.from({ length: 40 }, (_, i) => exchange(policy, { target: `/api/stopped/${wave * 40 + i}`, requestBody: { a: i } })));
      }
      await h.stop();
      const store = await openStore(storage.url);
      try {
        assert.is(await exchangeCount(store.forPlugin('capture'), 'POST /api/stopped/{id}'), 160);
      } finally {
        await store.close();
      }
    } finally {
      dir.cleanup();
    }
  });

  lane.run();
}
