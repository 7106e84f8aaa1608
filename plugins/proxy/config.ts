import { listenHost, parseDuration, parseListenAddress, type JsonSchema } from '@vigil/plugin-sdk';
import { DEFAULT_LISTEN, serviceSchema } from '../../policies/schema.js';

/** `service.listen` as the proxy binds it: every interface unless a host is named. */
function listenAt(value: string | number): { host: string | undefined; port: number } {
  const address = parseListenAddress(value);
  return { host: listenHost(address, undefined), port: address.port };
}

/** The `service` section as the proxy reads it: the policy language's keys plus the traffic lane's own. */
export interface ProxyServiceConfig {
  upstream: string;
  listen?: string | number;
  /** Longest wait for the upstream's response headers, and longest silence between body chunks. 0 disables. */
  timeout?: string | number;
  connect_timeout?: string | number;
  /** Connections kept to the upstream; requests beyond them wait in the pool's queue. */
  max_connections?: number;
  /** Forward the client's Host header (true) or send the upstream's host (false). */
  preserve_host?: boolean;
  /** On stop, how long requests in flight may take to finish before their connections are closed. */
  drain_timeout?: string | number;
}

const duration = (fallback: string, description: string): JsonSchema => ({
  type: ['string', 'integer'], format: 'duration', minimum: 0, default: fallback, description,
});

/** `serviceSchema` from the policy language, extended with the traffic lane's keys (defaults filled by the validator). */
export const proxyServiceSchema: JsonSchema = {
  ...serviceSchema,
  properties: {
    ...(serviceSchema.properties as Record<string, JsonSchema>),
    timeout: duration('30s', 'Longest wait for the upstream\'s response headers, and between body chunks; 0 disables.'),
    connect_timeout: duration('10s', 'Longest wait for a connection to the upstream.'),
    max_connections: { type: 'integer', minimum: 1, default: 128, description: 'Connections kept to the upstream.' },
    preserve_host: { type: 'boolean', default: true, description: 'Forward the client\'s Host header unchanged.' },
    drain_timeout: duration('10s', 'On stop, how long requests in flight may take to finish.'),
  },
};

/** The traffic lane's settings, converted to the units the code uses. */
export interface ProxyOptions {
  /** Scheme, host and port only: what the connection pool dials. */
  origin: string;
  /** The upstream URL's path without a trailing slash ('' for none), prepended to every request-target. */
  basePath: string;
  /** Host name for TLS SNI when the upstream is https (the Host header may name the gateway instead). */
  servername: string | undefined;
  /** `host` undefined: every interface (a gateway is meant to be reached). */
  listen: { host: string | undefined; port: number };
  timeoutMs: number;
  connectTimeoutMs: number;
  maxConnections: number;
  preserveHost: boolean;
  drainTimeoutMs: number;
}

const isIpLiteral = (host: string) => /^[0-9.]+$/.test(host) || host.startsWith('[');

/** Reads a validated config (defaults already filled in by the config validator; applied here too for direct callers). */
export function resolveProxyOptions(service: ProxyServiceConfig): ProxyOptions {
  const url = new URL(service.upstream);
  const basePath = url.pathname.replace(/\/+$/, '');
  return {
    origin: url.origin,
    basePath,
    servername: url.protocol === 'https:' && !isIpLiteral(url.hostname) ? url.hostname : undefined,
    listen: listenAt(service.listen ?? DEFAULT_LISTEN),
    timeoutMs: parseDuration(service.timeout ?? '30s'),
    connectTimeoutMs: parseDuration(service.connect_timeout ?? '10s'),
    maxConnections: service.max_connections ?? 128,
    preserveHost: service.preserve_host ?? true,
    drainTimeoutMs: parseDuration(service.drain_timeout ?? '10s'),
  };
}
