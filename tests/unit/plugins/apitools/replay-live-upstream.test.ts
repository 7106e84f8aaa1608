import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { liveServiceMatch } from '../../../../plugins/apitools/replay/live-upstream.js';

const service = { upstream: 'http://127.0.0.1:3000', listen: '127.0.0.1:8080' };

test('the upstream, however its host is spelled, and the gateway itself are the live service', async () => {
  for (const target of ['http://127.0.0.1:3000', 'http://localhost:3000/', 'http://[::1]:3000/x', 'http://127.0.0.2:3000', 'http://0.0.0.0:3000']) {
    assert.match((await liveServiceMatch(new URL(target), service))!, /service\.upstream/, target);
  }
  assert.match((await liveServiceMatch(new URL('http://localhost:8080'), service))!, /the gateway itself/);
  assert.match((await liveServiceMatch(new URL('http://api.example:80'), { upstream: 'http://api.example' }))!, /service\.upstream/);
  assert.match((await liveServiceMatch(new URL('https://localhost'), { upstream: 'https://127.0.0.1:443/base' }))!, /service\.upstream/);
});

test('another port, or another host, is not', async () => {
  assert.is(await liveServiceMatch(new URL('http://127.0.0.1:3001'), service), null);
  assert.is(await liveServiceMatch(new URL('http://staging.invalid:3000'), service), null);
  assert.is(await liveServiceMatch(new URL('http://127.0.0.1:3000'), undefined), null);
});

test('a gateway on every interface matches any local address on its port', async () => {
  for (const listen of [':8080', '0.0.0.0:8080', '8080']) {
    assert.match((await liveServiceMatch(new URL('http://127.0.0.1:8080'), { listen }))!, /the gateway itself/, listen);
  }
  assert.is(await liveServiceMatch(new URL('http://127.0.0.1:8081'), { listen: ':8080' }), null);
});

test.run();
