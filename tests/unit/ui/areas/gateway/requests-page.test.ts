import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { recordsPath } from '../../../../../ui/src/areas/gateway/requests-page.js';
import { reachableUrl } from '../../../../../ui/src/areas/gateway/gateway-api.js';

test('the inspector\'s URL filters become the records API\'s query; unknown values fall back', () => {
  const q = (search: string) => Object.fromEntries(new URL(recordsPath(search), 'http://x').searchParams);
  assert.equal(q(''), { since: '24h', limit: '50' });
  assert.equal(q('?status=5xx&since=1h&route=%2Fapi%2F**&offset=100'), { status: '5xx', since: '1h', route: '/api/**', offset: '100', limit: '50' });
  assert.equal(q('?status=all&since=forever&offset=-5'), { since: '24h', limit: '50' });
  assert.equal(q('?offset=abc'), { since: '24h', limit: '50' });
});

test('a gateway listening on every interface is reached by this host\'s name', () => {
  assert.is(reachableUrl('http://0.0.0.0:8080', 'vigil.lan'), 'http://vigil.lan:8080');
  assert.is(reachableUrl('http://[::]:8080', '127.0.0.1'), 'http://127.0.0.1:8080');
  assert.is(reachableUrl('http://[::]:8080', '::1'), 'http://[::1]:8080');
  assert.is(reachableUrl('http://[::]:8080', '[::1]'), 'http://[::1]:8080', 'as location.hostname gives it');
  assert.is(reachableUrl('http://127.0.0.1:8080', 'vigil.lan'), 'http://127.0.0.1:8080');
});

test.run();
