import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { statfs } from 'node:fs/promises';
import { readMountList, readMounts } from '../../../../../plugins/probes/proc/mounts.js';
import { empty, laptop } from './fixture-roots.js';

test('the fixture: real partitions once each, pseudo filesystems and snaps left out, escaped paths decoded', async () => {
  const list = await readMountList(laptop);
  assert.equal(list, [
    { device: '/dev/mapper/vg-root', mountPoint: '/', fsType: 'ext4' },
    { device: '/dev/nvme0n1p1', mountPoint: '/boot/efi', fsType: 'vfat' },
    { device: '/dev/mapper/vg-home', mountPoint: '/home', fsType: 'ext4' },
    { device: '/dev/sda1', mountPoint: '/media/usb stick', fsType: 'exfat' },
  ]);
});

test('usage comes from statfs under the root; a mount point that is not there has no usage', async () => {
  const mounts = await readMounts(laptop);
  const home = mounts.find((m) => m.mountPoint === '/home');
  assert.ok(home?.total && home.total > 0 && home.usedPercent !== undefined);
  assert.ok(home.usedPercent >= 0 && home.usedPercent <= 100);
  const usb = mounts.find((m) => m.mountPoint === '/media/usb stick');
  assert.ok(usb);
  assert.is(usb.total, undefined);
});

test('this machine: the root filesystem is listed, its usage as df computes it', async () => {
  const mounts = await readMounts();
  const root = mounts.find((m) => m.mountPoint === '/');
  assert.ok(root, `no / in ${JSON.stringify(mounts)}`);
  const s = await statfs('/');
  assert.is(root.total, s.blocks * s.bsize);
  assert.ok(root.used! > 0 && root.available! >= 0 && root.used! <= root.total!);
  assert.ok(mounts.every((m) => !['tmpfs', 'proc', 'sysfs', 'squashfs', 'overlay', 'cgroup', 'cgroup2'].includes(m.fsType)));
  assert.equal(await readMounts(empty), []);
});

test.run();
