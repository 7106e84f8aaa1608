import { foldPath } from './fold-path.js';
import { PolicyError, PolicyErrors } from './errors.js';

/** A compiled `match.path` glob. `test` takes a folded path (a reading from `pathReadings`). */
export interface PathMatcher {
  readonly glob: string;
  readonly regex: RegExp;
  test(foldedPath: string): boolean;
}

/**
 * Compiles a path glob. `*` matches within one segment (`/v*` or `/files/*.json`), a whole `**` segment matches
 * zero or more segments (`/api/**` matches `/api`, `/api/a` and `/api/a/b`), everything else is literal. The glob
 * is folded like a request path (fold-path.ts), so `/API/Users/`, `/api//users` and `/%61pi/users` all mean
 * `/api/users`, and each matches every spelling that folds to it.
 */
export function compileGlob(glob: string, where = 'match.path'): PathMatcher {
  if (typeof glob !== 'string' || glob.charCodeAt(0) !== 47) {
    throw new PolicyError(PolicyErrors.GLOB, where, `${JSON.stringify(glob)} must start with "/"`);
  }
  if (/[?#]/.test(glob)) {
    throw new PolicyError(PolicyErrors.GLOB, where,
      `${JSON.stringify(glob)} contains "?" or "#": paths are matched without their query, so remove that part ` +
      '(use redact.query_params for query parameters)');
  }
  const folded = foldPath(glob);
  if (folded === null) {
    throw new PolicyError(PolicyErrors.GLOB, where,
      `${JSON.stringify(glob)} does not fold to one path: it is percent-encoded in more layers than the fold decodes, ` +
      'or too long to fold; write it decoded, and shorter');
  }
  const segments = folded.split('/').slice(1).filter((s) => s !== '');
  let source = '^';
  for (const segment of segments) {
    if (segment === '**') { source += '(?:/[^/]+)*'; continue; }
    if (segment.includes('**')) {
      throw new PolicyError(PolicyErrors.GLOB, where,
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
