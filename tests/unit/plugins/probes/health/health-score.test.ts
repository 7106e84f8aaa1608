// The health score from fixture conditions: a machine root written by the test (memory short with swap in use, a
// hot sensor, a worn battery, a reboot required) plus apt's and systemctl's answers, each finding worth perch's
// points, in plain words with the page that fixes it; apt's output parsed into security and other updates.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseFailedUnits } from '../../../../../plugins/probes/health/failed-units.js';
import { healthFindings, healthScore, type HealthFacts } from '../../../../../plugins/probes/health/findings.js';
import { gatherHealthFacts } from '../../../../../plugins/probes/health/health-facts.js';
import { parseAptSimulation, PendingUpdatesCache } from '../../../../../plugins/probes/health/pending-updates.js';
import { tempDir } from '../../../../support/tmp.js';

const work = tempDir('vigil-health-');
test.after(() => work.cleanup());

const put = (root: string, path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

const healthy: HealthFacts = {
  mounts: [{ mountPoint: '/', usedPercent: 40 }], memory: { usedPercent: 50, swapPercent: 0, swapTotal: 1 }, hottest: { label: 'Package id 0', celsius: 50 },
  batteryHealth: [{ name: 'BAT0', percent: 95 }], updates: { total: 0, security: 0, manager: 'apt' }, failedUnits: [], rebootRequired: false,
};

test('a healthy machine scores 100, Excellent, with no findings', () => {
  assert.equal(healthFindings(healthy), []);
  assert.equal(healthScore([]), { score: 100, verdict: 'Excellent' });
});

test('disk: 92 % is critical (−20), 85 % a warning (−10), per partition; each finding links to a page', () => {
  const findings = healthFindings({ ...healthy, mounts: [{ mountPoint: '/', usedPercent: 93 }, { mountPoint: '/home', usedPercent: 86 }, { mountPoint: '/boot', usedPercent: 84.9 }] });
  assert.equal(findings.map((f) => [f.severity, f.title]), [['critical', '/ is almost full (93 %)'], ['warning', '/home is filling up (86 %)']]);
  assert.ok(findings.every((f) => f.path.startsWith('/host')));
  assert.equal(healthScore(findings), { score: 70, verdict: 'Needs attention' });
});

test('updates, failed units, memory with swap, heat: warnings; other updates, reboot, a worn battery: notes', () => {
  const findings = healthFindings({
    ...healthy, updates: { total: 7, security: 2, manager: 'apt' }, failedUnits: ['nginx.service'], memory: { usedPercent: 91, swapPercent: 60, swapTotal: 1 },
    hottest: { label: 'Package id 0', celsius: 86 }, rebootRequired: true, batteryHealth: [{ name: 'BAT0', percent: 65 }],
  });
  assert.equal(findings.map((f) => [f.severity, f.action]), [
    ['warning', 'updates'], ['warning', 'services'], ['warning', 'memory'], ['warning', 'temperature'], ['info', 'updates'], ['info', 'reboot'], ['info', 'battery'],
  ]);
  assert.match(findings[0].title, '2 security updates pending');
  assert.is(findings[0].path, '/host/packages?updatable=1', 'updates are installed on the Packages page');
  assert.match(findings[4].title, '5 updates pending');
  assert.match(findings[1].detail, 'nginx.service');
  assert.equal(healthScore(findings), { score: 100 - 40 - 9, verdict: 'Needs attention' });
  assert.equal(healthFindings({ ...healthy, memory: { usedPercent: 95, swapPercent: 10, swapTotal: 1 } }), [], 'memory without swap pressure is not a finding');
});

test('the score never goes below 0; the verdicts at 90, 75 and 50', () => {
  const many = healthFindings({ ...healthy, mounts: Array.from({ length: 6 }, (_, i) => ({ mountPoint: `/m${i}`, usedPercent: 99 })) });
  assert.equal(healthScore(many), { score: 0, verdict: 'Poor' });
  const at = (n: number) => healthScore(Array.from({ length: n }, () => ({ severity: 'info' as const, title: '', detail: '', action: '', path: '' }))).verdict;
  assert.equal([at(3), at(4), at(8), at(9), at(16), at(17)], ['Excellent', 'Good', 'Good', 'Needs attention', 'Needs attention', 'Poor']);
});

test('facts from a machine root: memory short with swap, a hot sensor, a worn battery, a reboot required', async () => {
  const root = join(work.path, 'machine');
  put(root, 'proc/meminfo', 'MemTotal: 1000000 kB\nMemFree: 10000 kB\nMemAvailable: 50000 kB\nBuffers: 0 kB\nCached: 0 kB\nSwapTotal: 1000000 kB\nSwapFree: 300000 kB\n');
  put(root, 'sys/class/hwmon/hwmon0/name', 'coretemp\n');
  put(root, 'sys/class/hwmon/hwmon0/temp1_input', '91000\n');
  put(root, 'sys/class/hwmon/hwmon0/temp1_label', 'Package id 0\n');
  for (const [f, v] of Object.entries({ type: 'Battery', status: 'Discharging', capacity: '40', energy_full: '30000000', energy_full_design: '50000000', present: '1' })) {
    put(root, `sys/class/power_supply/BAT0/${f}`, `${v}\n`);
  }
  put(root, 'var/run/reboot-required', '*** System restart required ***\n');
  const facts = await gatherHealthFacts({ root, updates: async () => null, failedUnits: async () => null });
  assert.is(Math.round(facts.memory!.usedPercent), 95);
  assert.is(Math.round(facts.memory!.swapPercent), 70);
  assert.equal(facts.hottest, { label: 'Package id 0', celsius: 91 });
  assert.equal(facts.batteryHealth, [{ name: 'BAT0', percent: 60 }]);
  assert.is(facts.rebootRequired, true);
  const findings = healthFindings(facts);
  assert.equal(findings.map((f) => f.action), ['memory', 'temperature', 'reboot', 'battery']);
  assert.equal(healthScore(findings).score, 100 - 20 - 6);
});

test('apt: Inst lines counted, security archives told apart; the run is cached and shared', async () => {
  const out = [
    'NOTE: This is only a simulation!',
    'Inst libssl3 [3.0.11-1~deb12u1] (3.0.11-1~deb12u2 Debian-Security:12/stable-security [amd64])',
    'Inst curl [7.88.1-10] (7.88.1-10+deb12u5 Debian:12.5/stable [amd64])',
    'Inst openssh-client [1:8.9p1-3] (1:8.9p1-3ubuntu0.6 Ubuntu:22.04/jammy-security [amd64])',
    'Conf libssl3 (3.0.11-1~deb12u2 Debian-Security:12/stable-security [amd64])',
  ].join('\n');
  assert.equal(parseAptSimulation(out), { total: 3, security: 2, manager: 'apt' });
  let runs = 0;
  let clock = 0;
  const cache = new PendingUpdatesCache(async () => { runs++; return { total: runs, security: 0, manager: 'apt' }; }, () => clock);
  const [a, b] = await Promise.all([cache.get(), cache.get()]);
  assert.equal([a?.total, b?.total, runs], [1, 1, 1], 'one run for two concurrent asks');
  clock = 3_599_999;
  assert.is((await cache.get())?.total, 1);
  clock = 3_600_000;
  assert.is((await cache.get())?.total, 2, 'an hour later it runs again');
  clock = 7_200_000;
  assert.is(cache.peek(), undefined, 'peek does not wait for a stale answer');
  assert.is(cache.peek(), undefined);
  await new Promise((r) => setImmediate(r));
  assert.equal([cache.peek()?.total, runs], [3, 3], 'it started one run, and has its answer next');
  assert.equal(parseFailedUnits('nginx.service loaded failed failed A high performance web server\nbackup.timer loaded failed failed Nightly\n'), ['nginx.service', 'backup.timer']);
});

test.run();
