// The headers of everything the dashboard serves.

/**
 * The pages' Content-Security-Policy: scripts and styles from this origin only, no inline script and no eval
 * (esbuild's bundle needs neither), no inline <style> or style="" (styles set through the CSSOM, as Preact and
 * uPlot do, are not inline styles); data: images for the icons CSS may carry; no framing; forms post here only.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Headers every dashboard response carries, besides the control plane's (nosniff, no-referrer, DENY). */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': PAGE_CSP,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  // A window this page opens cannot reach back into it, and no other site can embed its files.
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
});

/** Hashed file names never change content: cached for a year, never revalidated. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html names the current hashed files: revalidated on every load, so a new build shows at once. */
export const REVALIDATE = 'no-cache';
