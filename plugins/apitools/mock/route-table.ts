// Which path template a request path belongs to: `/users/me` before `/users/{id}` (more literal text wins), and a
// server's base path (`servers[0].url: https://api.example.com/v2`) accepted in front or left out, as Prism does.

export interface PathTemplate {
  template: string;
  /** Names of the `{params}`, in order. */
  params: string[];
  regex: RegExp;
  /** Literal characters: the more, the more specific. */
  literal: number;
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compileTemplate(template: string): PathTemplate {
  const params: string[] = [];
  let source = '';
  let literal = 0;
  for (const piece of template.split(/(\{[^}/]+\})/)) {
    const m = /^\{([^}/]+)\}$/.exec(piece);
    if (m) { params.push(m[1]); source += '([^/]+)'; } else { source += escapeRegex(piece); literal += piece.length; }
  }
  return { template, params, regex: new RegExp(`^${source}/?$`), literal };
}

/** `/users/{id}/orders` → `/users/{}/orders`: templates that differ only in parameter names are one shape. */
export const templateShape = (template: string): string => template.replace(/\{[^}/]+\}/g, '{}');

export class RouteTable<T extends { path: PathTemplate }> {
  private readonly routes: T[];

  constructor(routes: T[], private readonly basePath: string) {
    this.routes = [...routes].sort((a, b) => b.path.literal - a.path.literal || a.path.params.length - b.path.params.length);
  }

  /**
   * The routes whose template matches `pathname` (most specific first), with their parameters decoded and the path
   * they matched (without the base path).
   */
  *match(pathname: string): Generator<{ route: T; params: Record<string, string>; path: string }> {
    const candidates = [pathname];
    if (this.basePath && (pathname === this.basePath || pathname.startsWith(`${this.basePath}/`))) {
      candidates.unshift(pathname.slice(this.basePath.length) || '/');
    }
    for (const path of candidates) {
      for (const route of this.routes) {
        const m = route.path.regex.exec(path);
        if (!m) continue;
        const params: Record<string, string> = {};
        try {
          route.path.params.forEach((name, i) => { params[name] = decodeURIComponent(m[i + 1]); });
        } catch {
          continue; // a malformed %-escape matches no parameter
        }
        yield { route, params, path };
      }
    }
  }
}

/** The path part of the first server's URL (`/v2`), or '' when there is none. */
export function serverBasePath(servers: { url: string }[] | undefined): string {
  const url = servers?.[0]?.url;
  if (typeof url !== 'string') return '';
  try {
    const path = new URL(url.replace(/\{[^}]+\}/g, 'x'), 'http://mock.invalid').pathname.replace(/\/+$/, '');
    return path === '/' ? '' : path;
  } catch {
    return '';
  }
}
