// `{{name}}` placeholders, as Postman, Insomnia (after import) and Bruno write them. Filled in on the server at send
// time, so a secret variable's value never travels to the browser; the masked fill gives what may be logged.
import type { ApiRequest, KeyValue } from './types.js';

const PLACEHOLDER = /\{\{\s*([A-Za-z_$][\w$.-]{0,127})\s*\}\}/g;

/** Values by name, and which names are secret (their values are masked wherever the request is shown or logged). */
export interface Scope { values: Map<string, string>; secret: Set<string> }

export const emptyScope = (): Scope => ({ values: new Map(), secret: new Set() });

/** The names a text refers to. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]);
}

/**
 * `text` with each placeholder the scope knows filled in; unknown ones stay as written and are added to `missing`.
 * `mask` puts `***` for secret values (for the audit log and error messages).
 */
export function fill(text: string, scope: Scope, missing: Set<string>, mask = false): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = scope.values.get(name);
    if (value === undefined) {
      missing.add(name);
      return whole;
    }
    return mask && scope.secret.has(name) ? '***' : value;
  });
}

const fillPairs = (pairs: KeyValue[], scope: Scope, missing: Set<string>, mask: boolean): KeyValue[] =>
  pairs.filter((p) => p.enabled !== false).map((p) => ({ name: fill(p.name, scope, missing, mask), value: fill(p.value, scope, missing, mask) }));

/** The request with every placeholder filled (or masked), disabled headers dropped. */
export function fillRequest(r: ApiRequest, scope: Scope, mask = false): { request: ApiRequest; missing: string[] } {
  const missing = new Set<string>();
  const request: ApiRequest = {
    ...r,
    url: fill(r.url, scope, missing, mask),
    headers: fillPairs(r.headers, scope, missing, mask),
    body: fill(r.body, scope, missing, mask),
    auth: {
      type: r.auth.type,
      ...(r.auth.token !== undefined ? { token: fill(r.auth.token, scope, missing, mask) } : {}),
      ...(r.auth.username !== undefined ? { username: fill(r.auth.username, scope, missing, mask) } : {}),
      ...(r.auth.password !== undefined ? { password: fill(r.auth.password, scope, missing, mask) } : {}),
    },
  };
  return { request, missing: [...missing] };
}

/** Query parameters whose values are credentials by their name: masked in what is logged. */
const SECRET_PARAM = /(token|key|secret|password|passwd|pwd|signature|sig|auth|session|code)$/i;

/** The URL as it may be logged: no user:password, credential-like query values masked. */
export function loggableUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    for (const [name] of [...u.searchParams]) if (SECRET_PARAM.test(name)) u.searchParams.set(name, '***');
    return u.toString().replace(/%2A%2A%2A/g, '***');
  } catch {
    return url.replace(/\/\/[^/@\s]*@/, '//***@');
  }
}

/** The headers a request is sent with after auth: `Authorization` from bearer or basic unless one is written. */
export function headersWithAuth(r: ApiRequest): KeyValue[] {
  const headers = r.headers.filter((h) => h.enabled !== false);
  const has = (name: string) => headers.some((h) => h.name.toLowerCase() === name);
  if (has('authorization')) return headers;
  if (r.auth.type === 'bearer' && r.auth.token) return [...headers, { name: 'Authorization', value: `Bearer ${r.auth.token}` }];
  if (r.auth.type === 'basic' && (r.auth.username || r.auth.password)) {
    return [...headers, { name: 'Authorization', value: `Basic ${Buffer.from(`${r.auth.username ?? ''}:${r.auth.password ?? ''}`).toString('base64')}` }];
  }
  return headers;
}
