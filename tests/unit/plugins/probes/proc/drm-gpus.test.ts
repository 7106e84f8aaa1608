import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readDrmGpus } from '../../../../../plugins/probes/proc/drm-gpus.js';
import { empty, laptop } from './fixture-roots.js';

test('the fixture: an AMD card with load, VRAM and temperature, an Intel one with its clocks; connectors left out', async () => {
  assert.equal(await readDrmGpus(laptop), [
    { card: 'card0', vendor: 'amd', busyPercent: 37, vramUsed: 1073741824, vramTotal: 4294967296, celsius: 52 },
    { card: 'card1', vendor: 'intel', freqMhz: 450, maxFreqMhz: 1300 },
  ]);
});

test('no DRM devices, or this machine: cards only, busy within 0..100', async () => {
  assert.equal(await readDrmGpus(empty), []);
  for (const g of await readDrmGpus()) {
    assert.match(g.card, /^card\d+$/);
    assert.ok(g.busyPercent === undefined || (g.busyPercent >= 0 && g.busyPercent <= 100));
  }
});

test.run();
