import type { HostOverview } from '@vigil/plugin-sdk';
import { request, type Dispatcher } from 'undici';
import { FLEET_TOKEN_HEADER } from './read-auth.js';
import type { Peer } from './types.js';

/** The read API's path on a peer, appended to its base URL. */
export const PEER_PATH = '/api/fleet/peer';

export interface PollOptions {
  timeoutMs: number;
  /** A larger answer is refused: read no further than this many bytes. */
  maxBytes: number;
  dispatcher?: Dispatcher;
  /** Throws when the answer is not a HostOverview (HOST_OVERVIEW_SCHEMA). */
  validate(value: unknown): void;
  now?: () => number;
}

export type PollResult =
  | { up: true; overview: HostOverview; latency_ms: number }
  | { up: false; error: string; latency_ms: number };

/**
 * One GET of a peer's overview with its read token: one deadline over the connection and the whole answer, at most
 * `maxBytes` read, no redirect followed (the token would travel to wherever it points), the answer checked against
 * the overview's schema. Never throws: a failure is a result, in words that never hold the token.
 */
export async function pollPeer(peer: Peer, options: PollOptions): Promise<PollResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const signal = AbortSignal.timeout(options.timeoutMs);
  const down = (error: string): PollResult => ({ up: false, error, latency_ms: now() - started });
  let response: Dispatcher.ResponseData;
  try {
    response = await request(`${peer.url}${PEER_PATH}`, {
      method: 'GET', signal, headers: { [FLEET_TOKEN_HEADER]: peer.token, accept: 'application/json' },
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    });
  } catch (err) {
    return down(signal.aborted ? `no answer within ${options.timeoutMs} ms` : describeNetworkError(err));
  }
  let text: string;
  try {
    text = await readBounded(response, options.maxBytes);
  } catch (err) {
    return down(signal.aborted ? `the answer did not arrive within ${options.timeoutMs} ms` : (err as Error).message);
  }
  if (response.statusCode !== 200) return down(describeStatus(response.statusCode, text));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return down('the answer is not JSON: is the URL the other Vigil\'s control plane?');
  }
  try {
    options.validate(body);
  } catch (err) {
    return down(`the answer is not a host overview: ${(err as Error).message.slice(0, 300)}`);
  }
  return { up: true, overview: body as HostOverview, latency_ms: now() - started };
}

/** The body as text, refused past `maxBytes` (by its declared length before reading, or once it grows past it). */
async function readBounded(response: Dispatcher.ResponseData, maxBytes: number): Promise<string> {
  const declared = Number(response.headers['content-length']);
  const tooLarge = () => new Error(`the answer is larger than ${maxBytes} bytes (fleet.max_response_bytes)`);
  try {
    if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      parts.push(chunk);
    }
    return Buffer.concat(parts).toString('utf8');
  } finally {
    response.body.destroy();
  }
}

/** An error status in words: the peer's own message for a 401, where the fix is on this side. */
function describeStatus(status: number, text: string): string {
  if (status === 401) return '401: the peer refused the read token (wrong or revoked); create a new one on that instance (asked again every 5 min)';
  if (status === 404) return '404: the peer has no read API (is its fleet plugin on, and is the URL its control plane?)';
  if (status >= 300 && status < 400) return `${status}: the peer redirects; give its final URL (redirects are not followed)`;
  if (status === 421) return '421: the peer does not answer to this host name; add it to the peer\'s control_plane.allowed_hosts';
  if (status === 429) return '429: the peer locked this address out after too many wrong tokens';
  let detail = '';
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') detail = `: ${parsed.error.message.slice(0, 200)}`;
  } catch { /* not JSON: the status alone */ }
  return `${status}${detail}`;
}

/** What a network error's code means for a fleet machine, in words. */
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused: is Vigil running there, and listening beyond loopback (control_plane.listen)?',
  ECONNRESET: 'the connection was reset before the answer came',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now (DNS)',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'the connection was not accepted in time',
  UND_ERR_SOCKET: 'the connection failed while reading the answer',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed, and not trusted here',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another name',
};

/** The network error in words, with its code; never any URL undici may put in the message. */
function describeNetworkError(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.cause?.code ?? e.code;
  if (code && NETWORK_WORDS[code]) return `${NETWORK_WORDS[code]} (${code})`;
  const message = (e.cause?.message ?? e.message ?? 'unknown error').replace(/https?:\/\/\S+/g, '<url>');
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
