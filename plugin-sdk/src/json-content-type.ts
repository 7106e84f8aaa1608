/**
 * Whether a Content-Type names JSON: `application/json` or any `+json` type, in UTF-8 (the only charset JSON allows
 * on the wire). For every route that reads a JSON body, the control plane's own and a plugin's raw ones alike.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(';').map((s) => s.trim().toLowerCase());
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) return false;
  const charset = params.find((p) => p.startsWith('charset='));
  return !charset || /^charset="?utf-8"?$/.test(charset);
}
