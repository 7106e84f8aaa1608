import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readBatteries } from '../../../../../plugins/probes/proc/battery.js';
import { empty, laptop, server } from './fixture-roots.js';

test('the fixture laptop: the system battery, unplugged, with health as full against design; the mouse left out', async () => {
  const [bat, ...rest] = await readBatteries(laptop);
  assert.equal(rest, []);
  assert.is(bat.name, 'BAT0');
  assert.is(bat.percent, 42);
  assert.is(bat.status, 'Discharging');
  assert.is(bat.charging, false);
  assert.is(bat.plugged, false);
  assert.ok(Math.abs(bat.healthPercent! - (40 / 57) * 100) < 1e-9);
});

test('a battery that reports charge and no capacity: percent from charge now against full', async () => {
  assert.equal(await readBatteries(server), [
    { name: 'BAT1', percent: 75, status: 'Charging', charging: true, plugged: true, healthPercent: 80 },
  ]);
});

test('no power supplies, or this machine: percentages within 0..100', async () => {
  assert.equal(await readBatteries(empty), []);
  for (const b of await readBatteries()) assert.ok(b.percent >= 0 && b.percent <= 100);
});

test.run();
