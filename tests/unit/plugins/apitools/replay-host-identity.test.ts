// Every spelling of an address is one identity, and every address of this machine is `this-host`: what the replay
// guard compares, checked here on raw spellings (not only on what the URL parser already normalised).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  addressIdentities, addressKey, canonicalHostName, isLocalhostName, parseIPv4, parseIPv6, THIS_HOST,
} from '../../../../plugins/apitools/replay/host-identity.js';

const NO_INTERFACES = new Set<string>();
const ids = (a: string, local: ReadonlySet<string> = NO_INTERFACES) => addressIdentities(a, local);

test('IPv4 in every inet_aton spelling: parts, decimal, octal, hex', () => {
  const loopback = 0x7f000001;
  for (const s of ['127.0.0.1', '127.1', '127.0.1', '2130706433', '0x7f.1', '0x7F.0.0.1', '0177.0.0.1', '0x7f000001',
    '017700000001', '127.000.000.001', '0x7f.0x0.0x0.0x1', '0177.0.1']) {
    assert.is(parseIPv4(s), loopback, s);
  }
  assert.is(parseIPv4('0'), 0);
  assert.is(parseIPv4('10.1.2.3'), 0x0a010203);
  for (const s of ['', '127..1', '256.0.0.1', '1.2.3.4.5', '4294967296', '127.0.0.1a', '0x', '08.0.0.1', 'localhost', '1.2.65536', '::1']) {
    assert.is(parseIPv4(s), s === '0x' ? 0 : undefined, s);
  }
});

test('IPv6 with ::, a dotted tail, brackets and a zone', () => {
  assert.equal(parseIPv6('::1'), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(parseIPv6('[0:0:0:0:0:0:0:1]'), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(parseIPv6('::'), [0, 0, 0, 0, 0, 0, 0, 0]);
  assert.equal(parseIPv6('::ffff:127.0.0.1'), [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
  assert.equal(parseIPv6('::FFFF:7F00:1'), [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
  assert.equal(parseIPv6('fe80::1%eth0'), [0xfe80, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(parseIPv6('1:2:3:4:5:6:1.2.3.4'), [1, 2, 3, 4, 5, 6, 0x0102, 0x0304]);
  for (const s of ['127.0.0.1', 'localhost', '1::2::3', '1:2:3:4:5:6:7:8:9', '12345::1', '::ffff:256.0.0.1', ':::1', '1:2:3:4:5:6:7']) {
    assert.is(parseIPv6(s), undefined, s);
  }
});

test('names: case and trailing dots do not make another host; localhost and *.localhost are the loopback', () => {
  assert.is(canonicalHostName('LocalHost.'), 'localhost');
  assert.is(canonicalHostName('api.Example.COM..'), 'api.example.com');
  assert.is(canonicalHostName('[::1]'), '::1');
  for (const n of ['localhost', 'LOCALHOST', 'localhost.', 'app.localhost', 'a.b.localhost.']) assert.ok(isLocalhostName(n), n);
  for (const n of ['localhost.example', 'notlocalhost', 'localhostx', 'example.com']) assert.not.ok(isLocalhostName(n), n);
});

test('every loopback, unspecified and IPv4-carrying spelling of this machine is this-host', () => {
  for (const s of ['127.0.0.1', '127.1', '2130706433', '0x7f.1', '0177.0.0.1', '127.255.255.254', '127.0.0.2', '0.0.0.0', '0',
    '::1', '[::1]', '[0:0:0:0:0:0:0:1]', '::', '[::]', '::ffff:127.0.0.1', '::ffff:7f00:1', '[::FFFF:7F00:1]', '::ffff:0.0.0.0',
    '::127.0.0.1', '::7f00:1', '::ffff:0:127.0.0.1', '64:ff9b::127.0.0.1', '127.0.0.1.']) {
    assert.ok(ids(s).has(THIS_HOST), s);
  }
  for (const s of ['10.1.2.3', '192.0.2.7', '2001:db8::1', '::ffff:10.1.2.3', '128.0.0.1', 'fe80::1', '1.0.0.127']) {
    assert.not.ok(ids(s).has(THIS_HOST), s);
  }
});

test('an address of one of this machine\'s interfaces is this-host', () => {
  const local = new Set([addressKey('192.0.2.2')!, addressKey('fd00::2')!]);
  assert.ok(ids('192.0.2.2', local).has(THIS_HOST));
  assert.ok(ids('::ffff:192.0.2.2', local).has(THIS_HOST));
  assert.ok(ids('[fd00:0:0:0:0:0:0:2]', local).has(THIS_HOST));
  assert.not.ok(ids('192.0.2.3', local).has(THIS_HOST));
});

test('an IPv6 spelling of an IPv4 address shares its identity', () => {
  const v4 = addressKey('10.1.2.3')!;
  for (const s of ['::ffff:10.1.2.3', '::ffff:a01:203', '[::FFFF:0A01:0203]', '::ffff:0:10.1.2.3', '64:ff9b::a01:203', '::10.1.2.3']) {
    assert.ok(ids(s).has(v4), s);
  }
  assert.not.ok(ids('2001:db8::a01:203').has(v4));
  assert.is(addressKey('0x0a.1.0x2.03'), v4);
  assert.is(addressKey('[0:0::1]'), addressKey('::1'));
  assert.is(addressKey('example.com'), undefined);
  assert.equal([...ids('example.com')], []);
});

test.run();
