import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { errorFromResponse, networkError } from '../../../../ui/src/data/api-error.js';
import { loginUrl } from '../../../../ui/src/data/api.js';

test('errors say what happened and what to do, using the server\'s message when it sent one', () => {
  const e = errorFromResponse(400, { error: { code: 'VIGIL_ERR_GATEWAY_RANGE', message: 'range must be one of 1h, 24h, 7d; got "2h"' } }, 'the overview');
  assert.is(e.kind, 'bad_request');
  assert.is(e.code, 'VIGIL_ERR_GATEWAY_RANGE');
  assert.match(e.message, /range must be one of/);
  assert.ok(e.next.length > 0);
  const s = errorFromResponse(500, { error: { code: 'VIGIL_ERR_HTTP_INTERNAL', message: 'internal error (request 1a2b); the server log has the details' } }, 'the overview');
  assert.is(s.kind, 'server');
  assert.match(s.message, /request 1a2b/);
  const bare = errorFromResponse(502, 'not json', 'the overview');
  assert.match(bare.message, /the overview.*HTTP 502/);
  assert.is(errorFromResponse(401, undefined, 'x').kind, 'unauthorized');
  assert.is(errorFromResponse(403, undefined, 'x').kind, 'forbidden');
  assert.is(errorFromResponse(404, undefined, 'x').kind, 'not_found');
  assert.is(errorFromResponse(429, undefined, 'x').kind, 'locked_out');
  const n = networkError('the overview');
  assert.is(n.status, 0);
  assert.match(n.next, /vigil/);
});

test('the login URL brings the person back to the page, query included, and never leaves this server', () => {
  assert.is(loginUrl({ pathname: '/gateway', search: '?range=1h' }), '/login?next=%2Fgateway%3Frange%3D1h');
  assert.is(loginUrl({ pathname: '/', search: '' }), '/login?next=%2F');
});

test.run();
