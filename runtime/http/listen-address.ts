import { isIP } from 'node:net';
import { listenHost, tryParseListenAddress } from '@vigil/plugin-sdk';
import { controlPlaneError, HttpErrors } from './errors.js';

/**
 * `control_plane.listen` as the control plane binds it: a bare port binds 127.0.0.1 (the dashboard is reachable
 * from elsewhere only when the config names a host), `:9095` every interface.
 */
export function parseListen(listen: string | number): { host: string | undefined; port: number } {
  const address = tryParseListenAddress(listen);
  if (!address) {
    throw controlPlaneError(HttpErrors.LISTEN,
      `control_plane.listen: ${JSON.stringify(listen)} is not a listen address; write "127.0.0.1:9095", "[::1]:9095", ":9095" or 9095`);
  }
  return { host: listenHost(address, '127.0.0.1'), port: address.port };
}

/** The base URL clients on this machine use: wildcard binds are reached through the loopback address. */
export function baseUrl(protocol: 'http' | 'https', host: string | undefined, port: number): string {
  let shown = host === undefined || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  if (isIP(shown) === 6) shown = `[${shown}]`;
  return `${protocol}://${shown}:${port}`;
}
