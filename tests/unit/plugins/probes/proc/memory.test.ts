import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { totalmem } from 'node:os';
import { readMemory } from '../../../../../plugins/probes/proc/memory.js';
import { empty, laptop, server } from './fixture-roots.js';

const KiB = 1024;

test('the fixture: used is total minus available; swap in bytes and percent', async () => {
  const m = await readMemory(laptop);
  assert.ok(m);
  assert.is(m.total, 16_000_000 * KiB);
  assert.is(m.available, 8_000_000 * KiB);
  assert.is(m.used, 8_000_000 * KiB);
  assert.is(m.usedPercent, 50);
  assert.is(m.cached, 4_300_000 * KiB, 'page cache includes reclaimable slab');
  assert.is(m.swapUsed, 1_000_000 * KiB);
  assert.is(m.swapPercent, 25);
});

test('an old kernel without MemAvailable: free + buffers + cache; no swap is 0 %', async () => {
  const m = await readMemory(server);
  assert.ok(m);
  assert.is(m.available, 300_000 * KiB);
  assert.is(m.usedPercent, 70);
  assert.is(m.swapPercent, 0);
});

test('this machine: the total is what the OS reports, and used is within it', async () => {
  const m = await readMemory();
  assert.ok(m);
  assert.is(m.total, totalmem());
  assert.ok(m.used > 0 && m.used < m.total);
  assert.ok(m.usedPercent > 0 && m.usedPercent < 100);
  assert.ok(m.swapUsed >= 0 && m.swapUsed <= m.swapTotal);
  assert.is(await readMemory(empty), undefined);
});

test.run();
