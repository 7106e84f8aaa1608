// Sending one replayed request to the target: node:http(s) directly, so a redirect is an answer (never followed), and
// each request has one deadline for the whole exchange. A timeout or a connection error is an outcome, not a throw.
import { request as httpRequest, Agent as HttpAgent, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { ReplayRequest } from './replay-plan.js';

/** Bytes of a response body read for the shape comparison; past them (or undecodable) the body is `unreadable`. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export type SendOutcome =
  | { ok: true; status: number; contentType: string | undefined; body: Buffer; unreadable: boolean }
  /** `invalid_request`: Node's client refused to send what the record holds (a path or header value it rejects). */
  | { ok: false; error: 'timeout' | 'connection_error' | 'invalid_request'; detail: string };

export interface Sender {
  send(req: ReplayRequest): Promise<SendOutcome>;
  close(): void;
}

/**
 * A sender to `target` (its path prefixes each request's), with at most `concurrency` connections. With `connectTo`,
 * the target's name is never resolved again: connections go to those addresses only (the ones the live-upstream
 * guard checked), so a name cannot pass the check with one address and be sent to another.
 */
export function createSender(target: URL, timeoutMs: number, concurrency: number, connectTo?: readonly string[]): Sender {
  const https = target.protocol === 'https:';
  const lookup = connectTo ? pinnedLookup(connectTo) : undefined;
  const agent = https
    ? new HttpsAgent({ keepAlive: true, maxSockets: concurrency, lookup })
    : new HttpAgent({ keepAlive: true, maxSockets: concurrency, lookup });
  const prefix = target.pathname.replace(/\/+$/, '');
  const send = (req: ReplayRequest) => new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => { if (!settled) { settled = true; clearTimeout(timer); resolve(outcome); } };
    const headers: Record<string, string | string[]> = { ...req.headers };
    if (req.body) headers['Content-Length'] = String(req.body.length);
    let outgoing: ClientRequest;
    try {
      outgoing = (https ? httpsRequest : httpRequest)({
        protocol: target.protocol, hostname: target.hostname.replace(/^\[|\]$/g, ''), port: target.port || undefined,
        method: req.method, path: prefix + req.target, headers, agent,
      });
    } catch (err) {
      // Thrown before anything is sent: an unescaped character in the path, a header value with a control character.
      resolve({ ok: false, error: 'invalid_request', detail: (err as Error).message });
      return;
    }
    const timer = setTimeout(() => {
      finish({ ok: false, error: 'timeout', detail: `no complete answer within ${timeoutMs} ms` });
      outgoing.destroy();
    }, timeoutMs);
    outgoing.on('error', (err: NodeJS.ErrnoException) => finish({ ok: false, error: 'connection_error', detail: err.code ?? err.message }));
    outgoing.on('response', (res) => readResponse(res, req.method === 'HEAD').then(finish, (err: Error) =>
      finish({ ok: false, error: 'connection_error', detail: err.message })));
    outgoing.end(req.body ?? undefined);
  });
  return { send, close: () => agent.destroy() };
}

/** A resolver that answers every name with `addresses` (ENOTFOUND when there are none), in the callback's two shapes. */
function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const all = addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const found = all.filter((a) => !family || a.family === family);
    const done = callback as (err: NodeJS.ErrnoException | null, address: string | typeof found, family?: number) => void;
    if (found.length === 0) {
      done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), '', 0);
    } else if (options.all) done(null, found);
    else done(null, found[0].address, found[0].family);
  };
}

function readResponse(res: IncomingMessage, head: boolean): Promise<SendOutcome> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let unreadable = false;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) unreadable = true;
      else chunks.push(chunk);
    });
    res.on('error', reject);
    res.on('aborted', () => reject(new Error('the response was cut short')));
    res.on('end', () => {
      const type = res.headers['content-type'];
      let body: Buffer = Buffer.concat(chunks);
      if (!unreadable && !head && body.length > 0) {
        try {
          body = decode(body, String(res.headers['content-encoding'] ?? ''));
        } catch {
          // An encoding that does not decode leaves the body unreadable; the status is still compared.
          unreadable = true;
        }
      }
      resolve({ ok: true, status: res.statusCode ?? 0, contentType: type, body, unreadable });
    });
  });
}

/** Undoes a Content-Encoding the target applied although the request asked for none. */
function decode(body: Buffer, encoding: string): Buffer {
  for (const e of encoding.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s && s !== 'identity').reverse()) {
    if (e === 'gzip' || e === 'x-gzip') body = gunzipSync(body, { maxOutputLength: MAX_RESPONSE_BYTES });
    else if (e === 'deflate') body = inflateSync(body, { maxOutputLength: MAX_RESPONSE_BYTES });
    else if (e === 'br') body = brotliDecompressSync(body, { maxOutputLength: MAX_RESPONSE_BYTES });
    else throw new Error(`unknown content-encoding ${e}`);
  }
  return body;
}
