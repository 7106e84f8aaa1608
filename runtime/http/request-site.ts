import type { IncomingHttpHeaders } from 'node:http';

/**
 * Where a request says it comes from, from the headers a page cannot forge (Sec-Fetch-Site, Origin, Referer):
 * - `same-origin`: a page of the control plane itself;
 * - `user`: the user typed the address or opened a bookmark (`Sec-Fetch-Site: none`);
 * - `cross-site`: a page on another origin could have sent it (another site, or a sibling on the same site such as
 *   another port of localhost), or says so by a Referer on another origin;
 * - `unmarked`: neither header; a script, or a browser too old to send fetch metadata (its no-cors GETs).
 * A non-browser client can send any of these; what each allows must therefore never be cheaper for a brute force.
 */
export type RequestSite = 'same-origin' | 'user' | 'cross-site' | 'unmarked';

/** An Origin header as browsers serialise it: scheme and authority, nothing else. */
const ORIGIN = /^https?:\/\/[^/?#\s,@\\]+$/i;

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Whether a safe method: one a cookie-authenticated request may use without a same-origin proof. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/** A top-level or frame navigation by GET: what a link does, and all that a cross-site page may do with our cookie. */
export function isNavigation(method: string, headers: IncomingHttpHeaders): boolean {
  const mode = headers['sec-fetch-mode'];
  return (method === 'GET' || method === 'HEAD') && typeof mode === 'string' && mode.trim().toLowerCase() === 'navigate';
}

/** Classifies requests against the control plane's own origin. */
export class SiteClassifier {
  private ownUrl = '';
  private ownOrigin: string | undefined;

  /** `url()` is the control plane's base URL (it changes once the port is known). */
  constructor(private readonly protocol: 'http' | 'https', private readonly url: () => string) {}

  /**
   * Whether `origin` is ours: the control plane's base URL, or the scheme and Host the browser used (Host passed the
   * allow-list before this runs, so it cannot be a rebound name). Another port or scheme is another origin.
   */
  isOwnOrigin(origin: string, host: string | undefined): boolean {
    if (!ORIGIN.test(origin)) return false;
    const presented = originOf(origin);
    if (presented === undefined) return false;
    const url = this.url();
    if (url !== this.ownUrl) {
      this.ownUrl = url;
      this.ownOrigin = originOf(url);
    }
    if (presented === this.ownOrigin) return true;
    return host !== undefined && presented === originOf(`${this.protocol}://${host}`);
  }

  /**
   * Sec-Fetch-Site decides when present (a page cannot forge it); `Origin: null` is then what a browser sends for a
   * form under `Referrer-Policy: no-referrer`. An Origin that is present and not ours is cross-site whatever else the
   * request says, and so is any value no browser sends (repeated headers arrive joined by a comma).
   */
  classify(headers: IncomingHttpHeaders): RequestSite {
    const origin = headers.origin;
    const fetchSite = headers['sec-fetch-site'];
    if (origin !== undefined && origin !== 'null' && !this.isOwnOrigin(origin, headers.host)) return 'cross-site';
    // Old browsers send neither header on an <img>, but a Referer unless the page suppresses it; a page can only
    // ever name itself there. It is never a proof of the opposite: ours can be suppressed or faked by a script.
    const referer = headers.referer;
    if (referer !== undefined && !this.isOwnOrigin(originOf(referer) ?? 'null', headers.host)) return 'cross-site';
    if (fetchSite !== undefined) {
      const value = typeof fetchSite === 'string' ? fetchSite.trim().toLowerCase() : '';
      if (value === 'same-origin') return 'same-origin';
      if (value === 'none' && origin !== 'null') return 'user';
      return 'cross-site';
    }
    if (origin === undefined) return 'unmarked';
    return origin === 'null' ? 'cross-site' : 'same-origin';
  }
}
