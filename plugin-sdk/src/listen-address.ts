/**
 * Where a server listens: `host` is absent when only a port was given (the server applies its own default host),
 * and '' for `:9095`, which means every interface.
 */
export interface ListenAddress {
  host?: string;
  port: number;
}

const hostPort = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9._-]*)):([0-9]{1,5})$/;

/** Parses `127.0.0.1:9095`, `[::1]:9095`, `localhost:0`, `:9095`, `9095` or the number 9095; undefined when malformed. */
export function tryParseListenAddress(value: unknown): ListenAddress | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value <= 65535 ? { port: value } : undefined;
  if (typeof value !== 'string') return undefined;
  if (/^[0-9]{1,5}$/.test(value)) return tryParseListenAddress(Number(value));
  const match = hostPort.exec(value);
  if (!match) return undefined;
  const port = Number(match[3]);
  if (port > 65535) return undefined;
  return { host: match[1] ?? match[2], port };
}

/** Like tryParseListenAddress, but throws a RangeError naming the expected forms. Port 0 means "any free port". */
export function parseListenAddress(value: unknown): ListenAddress {
  const address = tryParseListenAddress(value);
  if (!address) throw new RangeError(`invalid listen address ${JSON.stringify(value)}: expected host:port (e.g. 127.0.0.1:9095), :port or a port number`);
  return address;
}

/** The host to hand `server.listen`: the server's default for a bare port, undefined (every interface) for `:port`. */
export function listenHost(address: ListenAddress, defaultHost: string | undefined): string | undefined {
  if (address.host === undefined) return defaultHost;
  return address.host === '' ? undefined : address.host;
}
