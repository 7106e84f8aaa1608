import { ConfigValueError, listenHost, parseByteSize, parseDuration, parseListenAddress, type JsonSchema } from '@vigil/plugin-sdk';
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
  /** Longest a request waits for a free upstream connection before it is answered 503. */
  queue_timeout?: string | number;
  /** Bytes of a request body read before an upstream connection is taken (all of a body that fits). 0: stream at once. */
  request_buffer?: string | number;
  /** Bytes all request buffers together may hold; a request that would pass it is answered 503. */
  request_buffer_memory?: string | number;
  /** Longest a client may take to deliver the buffered part of its body. */
  request_buffer_timeout?: string | number;
  /** Window over which a request body must keep arriving (any byte at all, and `client_min_rate`). */
  client_body_timeout?: string | number;
  /** Window over which a client must keep reading the response while the upstream connection waits on it. */
  send_timeout?: string | number;
  /** Bytes per second a client must average, sending its body or reading the response, over each window. */
  client_min_rate?: string | number;
}

const duration = (fallback: string, description: string): JsonSchema => ({
  type: ['string', 'integer'], format: 'duration', minimum: 0, default: fallback, description,
});
const byteSize = (fallback: string, description: string): JsonSchema => ({
  type: ['string', 'integer'], format: 'byte-size', minimum: 0, default: fallback, description,
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
    queue_timeout: duration('5s', 'Longest a request waits for a free upstream connection (max_connections in use) before it is answered 503; 0 disables.'),
    request_buffer: byteSize('64kb', 'Bytes of a request body read before an upstream connection is taken: a body that fits is sent whole; a larger one is streamed once this much has arrived. 0 streams every body at once.'),
    request_buffer_memory: byteSize('64mb', 'Bytes all request buffers together may hold; a request that would need more is answered 503.'),
    request_buffer_timeout: duration('30s', 'Longest a client may take to deliver the buffered part of its body (all of it when it fits request_buffer); 408 beyond; 0 disables.'),
    client_body_timeout: duration('10s', 'Window over which a request body must keep arriving, buffered or streamed: no byte at all, or fewer than client_min_rate on average, and the request is cut with 408; 0 disables.'),
    send_timeout: duration('10s', 'Window over which a client must keep reading the response while the upstream connection waits on it: nothing read, or less than client_min_rate on average, and the connection is cut (the upstream request aborted); 0 disables.'),
    client_min_rate: byteSize('1kb', 'Bytes per second a client must average over each client_body_timeout window (sending its body) and each send_timeout window (reading the response); 0 leaves only the idle bound.'),
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
  /** 0: no bound. */
  queueTimeoutMs: number;
  /** Bytes; 0: bodies are streamed at once. */
  requestBuffer: number;
  requestBufferMemory: number;
  /** 0: no bound. */
  requestBufferTimeoutMs: number;
  /** 0: no bound on a slow body. */
  clientBodyTimeoutMs: number;
  /** 0: no bound on a slow reader. */
  sendTimeoutMs: number;
  /** Bytes per second. */
  clientMinRate: number;
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
    queueTimeoutMs: parseDuration(service.queue_timeout ?? '5s'),
    requestBuffer: parseByteSize(service.request_buffer ?? '64kb'),
    requestBufferMemory: parseByteSize(service.request_buffer_memory ?? '64mb'),
    requestBufferTimeoutMs: parseDuration(service.request_buffer_timeout ?? '30s'),
    clientBodyTimeoutMs: parseDuration(service.client_body_timeout ?? '10s'),
    sendTimeoutMs: parseDuration(service.send_timeout ?? '10s'),
    clientMinRate: parseByteSize(service.client_min_rate ?? '1kb'),
  };
}

/** What the schema cannot check: keys that must agree with each other. Throws a ConfigValueError naming the key. */
export function checkServiceBounds(service: ProxyServiceConfig): void {
  const o = resolveProxyOptions(service);
  if (o.requestBuffer > o.requestBufferMemory) {
    throw new ConfigValueError('request_buffer',
      `${o.requestBuffer} bytes is more than service.request_buffer_memory (${o.requestBufferMemory} bytes), so no body could be buffered whole; lower request_buffer or raise request_buffer_memory`);
  }
}
