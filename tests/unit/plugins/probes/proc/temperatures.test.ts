import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hottest, readTemperatures } from '../../../../../plugins/probes/proc/temperatures.js';
import { empty, laptop, server } from './fixture-roots.js';

test('the fixture: every hwmon sensor with its chip and label, in input order; placeholders dropped', async () => {
  const temps = await readTemperatures(laptop);
  assert.equal(temps, [
    { chip: 'coretemp', label: 'Package id 0', celsius: 61 },
    { chip: 'coretemp', label: 'Core 0', celsius: 58 },
    { chip: 'coretemp', label: 'Core 1', celsius: 87.5 },
    { chip: 'nvme', label: 'Composite', celsius: 44.85 },
  ]);
  assert.equal(hottest(temps), { chip: 'coretemp', label: 'Core 1', celsius: 87.5 });
});

test('without hwmon sensors, the thermal zones', async () => {
  assert.equal(await readTemperatures(server), [
    { chip: 'x86_pkg_temp', label: 'thermal_zone0', celsius: 47 },
    { chip: 'acpitz', label: 'thermal_zone1', celsius: 27.8 },
  ]);
  assert.equal(await readTemperatures(empty), []);
  assert.is(hottest([]), undefined);
});

test('this machine: whatever sensors exist read as plausible temperatures', async () => {
  for (const t of await readTemperatures()) assert.ok(t.celsius > -40 && t.celsius < 150 && t.chip !== '', JSON.stringify(t));
});

test.run();
