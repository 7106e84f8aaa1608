import { normalizePath } from './normalize-path.js';
import { PolicyError, PolicyErrorCode } from './errors.js';

/** A compiled `match.path` glob. `test` takes a path already passed through `normalizePath`. */
export interface PathMatcher {
  readonly glob: string;
  readonly regex: RegExp;
  test(normalizedPath: string): boolean;
}

/**
 * Compiles a path glob. `*` matches within one segment (`/v*` or `/files/*.json`), a whole `**` segment matches
 * zero or more segments (`/api/**` matches `/api`, `/api/a` and `/api/a/b`), everything else is literal and
 * case-sensitive. The glob is normalised like a request path, so `/api//x/` and `/%61pi/x` mean `/api/x`.
 */
export function compileGlob(glob: string, where = 'match.path'): PathMatcher {
  if (typeof glob !== 'string' || glob.charCodeAt(0) !== 47) {
    throw new PolicyError(PolicyErrorCode.badGlob, where, `${JSON.stringify(glob)} must start with "/"`);
  }
  if (/[?#]/.test(glob)) {
    throw new PolicyError(PolicyErrorCode.badGlob, where,
      `${JSON.stringify(glob)} contains "?" or "#": paths are matched without their query, so remove that part ` +
      '(use redact.query_params for query parameters)');
  }
  const segments = normalizePath(glob).split('/').slice(1).filter((s) => s !== '');
  let source = '^';
  for (const segment of segments) {
    if (segment === '**') { source += '(?:/[^/]+)*'; continue; }
    if (segment.includes('**')) {
      throw new PolicyError(PolicyErrorCode.badGlob, where,
        `${JSON.stringify(glob)}: "**" must be a whole segment (write "/a/**/b", or "*" to match within a segment)`);
    }
    source += segment === '*' ? '/[^/]+' : `/${segment.split('*').map(escapeRegex).join('[^/]*')}`;
  }
  source += '$';
  const regex = new RegExp(source);
  // The root path is "no segments": test it as the empty string so `/**` and `/` both match it.
  return { glob, regex, test: (path) => regex.test(path === '/' ? '' : path) };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
