// Interface rates from successive counter readings on a fake clock: exact bytes and packets a second, errors and
// drops new since the last reading, a counter that went back (a driver reload) gives no rate, loopback last.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { HostInterfaceCounters } from '@vigil/plugin-sdk';
import { InterfaceRates } from '../../../../plugins/network/interface-rates.js';

const c = (name: string, rx: number, tx: number, errs = 0, drops = 0): HostInterfaceCounters => ({
  name, rx_bytes: rx, rx_packets: rx / 100, rx_errors: errs, rx_dropped: drops, tx_bytes: tx, tx_packets: tx / 100, tx_errors: 0, tx_dropped: 0,
});

test('rates over the time between readings; new errors and drops; a reset counter gives null', async () => {
  let now = 1_000_000;
  let counters: HostInterfaceCounters[] = [c('lo', 0, 0), c('eth0', 1_000_000, 500_000)];
  const rates = new InterfaceRates(async () => counters, () => now);
  // The first call reads twice, half a second of real time apart; the fake clock stays, so its window is 0.
  const first = await rates.rates();
  assert.equal(first.interfaces.map((i) => i.name), ['eth0', 'lo'], 'loopback last');
  now += 2000;
  counters = [c('lo', 4000, 4000), c('eth0', 3_000_000, 700_000, 3, 1)];
  const second = await rates.rates();
  assert.is(second.interval_ms, 2000);
  const eth = second.interfaces[0];
  assert.equal([eth.rx_bps, eth.tx_bps, eth.rx_pps, eth.tx_pps, eth.new_errors, eth.new_drops], [1_000_000, 100_000, 10_000, 1000, 3, 1]);
  assert.is(second.interfaces[1].loopback, true);
  now += 1000;
  counters = [c('lo', 8000, 8000), c('eth0', 10, 700_000, 3, 1)];
  const third = await rates.rates();
  assert.equal([third.interfaces[0].rx_bps, third.interfaces[0].tx_bps, third.interfaces[0].new_errors], [null, 0, 0]);
  // Readings closer than half a second are measured against an older one.
  now += 100;
  const close = await rates.rates();
  assert.is(close.interval_ms, 1100);
});

test.run();
