// Reverse lookups for the connections table with a stand-in PTR lookup: at most `concurrency` in flight, at most
// `per_request` addresses a request, a lookup that never answers is "no name" after its timeout, answers (and
// misses) cached for the TTL, loopback and wildcard never asked about; and one real lookup of a documentation
// address (no PTR record) answers "no name" within its timeout.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ReverseDns } from '../../../../plugins/network/reverse-dns.js';
import { scaledTimeout } from '../../../support/net.js';

test('bounded in flight and per request; cached; a silent server is no name after the timeout', async () => {
  let now = 0;
  let inFlight = 0;
  let most = 0;
  const asked: string[] = [];
  const lookup = async (a: string): Promise<string[]> => {
    asked.push(a);
    inFlight++; most = Math.max(most, inFlight);
    try {
      if (a === '10.0.0.99') return await new Promise<string[]>(() => undefined);
      await new Promise((r) => setTimeout(r, 5));
      if (a === '10.0.0.7') throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      return [`host-${a.split('.').pop()}.example`];
    } finally { inFlight--; }
  };
  const dns = new ReverseDns({ timeoutMs: 50, concurrency: 3, perRequest: 8, ttlMs: 60_000 }, () => now, lookup);
  const addresses = ['127.0.0.1', '::1', '0.0.0.0', ...Array.from({ length: 10 }, (_, i) => `10.0.0.${i}`), '10.0.0.99'];
  const first = await dns.names(addresses);
  assert.is(first.asked, 8);
  assert.is(first.skipped, 3);
  assert.ok(most <= 3, `${most} in flight at most`);
  assert.not.ok(asked.some((a) => a.startsWith('127.') || a === '::1' || a === '0.0.0.0'), 'loopback and wildcard never asked');
  assert.is(first.names['10.0.0.1'], 'host-1.example');
  assert.is(first.names['10.0.0.7'], null);
  const silent = await dns.names(['10.0.0.99']);
  assert.is(silent.names['10.0.0.99'], null, 'no answer in time: no name');
  const before = asked.length;
  const again = await dns.names(['10.0.0.1', '10.0.0.7', '::ffff:10.0.0.2']);
  assert.equal(again.names, { '10.0.0.1': 'host-1.example', '10.0.0.7': null, '::ffff:10.0.0.2': 'host-2.example' });
  assert.is(asked.length, before, 'all three from the cache (a v4-mapped address as its IPv4)');
  now += 60_001;
  await dns.names(['10.0.0.1']);
  assert.is(asked.length, before + 1, 'asked again after the TTL');
});

test('a real lookup of a documentation address answers no name within its timeout', async () => {
  const dns = new ReverseDns({ timeoutMs: 300, concurrency: 2, perRequest: 4, ttlMs: 1000 });
  const t0 = Date.now();
  const { names } = await dns.names(['192.0.2.1']);
  assert.is(names['192.0.2.1'] ?? null, null);
  assert.ok(Date.now() - t0 < scaledTimeout(5000), 'bounded by its timeout');
});

test.run();
