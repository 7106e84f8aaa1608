// The URL is the page's state: the path picks the page, the query holds its view (range, filters). Pure functions,
// so the router and the pages agree on one reading of it.

/** `/a/b/` → `/a/b`; `/` stays. */
export function normalizePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') || '/' : path;
}

/**
 * The parameters of `path` under `pattern` (`/gateway/requests/:id`), decoded, or null when it does not match.
 * Segments compare exactly; a trailing slash is ignored.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = normalizePath(pattern).split('/');
  const have = normalizePath(path).split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) {
      if (have[i] === '') return null;
      try {
        params[want[i].slice(1)] = decodeURIComponent(have[i]);
      } catch {
        return null;
      }
    } else if (want[i] !== have[i]) {
      return null;
    }
  }
  return params;
}

/** A query parameter that must be one of `allowed`; anything else (absent, misspelt, repeated) reads as `fallback`. */
export function readChoice<T extends string>(search: string, name: string, allowed: readonly T[], fallback: T): T {
  const values = new URLSearchParams(search).getAll(name);
  return values.length === 1 && (allowed as readonly string[]).includes(values[0]) ? (values[0] as T) : fallback;
}

/** A free-text query parameter, or `fallback`. */
export function readText(search: string, name: string, fallback = ''): string {
  return new URLSearchParams(search).get(name) ?? fallback;
}

/**
 * `search` with `updates` applied: a null, undefined or empty value, or one equal to its default, removes the
 * parameter, so a URL names only what differs from the default view. Keeps the other parameters in their order.
 * Returns `''` or `?…`.
 */
export function withParams(search: string, updates: Record<string, string | null | undefined>, defaults: Record<string, string> = {}): string {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(updates)) {
    if (value === null || value === undefined || value === '' || defaults[name] === value) params.delete(name);
    else params.set(name, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Splits `to` (`/path?query#hash`) into path and search. */
export function splitHref(to: string): { path: string; search: string } {
  const noHash = to.split('#')[0];
  const q = noHash.indexOf('?');
  return q === -1 ? { path: noHash || '/', search: '' } : { path: noHash.slice(0, q) || '/', search: noHash.slice(q) === '?' ? '' : noHash.slice(q) };
}
