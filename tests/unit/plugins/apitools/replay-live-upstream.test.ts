import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkReplayTarget, liveServiceMatch, type Resolve } from '../../../../plugins/apitools/replay/live-upstream.js';

const service = { upstream: 'http://127.0.0.1:3000', listen: '127.0.0.1:8080' };

/** A DNS of names an attacker controls or a network defines; anything else does not resolve. */
const zone: Record<string, string[]> = {
  'api.example': ['10.1.2.3', '10.1.2.4'],
  'alias.example': ['10.1.2.4'],
  'mapped.example': ['::ffff:10.1.2.3'],
  'rebind.example': ['127.0.0.1'],
  'six.example': ['::1'],
  'staging.example': ['10.9.9.9'],
  'mixed.example': ['10.9.9.9', '127.0.0.5'],
};
const resolve: Resolve = async (name) => zone[name] ?? [];
const live = (target: string, s: Parameters<typeof liveServiceMatch>[1] = service) => liveServiceMatch(new URL(target), s, { resolve });

test('the upstream, however its host is spelled, and the gateway itself are the live service', async () => {
  for (const target of ['http://127.0.0.1:3000', 'http://localhost:3000/', 'http://[::1]:3000/x', 'http://127.0.0.2:3000', 'http://0.0.0.0:3000']) {
    assert.match((await liveServiceMatch(new URL(target), service))!, /service\.upstream/, target);
  }
  assert.match((await liveServiceMatch(new URL('http://localhost:8080'), service))!, /the gateway itself/);
  assert.match((await live('http://api.example:80', { upstream: 'http://api.example' }))!, /service\.upstream/);
  assert.match((await liveServiceMatch(new URL('https://localhost'), { upstream: 'https://127.0.0.1:443/base' }))!, /service\.upstream/);
});

test('every spelling of the loopback reaches an upstream on 127.0.0.1 (real resolver)', async () => {
  const targets = [
    'http://[::ffff:127.0.0.1]:3000', 'http://[::ffff:7f00:1]:3000', 'http://[::FFFF:7F00:0001]:3000', 'http://[::ffff:0.0.0.0]:3000',
    'http://localhost.:3000', 'http://LOCALHOST.:3000', 'http://localhost..:3000', 'http://LocalHost:3000', 'http://app.localhost:3000',
    'http://app.localhost.:3000', 'http://127.1:3000', 'http://2130706433:3000', 'http://0x7f.1:3000', 'http://0177.0.0.1:3000',
    'http://0x7f000001:3000', 'http://127.0.0.1.:3000', 'http://[0:0:0:0:0:0:0:1]:3000', 'http://[::]:3000', 'http://0:3000',
    'http://127.255.255.254:3000', 'http://[::127.0.0.1]:3000', 'http://[::ffff:0:127.0.0.1]:3000', 'http://[64:ff9b::7f00:1]:3000',
    'https://localhost:3000', 'http://local%68ost:3000',
  ];
  // This machine's own name, where the resolver knows it: the loopback or an interface address.
  if (await lookup(hostname()).then(() => true, () => false)) targets.push(`http://${hostname()}:3000`, `http://${hostname().toUpperCase()}.:3000`);
  for (const target of targets) {
    assert.match((await liveServiceMatch(new URL(target), service))!, /service\.upstream/, target);
  }
});

test('an upstream configured in another spelling is matched by the plain one', async () => {
  for (const upstream of ['http://[::ffff:127.0.0.1]:3000', 'http://localhost.:3000', 'http://2130706433:3000', 'http://app.localhost:3000', 'http://[::1]:3000']) {
    assert.match((await liveServiceMatch(new URL('http://127.0.0.1:3000'), { upstream }))!, /service\.upstream/, upstream);
  }
});

test('names are compared by what they resolve to, with or without a trailing dot', async () => {
  const remote = { upstream: 'http://api.example:8080' };
  for (const target of ['http://api.example:8080', 'http://API.EXAMPLE.:8080', 'http://alias.example:8080', 'http://10.1.2.3:8080',
    'http://[::ffff:10.1.2.4]:8080', 'http://mapped.example:8080', 'http://167838211:8080', 'http://0xa.1.2.3:8080']) {
    assert.match((await live(target, remote))!, /service\.upstream/, target);
  }
  assert.is(await live('http://staging.example:8080', remote), null);
  assert.is(await live('http://api.example:8081', remote), null);
  // A name that resolves to this machine (rebinding, a hosts entry) is this machine.
  assert.match((await live('http://rebind.example:3000'))!, /service\.upstream/);
  assert.match((await live('http://six.example:3000'))!, /service\.upstream/);
  assert.match((await live('http://mixed.example:3000'))!, /service\.upstream/, 'one local address among others is enough');
  // An upstream whose name resolves to nothing here cannot be compared: on its port, any target is refused (fail
  // closed); on another port, none is.
  assert.match((await live('http://Gone.Invalid.:9000', { upstream: 'http://gone.invalid:9000' }))!, /^reaches service\.upstream/);
  for (const target of ['http://10.1.2.3:9000', 'http://staging.example:9000', 'http://other.invalid:9000']) {
    assert.match((await live(target, { upstream: 'http://gone.invalid:9000' }))!, /^may reach service\.upstream .*does not resolve here/, target);
  }
  assert.is(await live('http://10.1.2.3:9001', { upstream: 'http://gone.invalid:9000' }), null);
  // A definite match wins over an undecided one.
  assert.match((await live('http://127.0.0.1:9000', { upstream: 'http://gone.invalid:9000', listen: '127.0.0.1:9000' }))!, /^reaches the gateway/);
});

test('any address of this machine reaches an upstream on this machine, whatever interface it binds', async () => {
  const localKeys = new Set(['ip4:192.0.2.2', 'ip6:fd00:0:0:0:0:0:0:2']);
  for (const target of ['http://192.0.2.2:3000', 'http://[fd00::2]:3000', 'http://[::ffff:192.0.2.2]:3000']) {
    assert.match((await liveServiceMatch(new URL(target), service, { resolve, localKeys }))!, /service\.upstream/, target);
  }
  assert.match((await liveServiceMatch(new URL('http://127.0.0.1:3000'), { upstream: 'http://192.0.2.2:3000' }, { resolve, localKeys }))!, /service\.upstream/);
  assert.is(await liveServiceMatch(new URL('http://192.0.2.3:3000'), service, { resolve, localKeys }), null);
});

test('another port, or another host, is not', async () => {
  assert.is(await liveServiceMatch(new URL('http://127.0.0.1:3001'), service), null);
  assert.is(await liveServiceMatch(new URL('http://[::ffff:127.0.0.1]:3001'), service), null);
  assert.is(await liveServiceMatch(new URL('http://staging.invalid:3000'), service), null);
  assert.is(await live('http://staging.example:3000'), null);
  assert.is(await live('http://[2001:db8::1]:3000'), null);
  assert.is(await liveServiceMatch(new URL('http://127.0.0.1:3000'), undefined), null);
});

test('a gateway on every interface matches any local address on its port', async () => {
  for (const listen of [':8080', '0.0.0.0:8080', '8080', '[::]:8080']) {
    for (const target of ['http://127.0.0.1:8080', 'http://[::ffff:7f00:1]:8080', 'http://localhost.:8080']) {
      assert.match((await liveServiceMatch(new URL(target), { listen }))!, /the gateway itself/, `${listen} ${target}`);
    }
  }
  assert.is(await liveServiceMatch(new URL('http://127.0.0.1:8081'), { listen: ':8080' }), null);
});

test('the addresses checked are the ones to connect to', async () => {
  assert.equal((await checkReplayTarget(new URL('http://staging.example:3000'), service, { resolve })).connectTo, ['10.9.9.9']);
  assert.equal((await checkReplayTarget(new URL('http://[::ffff:7f00:1]:3000'), service, { resolve })).connectTo, ['::ffff:7f00:1']);
  assert.equal((await checkReplayTarget(new URL('http://nowhere.invalid:3000'), service, { resolve })).connectTo, []);
  // `*.localhost` is the loopback even where the resolver does not say so.
  const app = await checkReplayTarget(new URL('http://app.localhost:9000'), service, { resolve });
  assert.equal([app.live, app.connectTo], [null, ['127.0.0.1', '::1']]);
});

test.run();
