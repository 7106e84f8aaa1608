import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reachableUrl } from '../../../../../ui/src/areas/gateway/gateway-api.js';

test('a gateway listening on every interface is reached by this host\'s name', () => {
  assert.is(reachableUrl('http://0.0.0.0:8080', 'vigil.lan'), 'http://vigil.lan:8080');
  assert.is(reachableUrl('http://[::]:8080', '127.0.0.1'), 'http://127.0.0.1:8080');
  assert.is(reachableUrl('http://[::]:8080', '::1'), 'http://[::1]:8080');
  assert.is(reachableUrl('http://[::]:8080', '[::1]'), 'http://[::1]:8080', 'as location.hostname gives it');
  assert.is(reachableUrl('http://127.0.0.1:8080', 'vigil.lan'), 'http://127.0.0.1:8080');
});

test.run();
