// The host digest's figures from stored hourly rollups (SQLite and PostgreSQL): CPU and memory averages weighted by
// each hour's samples, the CPU peak, the fullest disk on the week's first and last day; the alerts fired and firing,
// backups and pending updates as the alerts service and apt give them; the rendered text says each.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AlertEventView, AlertsService, Store } from '@vigil/plugin-sdk';
import { SAMPLE_METRICS } from '../../../../../plugins/probes/history/metrics.js';
import { probesMigrations } from '../../../../../plugins/probes/history/migrations.js';
import { gatherHostDigest, renderHostDigest } from '../../../../../plugins/probes/host-alerts/host-digest.js';
import { backendKinds, type BackendKind } from '../../../runtime/store/backend-kinds.js';
import { empty } from '../proc/fixture-roots.js';

const MONDAY = Date.UTC(2026, 10, 23);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const week = { from: MONDAY, to: MONDAY + 7 * DAY };

const event = (rule_name: string, status: 'firing' | 'resolved'): AlertEventView => ({
  id: `${rule_name}:1`, rule_id: rule_name, rule_name, source: 'host.cpu_pct', scope: {}, severity: 'warning', status, value: 95, threshold: 90,
  summary: '', window_ms: 60_000, samples: 1, fired_at: new Date(MONDAY + HOUR).toISOString(), resolved_at: null, suppressed: null, delivery: [],
});

/** The alerts service as the digest reads it: host events of the week, those firing now, and one backup rule. */
const alerts = {
  async eventsBySource(q: { status?: string }) {
    return q.status === 'firing' ? [event('Disk full', 'firing')] : [event('CPU busy', 'resolved'), event('CPU busy', 'resolved'), event('Disk full', 'firing')];
  },
  async managedRules() {
    return [{
      id: 'host.custom.backup.x', name: 'Nightly', enabled: true, source: 'host.backup_age_days', scope: { target: '/srv/backup' },
      condition: { type: 'gt' as const, threshold: 7 }, window_ms: 60_000, cooldown_ms: 0, severity: 'warning' as const,
      state: { status: 'ok' as const, last_value: 1.5, last_note: null, last_error: null, evaluated_at: MONDAY },
    }];
  },
} as unknown as AlertsService;

function define(kind: BackendKind) {
  const test = suite(`host digest (${kind.name})`);
  test.after(() => kind.cleanup());
  let store: Store;
  test.before(async () => {
    store = (await kind.open(await kind.fresh())).forPlugin('probes');
    await store.migrate(probesMigrations);
    const columns = ['hour', 'n', ...SAMPLE_METRICS.flatMap((m) => [`${m}_avg`, `${m}_max`])];
    // Two hours on Monday (60 samples at CPU 10, 20 samples at CPU 50), one on Sunday; disk 40 % then 46 %.
    const row = (hour: number, n: number, cpu: number, mem: number, disk: number) => columns.map((c) =>
      c === 'hour' ? hour : c === 'n' ? n : c === 'cpu_avg' ? cpu : c === 'cpu_max' ? cpu + 5 : c === 'mem_avg' ? mem : c === 'disk_max' ? disk : null);
    await store.insertMany('probes_hourly', columns, [
      row(MONDAY, 60, 10, 30, 40), row(MONDAY + HOUR, 20, 50, 70, 40), row(MONDAY + 6 * DAY + 5 * HOUR, 60, 30, 50, 46),
      row(MONDAY - HOUR, 60, 99, 99, 10), // the week before: left out
    ]);
  });

  test('averages weighted by samples, the peak, the disk trend, alerts, backups, updates', async () => {
    const d = await gatherHostDigest({ store, alerts, root: empty, updates: async () => ({ total: 4, security: 1, manager: 'apt' }) }, week);
    assert.is(Math.round(d.cpu_avg! * 1000) / 1000, Math.round(((60 * 10 + 20 * 50 + 60 * 30) / 140) * 1000) / 1000);
    assert.is(Math.round(d.mem_avg! * 1000) / 1000, Math.round(((60 * 30 + 20 * 70 + 60 * 50) / 140) * 1000) / 1000);
    assert.equal([d.cpu_peak, d.disk_start, d.disk_end], [55, 40, 46]);
    assert.equal(d.fired, [{ rule_name: 'CPU busy', count: 2 }, { rule_name: 'Disk full', count: 1 }]);
    assert.equal(d.firing, ['Disk full']);
    assert.equal(d.backups, [{ target: '/srv/backup', age_days: 1.5, error: null }]);
    const text = renderHostDigest(d, 'box').text;
    for (const words of ['CPU average: 24.3 %', 'Fullest disk: 40.0 % → 46.0 % (+6.0 points)', 'CPU busy: 2 times', 'Still firing: Disk full',
      'Updates: 4 pending, 1 of them security fixes.', '/srv/backup: last changed 1.5 days ago']) assert.match(text, words);
  });

  test('a week without samples says so instead of inventing figures', async () => {
    const d = await gatherHostDigest({ store, alerts, root: empty, updates: async () => null }, { from: week.from - 28 * DAY, to: week.to - 28 * DAY });
    assert.equal([d.cpu_avg, d.mem_avg, d.disk_start, d.uptime_s], [null, null, null, null]);
    const text = renderHostDigest(d, 'box').text;
    assert.match(text, 'CPU average: no samples');
    assert.match(text, 'Updates: not checked here');
  });
  return test;
}

for (const kind of await backendKinds('host-digest')) define(kind).run();
