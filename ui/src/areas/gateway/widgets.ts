import type { WidgetDefinition } from '../types.js';

/** The gateway's tiles on the home grid. */
export const gatewayWidgets: WidgetDefinition[] = [
  {
    id: 'gateway-requests',
    path: '/gateway',
    title: 'Gateway requests',
    description: 'Requests through the gateway in the last hour, per minute.',
    keywords: ['traffic', 'volume', 'proxy', 'api'],
    size: { w: 1, h: 1 },
    default: true,
    load: () => import('./widgets/requests-widget.js'),
  },
  {
    id: 'gateway-errors',
    path: '/gateway/requests?status=5xx',
    title: 'Gateway error rate',
    description: 'Share of requests in the last hour that failed (5xx or no answer).',
    keywords: ['errors', 'failures', '5xx', 'proxy'],
    size: { w: 1, h: 1 },
    default: true,
    load: () => import('./widgets/error-rate-widget.js'),
  },
];
