import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { demoSettings } from '../../../../app/demo/demo-command.js';

const settings = (flags: Record<string, string | boolean>, positionals: string[] = []) => demoSettings({ flags, positionals });

test('defaults: ports chosen at start, four requests a second, traffic on, a temporary data directory, the demo config', () => {
  assert.equal(settings({}), { port: undefined, proxyPort: undefined, rate: 1, traffic: true, dataDir: undefined, config: undefined });
});

test('flags: ports, a fractional rate, no traffic, a data directory and a config', () => {
  assert.equal(settings({ port: '9100', 'proxy-port': '8100', rate: '0.5', 'no-traffic': true, 'data-dir': 'here', config: 'mine.yaml' }),
    { port: 9100, proxyPort: 8100, rate: 0.5, traffic: false, dataDir: 'here', config: 'mine.yaml' });
  assert.is(settings({ rate: '0' }).rate, 0);
});

test('bad values are refused with the flag named', () => {
  for (const [flags, message] of [
    [{ port: '0' }, /--port takes a port from 1 to 65535, got "0"/],
    [{ port: '70000' }, /--port takes a port/],
    [{ 'proxy-port': 'http' }, /--proxy-port takes a port/],
    [{ rate: 'fast' }, /--rate takes requests per second from 0 to 200, got "fast"/],
    [{ rate: '201' }, /--rate/],
    [{ rate: '-1' }, /--rate/],
    [{ 'data-dir': '' }, /--data-dir needs a value/],
  ] as [Record<string, string>, RegExp][]) {
    assert.throws(() => settings(flags), message, JSON.stringify(flags));
  }
  assert.throws(() => settings({}, ['now']), /unexpected argument "now"/);
});

test.run();
