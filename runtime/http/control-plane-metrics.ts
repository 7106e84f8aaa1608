import type { Counter, Gauge, Histogram } from '@vigil/plugin-sdk';
import type { MetricsRegistry } from '../metrics/index.js';

export interface ControlPlaneMetrics {
  requests: Counter;
  duration: Histogram;
  authFailures: Counter;
  lockouts: Counter;
  openWebsockets: Gauge;
  websocketUpgrades: Counter;
  lingeringCloses: Counter;
}

// Route labels are route patterns (bounded by the code), never raw paths; the cap is a guard, not a budget.
const ROUTE_CAP = 1000;

/** Registers (or finds, for a second control plane on one registry) the control plane's metrics. */
export function controlPlaneMetrics(registry: MetricsRegistry): ControlPlaneMetrics {
  const m = registry.core;
  return {
    requests: m.counter('vigil_control_plane_requests_total', {
      help: 'Control plane requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      maxValuesPerLabel: ROUTE_CAP,
    }),
    duration: m.histogram('vigil_control_plane_request_duration_seconds', {
      help: 'Time to handle a control plane request, in seconds.',
      labelNames: ['route', 'method'],
      maxValuesPerLabel: ROUTE_CAP,
    }),
    authFailures: m.counter('vigil_auth_failures_total', {
      help: 'Requests refused for wrong credentials, by auth scheme.',
      labelNames: ['scheme'],
    }),
    lockouts: m.counter('vigil_auth_lockouts_total', {
      help: 'Client addresses locked out after repeated authentication failures.',
    }),
    openWebsockets: m.gauge('vigil_control_plane_open_websockets', {
      help: 'Websocket connections open on the control plane, by path.',
      labelNames: ['route'],
      maxValuesPerLabel: ROUTE_CAP,
    }),
    websocketUpgrades: m.counter('vigil_control_plane_websocket_upgrades_total', {
      help: 'Websocket upgrade requests, by path and HTTP status (101 when upgraded).',
      labelNames: ['route', 'status'],
      maxValuesPerLabel: ROUTE_CAP,
    }),
    lingeringCloses: m.counter('vigil_control_plane_lingering_closes_total', {
      help: 'Connections read to their end after an answer given before the request body was read (a 413, a 401), by how '
        + 'that ended: drained, client_closed, time_limit or byte_limit.',
      labelNames: ['outcome'],
    }),
  };
}
