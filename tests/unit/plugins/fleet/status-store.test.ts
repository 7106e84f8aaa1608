// The poller's last result per machine, on SQLite and on PostgreSQL: an answer replaces everything; a failure keeps
// the last good overview and when it was seen, unless the machine's URL changed (then it is another machine's).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { HostOverview, Store } from '@vigil/plugin-sdk';
import { fleetMigrations } from '../../../../plugins/fleet/migrations.js';
import { StatusStore } from '../../../../plugins/fleet/status-store.js';
import { openStore } from '../../../../runtime/store/index.js';
import { freshPostgresSchema, postgresAvailable } from '../../../support/postgres.js';

const overview = { hostname: 'web-1', cpu: { percent: 12 } } as unknown as HostOverview;

async function behaves(store: Store): Promise<void> {
  await store.migrate(fleetMigrations);
  const statuses = new StatusStore(store);
  await statuses.record('web-1', 'http://a:1', { up: true, overview, latency_ms: 4 }, 1000);
  await statuses.record('web-1', 'http://a:1', { up: false, error: 'connection refused', latency_ms: 2 }, 2000);
  let s = (await statuses.all()).get('web-1')!;
  assert.equal({ up: s.up, error: s.error, overview: s.overview, polled_at: s.polled_at, last_seen_at: s.last_seen_at },
    { up: false, error: 'connection refused', overview, polled_at: 2000, last_seen_at: 1000 });
  await statuses.record('web-1', 'http://b:1', { up: false, error: 'no answer', latency_ms: 2 }, 3000);
  s = (await statuses.all()).get('web-1')!;
  assert.equal({ url: s.url, overview: s.overview, last_seen_at: s.last_seen_at }, { url: 'http://b:1', overview: null, last_seen_at: null });
  await statuses.record('web-1', 'http://b:1', { up: true, overview, latency_ms: 3 }, 4000);
  s = (await statuses.all()).get('web-1')!;
  assert.equal({ up: s.up, error: s.error, last_seen_at: s.last_seen_at, latency_ms: s.latency_ms }, { up: true, error: null, last_seen_at: 4000, latency_ms: 3 });
  await statuses.record('gone', 'http://c:1', { up: false, error: 'x', latency_ms: 1 }, 4000);
  await statuses.keepOnly(['web-1']);
  assert.equal([...(await statuses.all()).keys()], ['web-1']);
}

test('on SQLite', async () => {
  const backend = await openStore('sqlite::memory:');
  try { await behaves(backend.forPlugin('fleet')); } finally { await backend.close(); }
});

if (await postgresAvailable('fleet status store')) {
  test('on PostgreSQL', async () => {
    const schema = await freshPostgresSchema('fleet_status');
    const backend = await openStore(schema.url);
    try { await behaves(backend.forPlugin('fleet')); } finally { await backend.close(); await schema.drop(); }
  });
}

test.run();
