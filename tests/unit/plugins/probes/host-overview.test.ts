// The `host` service's answer over the fixture laptop: who the machine is (read under the root, as in a container
// with the host's root mounted), its hottest sensor and its battery; and the shape the fleet checks peers against.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { HOST_OVERVIEW_SCHEMA } from '@vigil/plugin-sdk';
import { hostOverview, readHostIdentity } from '../../../../plugins/probes/host-overview.js';
import { LiveReader } from '../../../../plugins/probes/live-reading.js';
import { readTemperatures, hottest } from '../../../../plugins/probes/proc/temperatures.js';
import { empty, laptop } from './proc/fixture-roots.js';

const validate = new Ajv2020({ strict: false }).compile(HOST_OVERVIEW_SCHEMA);

test('the laptop: its own hostname, the hottest of its sensors, the system battery, four cores', async () => {
  const who = await readHostIdentity(laptop);
  assert.is(who.hostname, 'laptop');
  const reader = new LiveReader({ root: laptop });
  await reader.prime();
  const overview = await hostOverview(reader, who);
  assert.ok(validate(overview), JSON.stringify(validate.errors));
  assert.is(overview.hostname, 'laptop');
  assert.is(overview.temperature_c, hottest(await readTemperatures(laptop))!.celsius);
  assert.equal(overview.battery, { percent: 42, charging: false, plugged: false });
  assert.is(overview.cpu.cores, 4);
  assert.is(overview.cpu.percent, 0, 'a second reading of the same counters: nothing ran');
});

test('a root without /proc: the process\'s own names, and figures that say nothing was read', async () => {
  const who = await readHostIdentity(empty);
  assert.ok(who.hostname.length > 0 && who.kernel.length > 0 && who.os.length > 0);
  const overview = await hostOverview(new LiveReader({ root: empty }), who);
  assert.is(overview.memory.total_bytes, 0);
  assert.is(overview.battery, null);
  assert.is(overview.temperature_c, null);
  assert.is(overview.cpu.percent, null);
});

test.run();
