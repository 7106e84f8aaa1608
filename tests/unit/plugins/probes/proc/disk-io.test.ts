import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFile } from 'node:fs/promises';
import { readDiskIo } from '../../../../../plugins/probes/proc/disk-io.js';
import { empty, laptop } from './fixture-roots.js';

test('the fixture: disks and partitions in bytes; loop, device-mapper and optical left out', async () => {
  const disks = await readDiskIo(laptop);
  assert.equal(disks.map((d) => d.name), ['nvme0n1', 'nvme0n1p1', 'nvme0n1p2']);
  assert.equal(disks[0], {
    name: 'nvme0n1', reads: 120000, readBytes: 9600000 * 512, readMs: 45000,
    writes: 80000, writtenBytes: 6400000 * 512, writeMs: 70000, busyMs: 60000, wholeDisk: true,
  });
  assert.equal(disks.map((d) => d.wholeDisk), [true, false, false]);
});

test('this machine: the disk holding the root filesystem is listed, and its counters only grow', async () => {
  const a = await readDiskIo();
  assert.ok(a.length > 0);
  assert.ok(a.every((d) => !/^loop/.test(d.name)));
  const root = (await readFile('/proc/self/mounts', 'utf8')).split('\n').map((l) => l.split(' ')).find((f) => f[1] === '/')?.[0];
  if (root?.startsWith('/dev/') && !root.startsWith('/dev/mapper')) assert.ok(a.some((d) => d.name === root.slice(5)), `${root} in ${a.map((d) => d.name)}`);
  const b = await readDiskIo();
  for (const d of a) {
    const later = b.find((x) => x.name === d.name);
    assert.ok(later && later.readBytes >= d.readBytes && later.writtenBytes >= d.writtenBytes);
  }
  assert.equal(await readDiskIo(empty), []);
});

test.run();
