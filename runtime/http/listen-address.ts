import { isIP } from 'node:net';
import { controlPlaneError, HttpErrorCode } from './errors.js';

export interface ListenAddress {
  /** Undefined means every interface. */
  host: string | undefined;
  port: number;
}

function parsePort(text: string, listen: unknown): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw controlPlaneError(HttpErrorCode.LISTEN,
      `control_plane.listen: ${JSON.stringify(listen)} has no valid port (0-65535); write "127.0.0.1:9095", ":9095" or 9095`);
  }
  return port;
}

/**
 * `'127.0.0.1:9095'`, `'[::1]:9095'`, `'localhost:9095'`, `':9095'` (every interface) or `9095`. A bare port binds
 * to 127.0.0.1: the dashboard is reachable from elsewhere only when the config says so with a host.
 */
export function parseListen(listen: string | number): ListenAddress {
  if (typeof listen === 'number') return { host: '127.0.0.1', port: parsePort(String(listen), listen) };
  if (typeof listen !== 'string') {
    throw controlPlaneError(HttpErrorCode.LISTEN, `control_plane.listen must be "host:port" or a port number, got ${typeof listen}`);
  }
  const text = listen.trim();
  if (/^\d+$/.test(text)) return { host: '127.0.0.1', port: parsePort(text, listen) };
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(text);
  if (bracketed) {
    if (isIP(bracketed[1]) !== 6) throw controlPlaneError(HttpErrorCode.LISTEN, `control_plane.listen: ${bracketed[1]} is not an IPv6 address`);
    return { host: bracketed[1], port: parsePort(bracketed[2], listen) };
  }
  const colon = text.lastIndexOf(':');
  if (colon < 0) {
    throw controlPlaneError(HttpErrorCode.LISTEN, `control_plane.listen: ${JSON.stringify(listen)} has no port; write "${text}:9095"`);
  }
  const host = text.slice(0, colon);
  if (host.includes(':')) {
    throw controlPlaneError(HttpErrorCode.LISTEN, `control_plane.listen: put IPv6 addresses in brackets, e.g. "[${host}]:9095"`);
  }
  if (host !== '' && !/^[A-Za-z0-9.-]+$/.test(host)) {
    throw controlPlaneError(HttpErrorCode.LISTEN, `control_plane.listen: ${JSON.stringify(host)} is not a host name or address`);
  }
  return { host: host === '' ? undefined : host, port: parsePort(text.slice(colon + 1), listen) };
}

/** The base URL clients on this machine use: wildcard binds are reached through the loopback address. */
export function baseUrl(protocol: 'http' | 'https', host: string | undefined, port: number): string {
  let shown = host === undefined || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  if (isIP(shown) === 6) shown = `[${shown}]`;
  return `${protocol}://${shown}:${port}`;
}
