import type { Area } from '../types.js';
import { gatewayWidgets } from './widgets.js';

/** A governed record's id: a UUIDv7 (plugins/capture). */
const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The API governance gateway: proxy, governance and capture. Its pages read `/api/gateway/*` (plugins/capture). */
export const gateway: Area = {
  id: 'gateway',
  title: 'Gateway',
  icon: 'gateway',
  description:
    'A reverse proxy in front of your HTTP API. A YAML policy decides what of the traffic is captured, masked, ' +
    'labelled, metered and exported; live traffic is never modified.',
  requires: ['capture'],
  status: 'available',
  enableSnippet: [
    'service: { upstream: http://127.0.0.1:3000 }   # the API behind the gateway; it listens on :8080',
    'rules:',
    '  - { name: all-traffic, match: { path: /** } }',
  ].join('\n'),
  pages: [
    {
      path: '/gateway',
      title: 'Overview',
      icon: 'overview',
      shortcut: 'g o',
      keywords: ['traffic', 'volume', 'errors', 'error rate', 'latency', 'p95', 'p99', 'top routes', 'tokens', 'dashboard'],
      load: () => import('./overview-page.js'),
    },
    {
      path: '/gateway/requests',
      title: 'Requests',
      icon: 'requests',
      shortcut: 'g r',
      keywords: ['inspector', 'records', 'log', 'traffic', 'redacted', 'bodies', 'headers'],
      load: () => import('./requests-page.js'),
    },
    {
      path: '/gateway/requests/:id',
      title: 'Request',
      nav: false,
      load: () => import('./request-page.js'),
    },
    {
      path: '/gateway/usage',
      title: 'Usage and cost',
      icon: 'usage',
      shortcut: 'g u',
      keywords: ['billing', 'tenants', 'tokens', 'cost', 'meter', 'csv', 'export', 'invoice'],
      load: () => import('./usage-page.js'),
    },
    {
      path: '/gateway/policy',
      title: 'Policy',
      icon: 'policy',
      shortcut: 'g p',
      developer: true,
      keywords: ['rules', 'redaction', 'restrict', 'labels', 'sampling', 'governance'],
      load: () => import('./policy-page.js'),
    },
    {
      path: '/gateway/api',
      title: 'API',
      icon: 'api',
      shortcut: 'g a',
      developer: true,
      keywords: ['openapi', 'endpoints', 'routes', 'curl', 'rest'],
      load: () => import('./api-page.js'),
    },
  ],
  commands: [
    {
      id: 'gateway.billing-csv',
      title: 'Download the billing export (CSV, last 7 days)',
      icon: 'usage',
      keywords: ['usage', 'cost', 'tenants', 'invoice', 'spreadsheet'],
      run: (ctx) => ctx.download('/api/gateway/usage.csv?range=7d'),
    },
    {
      id: 'gateway.errors',
      title: 'Show failed requests (5xx)',
      icon: 'alert',
      keywords: ['errors', '500', 'failures', 'inspector'],
      run: (ctx) => ctx.navigate('/gateway/requests?status=5xx'),
    },
  ],
  searchRecords: {
    matches: (query) => RECORD_ID.test(query.trim()),
    find: async (query, signal) => (await import('./record-search.js')).findRecord(query.trim(), signal),
  },
  names: { load: async (signal) => (await import('./name-search.js')).gatewayNames(signal) },
  widgets: gatewayWidgets,
};
