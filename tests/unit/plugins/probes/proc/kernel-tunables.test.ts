import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFile } from 'node:fs/promises';
import { readKernelTunables } from '../../../../../plugins/probes/proc/kernel-tunables.js';
import { empty, laptop } from './fixture-roots.js';

test('the fixture: keys as sysctl writes them, sorted, whitespace in values folded; a search over keys and values', async () => {
  assert.equal(await readKernelTunables(laptop), [
    { key: 'kernel.hostname', value: 'laptop' },
    { key: 'net.ipv4.ip_forward', value: '1' },
    { key: 'net.ipv4.tcp_rmem', value: '4096 131072 6291456' },
    { key: 'vm.swappiness', value: '60' },
  ]);
  assert.equal((await readKernelTunables(laptop, 'IPV4')).map((t) => t.key), ['net.ipv4.ip_forward', 'net.ipv4.tcp_rmem']);
  assert.equal((await readKernelTunables(laptop, '131072')).map((t) => t.key), ['net.ipv4.tcp_rmem']);
  assert.equal(await readKernelTunables(empty), []);
});

test('this machine: hundreds of tunables, the same values /proc/sys holds', async () => {
  const all = await readKernelTunables();
  assert.ok(all.length > 100, `${all.length} tunables`);
  const max = all.find((t) => t.key === 'kernel.pid_max');
  assert.is(max?.value, (await readFile('/proc/sys/kernel/pid_max', 'utf8')).trim());
  assert.ok(all.every((t) => !t.key.includes('/')));
});

test.run();
