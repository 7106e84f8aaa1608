/**
 * The one spelling of a request path that rules are matched against.
 *
 * - The query and fragment are dropped (cut before decoding, so an encoded `%3F` stays part of the path).
 * - Percent-escapes are decoded exactly once. `%2F` decodes to `/` and then separates segments: a rule written for
 *   `/api/x` must also see `/api%2Fx`, because some upstreams decode it, and a spelling that slips past a rule
 *   slips past its redactions. A double-encoded `%252e` becomes the literal `%2e` and stays that way.
 *   Escapes that are not valid (`%zz`, a lone `%`) and bytes that do not form UTF-8 are kept literally.
 * - Repeated slashes collapse, `.` segments vanish, `..` removes the previous segment (never above the root).
 * - A trailing slash is dropped (`/api/x/` is `/api/x`): upstreams commonly route them alike.
 * - An absolute-form target (`http://host/p`) loses its scheme and authority; a path always starts with `/`.
 * Paths stay case-sensitive.
 */
export function normalizePath(target: string): string {
  let path = target;
  if (path.charCodeAt(0) !== 47 /* / */) path = stripAuthority(path);
  const cut = queryStart(path);
  if (cut !== -1) path = path.slice(0, cut);
  if (isAlreadyNormal(path)) return path;
  return resolveSegments(decodeOnce(path));
}

function queryStart(path: string): number {
  const q = path.indexOf('?');
  const h = path.indexOf('#');
  if (q === -1) return h;
  if (h === -1) return q;
  return Math.min(q, h);
}

function stripAuthority(target: string): string {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  const rest = m ? target.slice(m[0].length) : target;
  return rest.charCodeAt(0) === 47 ? rest : `/${rest}`;
}

// The common case (a plain path) costs one scan and no allocation.
function isAlreadyNormal(path: string): boolean {
  const n = path.length;
  if (n > 1 && path.charCodeAt(n - 1) === 47) return false;
  for (let i = 0; i < n; i++) {
    const c = path.charCodeAt(i);
    if (c === 37 /* % */) return false;
    if (c === 47 && i + 1 < n) {
      const next = path.charCodeAt(i + 1);
      if (next === 47 || next === 46 /* . */) return false;
    }
  }
  return true;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

function decodeOnce(path: string): string {
  if (!path.includes('%')) return path;
  return path.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    try {
      return fatalUtf8.decode(bytes);
    } catch {
      // Not UTF-8 as a whole: decode the ASCII escapes (these are what spell `/`, `.` and letters) and keep the
      // others literally, so the result is still one deterministic spelling.
      let out = '';
      for (let i = 0; i < bytes.length; i++) out += bytes[i] < 0x80 ? String.fromCharCode(bytes[i]) : run.slice(i * 3, i * 3 + 3);
      return out;
    }
  });
}

function resolveSegments(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}
