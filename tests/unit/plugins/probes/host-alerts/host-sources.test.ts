// The host sources the alerts engine reads: the thresholds over stored minute samples (on SQLite and PostgreSQL),
// with the newest sample of a 1-minute window found while the next one is still being taken, MIN for CPU
// (sustained) and MAX for the others; the battery only while unplugged; a check source needs its target.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AlertSource, Store } from '@vigil/plugin-sdk';
import { SAMPLE_METRICS, type Sample } from '../../../../../plugins/probes/history/metrics.js';
import { probesMigrations } from '../../../../../plugins/probes/history/migrations.js';
import { recordSample } from '../../../../../plugins/probes/history/sample-store.js';
import { hostSources } from '../../../../../plugins/probes/host-alerts/host-sources.js';
import { backendKinds, type BackendKind } from '../../../runtime/store/backend-kinds.js';
import { empty, laptop, server } from '../proc/fixture-roots.js';

const T0 = Date.UTC(2026, 0, 1, 12);
const MIN = 60_000;
const sample = (t: number, cpu: number, mem: number | null): Sample =>
  ({ ...Object.fromEntries(SAMPLE_METRICS.map((m) => [m, null])), t, cpu, mem } as Sample);
const byId = (list: AlertSource[], id: string) => list.find((s) => s.id === id)!;

function define(kind: BackendKind) {
  const test = suite(`host sources (${kind.name})`);
  test.after(() => kind.cleanup());

  let store: Store;
  test.before(async () => {
    store = (await kind.open(await kind.fresh())).forPlugin('probes');
    await store.migrate(probesMigrations);
    // Minutes 0..4: CPU 95, 92, 80, 97, 99; memory 50, 60, null, 70, 40.
    const cpu = [95, 92, 80, 97, 99];
    const mem = [50, 60, null, 70, 40];
    for (let i = 0; i < 5; i++) await recordSample(store, sample(T0 + i * MIN, cpu[i], mem[i]));
  });

  test('a 1-minute window reads the newest sample, also while the next minute\'s is not written yet', async () => {
    const cpu = byId(hostSources(store, empty), 'host.cpu_pct');
    assert.equal(await cpu.read({ from: T0 + 4 * MIN, to: T0 + 5 * MIN }, {}), { value: 99, samples: 1 });
    // 40 s into minute 5, its sample not taken yet: the window [4:40, 5:40) still reads minute 4.
    assert.equal(await cpu.read({ from: T0 + 4 * MIN + 40_000, to: T0 + 5 * MIN + 40_000 }, {}), { value: 99, samples: 1 });
    assert.equal(await cpu.read({ from: T0 + 10 * MIN, to: T0 + 11 * MIN }, {}), { value: null, samples: 0 }, 'no samples: no reading');
  });

  test('CPU takes the lowest of the window\'s minutes (sustained), memory the highest, skipping missing values', async () => {
    const list = hostSources(store, empty);
    assert.equal(await byId(list, 'host.cpu_pct').read({ from: T0 + 3 * MIN, to: T0 + 5 * MIN }, {}), { value: 97, samples: 2 });
    assert.equal(await byId(list, 'host.cpu_pct').read({ from: T0, to: T0 + 5 * MIN }, {}), { value: 80, samples: 5 });
    assert.equal(await byId(list, 'host.mem_pct').read({ from: T0, to: T0 + 5 * MIN }, {}), { value: 70, samples: 4 });
    assert.equal(await byId(list, 'host.temp_c').read({ from: T0, to: T0 + 5 * MIN }, {}), { value: null, samples: 0 });
  });

  return test;
}

const machines = suite('host sources: battery and checks');
machines('the battery reads its charge while unplugged, 100 while plugged, nothing without one', async () => {
  const read = (root: string) => byId(hostSources({ query: async () => [] } as never, root), 'host.battery_pct').read({ from: 0, to: MIN }, {});
  assert.equal(await read(laptop), { value: 42, samples: 1 }, 'the laptop fixture discharges at 42 %');
  assert.equal(await read(empty), { value: null, samples: 0 });
  assert.equal(await read(server), { value: 100, samples: 1 }, 'the server fixture\'s battery charges: plugged in, never low');
});

machines('check sources take and need a target', () => {
  for (const s of hostSources({} as never, empty).filter((x) => /unit|port|process|folder|backup/.test(x.id))) {
    assert.equal([s.scopes, s.requiredScopes], [['target'], ['target']], s.id);
  }
});

for (const kind of await backendKinds('host-sources')) define(kind).run();
machines.run();
