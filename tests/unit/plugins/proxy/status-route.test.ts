import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { HttpRoutes, RouteDefinition } from '@vigil/plugin-sdk';
import { registerStatusRoute } from '../../../../plugins/proxy/status-route.js';

test('GET /api/gateway/proxy: where the gateway listens and its upstream, without the upstream\'s credentials', async () => {
  const routes: RouteDefinition[] = [];
  const http = { route: (d: RouteDefinition) => routes.push(d) } as unknown as HttpRoutes;
  const lane = { url: 'http://0.0.0.0:8080' };
  registerStatusRoute(http, lane, 'https://user:s3cret@api.example.com:8443/base');
  assert.is(routes[0].path, '/api/gateway/proxy');
  assert.is(routes[0].auth, undefined, 'the dashboard auth, the default');
  const body = await routes[0].handler({} as never) as { url: string; upstream: string };
  assert.equal(body, { url: 'http://0.0.0.0:8080', upstream: 'https://api.example.com:8443/base' });
  lane.url = 'http://127.0.0.1:9999';
  assert.is((await routes[0].handler({} as never) as { url: string }).url, 'http://127.0.0.1:9999', 'read when asked, not at setup');
});

test.run();
