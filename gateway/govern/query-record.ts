import { REDACTED } from '../../policies/compile-json-path.js';
import { appendValue } from './header-record.js';

export function decodeComponent(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced; // a malformed escape is kept as written
  }
}

/**
 * The query of a request-target as a record (names and values percent-decoded, `+` as space, a repeated name
 * becomes an array). Every value of a parameter whose decoded name is in `redact` (lower-case, so `Token`,
 * `TOKEN` and `%74oken` all match `token`) is replaced by the marker.
 */
export function queryToRecord(target: string, redact: ReadonlySet<string>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const q = target.indexOf('?');
  if (q === -1) return out;
  const hash = target.indexOf('#', q);
  const query = target.slice(q + 1, hash === -1 ? undefined : hash);
  if (query === '') return out;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const redacted = redact.size !== 0 && redact.has(name.toLowerCase());
    appendValue(out, name, redacted ? REDACTED : eq === -1 ? '' : decodeComponent(pair.slice(eq + 1)));
  }
  return out;
}
