import { closedObject, type HttpRoutes } from '@vigil/plugin-sdk';

/** `GET /api/gateway/proxy`: where the gateway listens and what it forwards to (the dashboard's first-run hint). */
export function registerStatusRoute(http: HttpRoutes, lane: { readonly url: string }, upstream: string): void {
  // A user name or password in service.upstream stays in the config file.
  const shown = new URL(upstream);
  shown.username = '';
  shown.password = '';
  http.route({
    method: 'GET', path: '/api/gateway/proxy', tags: ['gateway'],
    summary: 'Where the gateway listens (service.listen) and the upstream it forwards to',
    response: closedObject({
      url: { type: 'string', description: 'The listening address, e.g. http://0.0.0.0:8080; empty before the proxy listens.' },
      upstream: { type: 'string', description: 'service.upstream, without a user name or password.' },
    }, { title: 'ProxyStatus' }),
    handler: () => ({ url: lane.url, upstream: shown.href }),
  });
}
