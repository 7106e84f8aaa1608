import { addConnectionOptions, dropFields, isHopByHop } from './hop-by-hop.js';

/** What the client is sent, derived from the upstream's header block. */
export interface DownstreamResponseHead {
  /** Flat name/value list in the upstream's casing and order (Set-Cookie and other repeats kept apart). */
  headers: string[];
  /** Declared Content-Length, or -1 when absent. */
  contentLength: number;
}

/**
 * The header block to send the client, from the upstream's raw headers (undici gives Buffers; latin1 maps each
 * byte to one character, which Node writes back as the same byte). Hop-by-hop fields and the fields the upstream's
 * Connection header lists are dropped; the client connection gets its own framing from Node.
 */
export function downstreamResponseHead(raw: readonly (Buffer | string)[]): DownstreamResponseHead {
  const headers: string[] = [];
  let options: Set<string> | undefined;
  let contentLength = -1;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const n = raw[i];
    const v = raw[i + 1];
    const name = typeof n === 'string' ? n : n.toString('latin1');
    const value = typeof v === 'string' ? v : v.toString('latin1');
    const lower = name.toLowerCase();
    if (isHopByHop(lower)) {
      if (lower === 'connection') options = addConnectionOptions(value, options);
      continue;
    }
    if (lower === 'content-length') contentLength = Number(value);
    headers.push(name, value);
  }
  if (options !== undefined && options.size > 0) dropFields(headers, options);
  return { headers, contentLength };
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * The reason phrase to write, as the upstream sent it: an empty one stays empty (Node would otherwise write its
 * own, `OK`). undici decodes the phrase as UTF-8 where Node writes status lines as latin1, one byte per
 * character: re-encoding gives back the upstream's bytes (bytes that were not UTF-8 reach us as U+FFFD already).
 */
export function reasonPhrase(statusText: string | undefined): string {
  if (statusText === undefined) return '';
  return ASCII.test(statusText) ? statusText : Buffer.from(statusText, 'utf8').toString('latin1');
}

/** HEAD responses and 204 / 304 never carry a body, whatever their Content-Length says. */
export function mayHaveBody(method: string | undefined, status: number): boolean {
  return method !== 'HEAD' && status !== 204 && status !== 304;
}
