import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalHost, HostAllowList, parseHostHeader } from '../../../../runtime/http/allowed-hosts.js';
import { rawExchange, rawRequest, startControlPlane, TOKEN, type Harness } from './control-plane-harness.js';

const whoAmI = (cp: Harness['cp']): void => {
  cp.forPlugin('hello').route({ response: {}, method: 'GET', path: '/api/hello', summary: 'Who am I', handler: (ctx) => ({ auth: ctx.state.auth }) });
};

const portOf = (h: Harness): string => new URL(h.url).port;

test('canonicalHost: lower case, no trailing dot, IPv6 without brackets in canonical form; junk is undefined', () => {
  assert.is(canonicalHost('LocalHost.'), 'localhost');
  assert.is(canonicalHost('Vigil.Example.COM'), 'vigil.example.com');
  assert.is(canonicalHost('[::1]'), '::1');
  assert.is(canonicalHost('0:0:0:0:0:0:0:1'), '::1');
  assert.is(canonicalHost('127.0.0.1.'), '127.0.0.1');
  for (const junk of ['', '.', 'a b', 'evil.example/x', 'user@host', 'host:80', '[::1', 'a\\b', 'a#b', 'a?b']) {
    assert.is(canonicalHost(junk), undefined, junk);
  }
});

test('parseHostHeader: name or IP literal with an optional port; anything else is undefined', () => {
  assert.equal(parseHostHeader('LOCALHOST.:9095'), { hostname: 'localhost', port: '9095' });
  assert.equal(parseHostHeader('[::1]:9095'), { hostname: '::1', port: '9095' });
  assert.equal(parseHostHeader('127.0.0.1'), { hostname: '127.0.0.1', port: '' });
  for (const junk of ['', '::1', '::1:9095', 'a:b', 'a:99999', 'a:', 'evil.example/x', 'u@127.0.0.1', 'a b:1', '[::1]x']) {
    assert.is(parseHostHeader(junk), undefined, junk);
  }
});

test('HostAllowList: the listen host, localhost, 127.0.0.1 and ::1 by default; configured names added', () => {
  const list = new HostAllowList(['Vigil.Example.com.', '10.0.0.7'], '192.168.1.5');
  for (const ok of ['localhost', '127.0.0.1', '::1', '192.168.1.5', 'vigil.example.com', '10.0.0.7']) assert.ok(list.allows(ok), ok);
  for (const no of ['evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', '10.0.0.8', 'example.com']) assert.not.ok(list.allows(no), no);
  const wildcard = new HostAllowList([], undefined);
  assert.ok(wildcard.allows('10.1.2.3'), 'a wildcard bind answers on every address, so any IP literal is the listen host');
  assert.ok(wildcard.allows('fe80::1'));
  assert.not.ok(wildcard.allows('evil.example'), 'a name is what DNS rebinding uses');
  assert.ok(new HostAllowList(['*'], '127.0.0.1').allows('anything.example'));
  assert.ok(new HostAllowList([], 'vigil.lan').allows('vigil.lan'));
});

test('a Host that is not allowed gets 421 before anything else: health, the token exchange, and a valid bearer token', async () => {
  const h = await startControlPlane({ register: whoAmI, lockout: { maxFailures: 1, windowMs: 60_000 } });
  try {
    const port = portOf(h);
    const hosts = [`evil.example:${port}`, 'evil.example', `localhost.evil.example:${port}`, `127.0.0.1.nip.io:${port}`,
      `Evil.Example.:${port}`, `[::2]:${port}`, `10.0.0.1:${port}`, 'a b', `u@127.0.0.1:${port}`, `127.0.0.1:${port}/x`];
    for (const host of hosts) {
      for (const [path, headers] of [
        ['/api/health', {}],
        [`/?token=${encodeURIComponent(TOKEN)}`, {}],
        ['/api/hello', { authorization: `Bearer ${TOKEN}` }],
        ['/api/hello', { authorization: 'Bearer wrong' }],
      ] as const) {
        const res = await rawRequest(h.url, path, { headers: { ...headers, host } });
        assert.is(res.status, 421, `Host ${JSON.stringify(host)} on ${path}`);
        assert.is(JSON.parse(res.body).error.code, 'VIGIL_ERR_HTTP_HOST_NOT_ALLOWED');
        assert.is(res.headers['set-cookie'], undefined);
      }
    }
    const refused = await rawRequest(h.url, '/api/health', { headers: { host: `evil.example:${port}` } });
    assert.match(JSON.parse(refused.body).error.message, /control_plane\.allowed_hosts/);
    assert.is((await h.bearer('/api/hello')).status, 200, 'a refused Host must not count towards the lockout');
  } finally {
    await h.close();
  }
});

test('allowed Host spellings: port or none, upper case, trailing dot, IPv6 loopback literal', async () => {
  const h = await startControlPlane({ register: whoAmI });
  try {
    const port = portOf(h);
    for (const host of [`127.0.0.1:${port}`, '127.0.0.1', `localhost:${port}`, `LOCALHOST:${port}`, `localhost.:${port}`, `[::1]:${port}`, '[::1]']) {
      const res = await rawRequest(h.url, '/api/hello', { headers: { host, authorization: `Bearer ${TOKEN}` } });
      assert.is(res.status, 200, `Host ${host}`);
    }
  } finally {
    await h.close();
  }
});

test('control_plane.allowed_hosts adds names; the origin through an allowed name counts as ours', async () => {
  const h = await startControlPlane({ register: whoAmI, allowedHosts: ['vigil.example.com'] });
  try {
    const port = portOf(h);
    let res = await rawRequest(h.url, '/api/health', { headers: { host: `Vigil.Example.COM.:${port}` } });
    assert.is(res.status, 200);
    res = await rawRequest(h.url, '/api/health', { headers: { host: `other.example.com:${port}` } });
    assert.is(res.status, 421);
    res = await rawRequest(h.url, `/?token=${encodeURIComponent(TOKEN)}`, {
      headers: { host: `vigil.example.com:${port}`, origin: `http://vigil.example.com:${port}`, 'sec-fetch-site': 'same-origin' },
    });
    assert.is(res.status, 302);
  } finally {
    await h.close();
  }
});

test('repeated Host headers, and an absolute-form target whose authority is not allowed or differs from Host: 421', async () => {
  const h = await startControlPlane({ register: whoAmI });
  try {
    const port = portOf(h);
    const exchange = (head: string): Promise<{ status: number; text: string }> => rawExchange(h.url, `${head}\r\nConnection: close\r\n\r\n`);
    assert.is((await exchange(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}`)).status, 200);
    assert.is((await exchange('GET /api/health HTTP/1.1\r\nHost: ')).status, 421, 'an empty Host');
    assert.is((await exchange('GET /api/health HTTP/1.0\r\nHost: evil.example')).status, 421, 'HTTP/1.0 with a Host is checked too');
    assert.is((await exchange(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example`)).status, 421);
    assert.is((await exchange(`GET /api/health HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.1:${port}`)).status, 421);
    assert.is((await exchange(`GET http://evil.example:${port}/api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}`)).status, 421);
    assert.is((await exchange(`GET http://localhost:${port}/api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}`)).status, 421);
    assert.is((await exchange(`GET http://127.0.0.1:${port}/api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}`)).status, 200);
    const token = await exchange(`GET http://evil.example:${port}/?token=${TOKEN} HTTP/1.1\r\nHost: 127.0.0.1:${port}`);
    assert.is(token.status, 421);
    assert.not.match(token.text, /set-cookie/i);
  } finally {
    await h.close();
  }
});

test('HTTP/1.0 without a Host (no browser sends that) is answered', async () => {
  const h = await startControlPlane({ register: whoAmI });
  try {
    const res = await rawExchange(h.url, 'GET /api/health HTTP/1.0\r\n\r\n');
    assert.is(res.status, 200, res.text);
  } finally {
    await h.close();
  }
});

test('a wildcard bind answers any IP literal Host, and still refuses names it was not given', async () => {
  const h = await startControlPlane({ register: whoAmI, listen: ':0' });
  try {
    const port = portOf(h);
    assert.is((await rawRequest(h.url, '/api/health', { headers: { host: `10.1.2.3:${port}` } })).status, 200);
    assert.is((await rawRequest(h.url, '/api/health', { headers: { host: `evil.example:${port}` } })).status, 421);
  } finally {
    await h.close();
  }
});

test('bad allowedHosts entries are refused at start with VIGIL_ERR_HTTP_OPTIONS naming the entry', async () => {
  let err: { code?: string; message: string } | undefined;
  try {
    await startControlPlane({ allowedHosts: ['ok.example', 'bad host:80'], listenNow: false });
  } catch (e) { err = e as typeof err; }
  assert.is(err?.code, 'VIGIL_ERR_HTTP_OPTIONS');
  assert.match(err!.message, /allowed_hosts\[1\]/);
  assert.match(err!.message, /bad host:80/);
});

test.run();
