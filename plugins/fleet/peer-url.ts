import { badPeer } from './errors.js';

/**
 * The base URL a peer is polled under, without a trailing slash. Credentials, a query or a fragment are refused: a
 * token belongs in the token field (a URL shows in the grid), and the read path is appended to the URL as it is.
 */
export function normalisePeerUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badPeer(`url: ${JSON.stringify(raw)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badPeer('url: use http:// or https://');
  if (url.username || url.password) throw badPeer('url: leave credentials out of the URL; the read token goes in the token field');
  if (url.search || url.hash) throw badPeer('url: give the base URL of the other Vigil (http://host:9095), without a query or a fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
