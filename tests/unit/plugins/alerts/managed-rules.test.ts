// Rules a plugin manages (the host monitor's) in the alerts rule store, on SQLite and PostgreSQL: a prefix selects
// them exactly (no LIKE wildcards), a replace keeps the ids that stay and deletes the rest in one transaction, a
// stored dashboard rule with the same id is not taken over, and the alerts API's change and delete answer 409.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store } from '@vigil/plugin-sdk';
import { alertsMigrations } from '../../../../plugins/alerts/migrations.js';
import { normaliseRule, RuleStore } from '../../../../plugins/alerts/rule-store.js';
import type { AlertRule } from '../../../../plugins/alerts/types.js';
import { backendKinds, type BackendKind } from '../../runtime/store/backend-kinds.js';

const managed = (id: string, at: number): AlertRule => ({
  ...normaliseRule({ id, name: id, source: 'host.cpu_pct', condition: { type: 'gte', threshold: 90 } }, 'plugin', at), origin: 'plugin',
});

function define(kind: BackendKind) {
  const test = suite(`managed rules (${kind.name})`);
  test.after(() => kind.cleanup());
  let store: Store;
  test.before(async () => {
    store = (await kind.open(await kind.fresh())).forPlugin('alerts');
    await store.migrate(alertsMigrations);
  });

  test('replace: ids that stay keep created_at, the others go; the prefix is matched exactly', async () => {
    let clock = 1000;
    const rules = new RuleStore(store, () => clock);
    await rules.create({ id: 'hostXcustom', name: 'dashboard', source: 'host.cpu_pct', condition: { type: 'gt', threshold: 1 } });
    assert.equal(await rules.replaceManaged('host_custom.', [managed('host_custom.a', 1000), managed('host_custom.b', 1000)]), []);
    clock = 2000;
    const gone = await rules.replaceManaged('host_custom.', [managed('host_custom.b', 2000), managed('host_custom.c', 2000)]);
    assert.equal(gone, ['host_custom.a']);
    const list = await rules.managed('host_custom.');
    assert.equal(list.map((r) => [r.id, r.created_at, r.origin]), [['host_custom.b', 1000, 'plugin'], ['host_custom.c', 2000, 'plugin']]);
    assert.equal((await rules.managed('host')).length, 2, 'the dashboard rule is not managed');
    assert.ok(await rules.get('hostXcustom'), '_ is no wildcard: the dashboard rule stays');
  });

  test('a dashboard rule is not taken over; a managed rule cannot be changed or deleted through the API', async () => {
    const rules = new RuleStore(store);
    await rules.create({ id: 'host_x.mine', name: 'mine', source: 'host.cpu_pct', condition: { type: 'gt', threshold: 1 } });
    let status = 0;
    await rules.replaceManaged('host_x.', [managed('host_x.mine', 1)]).catch((e: { status: number }) => { status = e.status; });
    assert.is(status, 409);
    await rules.ensureManaged([managed('host_x.other', 1)]);
    await rules.ensureManaged([{ ...managed('host_x.other', 1), name: 'renamed' }]);
    assert.is((await rules.get('host_x.other'))!.name, 'host_x.other', 'ensure leaves an existing rule as it is');
    for (const attempt of [() => rules.replace('host_x.other', { name: 'x', source: 'host.cpu_pct', condition: { type: 'gt', threshold: 1 } }), () => rules.delete('host_x.other')]) {
      const err = await attempt().then(() => undefined, (e: { status: number; message: string }) => e);
      assert.is(err?.status, 409);
      assert.match(err!.message, 'managed by a plugin');
    }
  });
  return test;
}

for (const kind of await backendKinds('managed-rules')) define(kind).run();
