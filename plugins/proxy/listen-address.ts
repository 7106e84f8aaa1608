/** Where the proxy listens. `host` undefined means every interface (Node's default). */
export interface ListenAddress {
  host: string | undefined;
  port: number;
}

/** `8080`, `"8080"`, `"127.0.0.1:8080"`, `"[::1]:8080"`: the forms `service.listen` accepts. */
export function parseListenAddress(value: string | number): ListenAddress {
  if (typeof value === 'number') return { host: undefined, port: value };
  const text = value.trim();
  const colon = text.lastIndexOf(':');
  if (colon === -1) return { host: undefined, port: Number(text) };
  let host = text.slice(0, colon);
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return { host: host === '' ? undefined : host, port: Number(text.slice(colon + 1)) };
}
