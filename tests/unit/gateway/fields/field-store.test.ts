// capture_fields on SQLite and PostgreSQL: the accumulator's bounds, the upsert that adds counts, keeps the first
// and last times and adds kinds and formats name by name, and retention by last_seen.
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store } from '@vigil/plugin-sdk';
import type { FieldObservation } from '../../../../gateway/fields/api-fields.js';
import { FieldAccumulator } from '../../../../gateway/fields/field-accumulator.js';
import { writeFields } from '../../../../gateway/fields/field-writer.js';
import { captureMigrations } from '../../../../gateway/records/migrations.js';
import { deleteExpired } from '../../../../gateway/records/retention.js';
import { backendKinds } from '../../runtime/store/backend-kinds.js';

const kinds = await backendKinds('capture_fields');

const obs = (o: Partial<FieldObservation>): FieldObservation => ({
  route: 'POST /api/users', location: 'request_body', status: 0, name: '$.email', count: 1, parents: 1,
  kinds: { string: 1 }, formats: {}, redacted: 0, firstSeen: 1000, lastSeen: 1000, ...o,
});

test('the accumulator merges per key and counts what its bounds leave out', () => {
  const acc = new FieldAccumulator({ fieldsPerRoute: 2, routes: 1 });
  assert.equal(acc.add([
    obs({ count: 2, parents: 3, kinds: { string: 2 }, formats: { email: 2 }, firstSeen: 50, lastSeen: 60 }),
    obs({ count: 1, parents: 1, kinds: { null: 1 }, redacted: 1, firstSeen: 10, lastSeen: 20 }),
    obs({ name: '$.id' }),
    obs({ name: '$.third' }),
    obs({ route: 'GET /other' }),
  ]), { route: 1, total: 1 });
  const [email, id] = acc.take();
  assert.equal(email, obs({ count: 3, parents: 4, kinds: { string: 2, null: 1 }, formats: { email: 2 }, redacted: 1, firstSeen: 10, lastSeen: 60 }));
  assert.is(id.name, '$.id');
  assert.is(acc.size, 0);
});

for (const kind of kinds) {
  const s = suite(`capture_fields upsert (${kind.name})`);
  s.after(() => kind.cleanup());
  const open = async (): Promise<Store> => {
    const store = (await kind.open(await kind.fresh())).forPlugin('capture');
    await store.migrate(captureMigrations);
    return store;
  };
  const rows = (store: Store) => store.query<Record<string, unknown>>('SELECT * FROM capture_fields ORDER BY route, location, status, name');

  s('adds counts, keeps the earliest first_seen and latest last_seen, adds kinds and formats by name', async () => {
    const store = await open();
    await writeFields(store, [
      obs({ count: 2, parents: 2, kinds: { string: 2 }, formats: { email: 2 }, firstSeen: 5000, lastSeen: 6000 }),
      obs({ location: 'exchange', status: 200, name: '', kinds: {}, count: 2, parents: 2 }),
    ]);
    await writeFields(store, [
      obs({ count: 3, parents: 4, kinds: { string: 1, null: 2 }, formats: { email: 1 }, redacted: 3, firstSeen: 4000, lastSeen: 5500 }),
      obs({ route: 'GET /x', location: 'query', name: 'page', kinds: { integer: 1 } }),
    ]);
    await writeFields(store, [obs({ count: 1, parents: 1, kinds: { integer: 1 }, formats: {}, firstSeen: 7000, lastSeen: 9000 })]);
    const got = (await rows(store)).map((r) => ({
      ...r, status: Number(r.status), count: Number(r.count), parents: Number(r.parents), redacted: Number(r.redacted),
      first_seen: Number(r.first_seen), last_seen: Number(r.last_seen),
      kinds: JSON.parse(r.kinds as string), formats: JSON.parse(r.formats as string),
    }));
    assert.equal(got, [
      { route: 'GET /x', location: 'query', status: 0, name: 'page', count: 1, parents: 1, kinds: { integer: 1 }, formats: {}, redacted: 0, first_seen: 1000, last_seen: 1000 },
      { route: 'POST /api/users', location: 'exchange', status: 200, name: '', count: 2, parents: 2, kinds: {}, formats: {}, redacted: 0, first_seen: 1000, last_seen: 1000 },
      { route: 'POST /api/users', location: 'request_body', status: 0, name: '$.email', count: 6, parents: 7,
        kinds: { integer: 1, null: 2, string: 3 }, formats: { email: 3 }, redacted: 3, first_seen: 4000, last_seen: 9000 },
    ]);
  });

  s('concurrent writes of the same rows lose nothing', async () => {
    const store = await open();
    await Promise.all(Array.from({ length: 8 }, (_, i) => writeFields(store, [obs({ count: 1, lastSeen: 1000 + i }), obs({ name: '$.b' })])));
    const got = await rows(store);
    assert.equal(got.map((r) => [r.name, Number(r.count), Number(r.last_seen)]), [['$.b', 8, 1000], ['$.email', 8, 1007]]);
  });

  s('retention deletes fields last seen before the records limit', async () => {
    const store = await open();
    const now = 10_000_000;
    await writeFields(store, [obs({ name: '$.old', lastSeen: now - 5000 }), obs({ name: '$.new', lastSeen: now - 10 })]);
    const deleted = await deleteExpired(store, { now, recordsMs: 1000, rollupsMs: 1000 });
    assert.is(deleted.fields, 1);
    assert.equal((await rows(store)).map((r) => r.name), ['$.new']);
  });

  s.run();
}

test.run();
