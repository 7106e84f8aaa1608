import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { networkInterfaces } from 'node:os';
import { readNetwork } from '../../../../../plugins/probes/proc/network.js';
import { empty, laptop } from './fixture-roots.js';

test('the fixture: every interface with bytes, packets, errors and drops each way', async () => {
  const ifaces = await readNetwork(laptop);
  assert.equal(ifaces.map((i) => i.name), ['lo', 'wlp2s0', 'enp0s31f6', 'docker0']);
  assert.equal(ifaces[1], {
    name: 'wlp2s0', rxBytes: 987654321, rxPackets: 654321, rxErrors: 3, rxDropped: 17,
    txBytes: 12345678, txPackets: 98765, txErrors: 1, txDropped: 2,
  });
  assert.is(ifaces[3].txBytes, 7000, 'a line without padding after the colon');
});

test('this machine: every interface the OS lists with an address appears, with counters', async () => {
  const ifaces = await readNetwork();
  const names = ifaces.map((i) => i.name);
  for (const name of Object.keys(networkInterfaces())) assert.ok(names.includes(name), `${name} missing from ${names}`);
  const lo = ifaces.find((i) => i.name === 'lo');
  assert.ok(lo && lo.rxBytes > 0 && lo.rxBytes === lo.txBytes, 'loopback receives what it sends');
  assert.equal(await readNetwork(empty), []);
});

test.run();
