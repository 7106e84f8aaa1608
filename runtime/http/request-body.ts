import type { IncomingMessage } from 'node:http';
import { httpError, isJsonContentType } from '@vigil/plugin-sdk';
import { bodyTooLarge, HttpErrors } from './errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether the request announces a body at all (a length above zero, or chunked framing). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Reads the body into one Buffer, refusing with 413 as soon as it would pass `limit` bytes: an announced
 * Content-Length over the limit is refused before reading anything, and a chunked body is never buffered past it.
 * With a Content-Length, the Buffer is allocated once at that size and each chunk is copied into it as it comes:
 * no list of chunks kept alive to the end and no second copy of the whole body on the event loop (a 5 MB ingest
 * body cost a 5 MB concatenation, and the garbage that goes with it, per request).
 * A refused body is left paused, not destroyed: the connection must live on to carry the 413 (lingering-close.ts).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const announced = req.headers['content-length'];
  if (announced !== undefined && Number(announced) > limit) return Promise.reject(bodyTooLarge(limit));
  const expected = announced !== undefined && /^\d+$/.test(announced) ? Number(announced) : undefined;
  return new Promise((resolve, reject) => {
    // Node's HTTP parser holds a body to its Content-Length: it never delivers more, and ends early only on an abort.
    const whole = expected !== undefined && expected > 0 ? Buffer.allocUnsafe(expected) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
    };
    function onData(chunk: Buffer): void {
      if (size + chunk.length > limit || (whole && size + chunk.length > whole.length)) {
        stop();
        req.pause();
        reject(bodyTooLarge(limit));
        return;
      }
      if (whole) chunk.copy(whole, size);
      else chunks.push(chunk);
      size += chunk.length;
    }
    function onEnd(): void {
      stop();
      if (whole) resolve(size === whole.length ? whole : whole.subarray(0, size));
      else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    }
    function onAbort(): void {
      stop();
      reject(httpError(HttpErrors.BODY_ABORTED, 'the request body ended before it was complete'));
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}

/** Parses a JSON body: 415 for another media type, 400 for bytes that are not UTF-8 or not JSON. */
export function parseJsonBody(raw: Buffer, contentType: string | undefined): unknown {
  if (!isJsonContentType(contentType)) {
    throw httpError(HttpErrors.UNSUPPORTED_MEDIA_TYPE,
      `request bodies must be JSON sent as "Content-Type: application/json"${contentType ? `, not ${JSON.stringify(contentType)}` : ''}`);
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw httpError(HttpErrors.INVALID_JSON, 'request body is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw httpError(HttpErrors.INVALID_JSON, `request body is not valid JSON: ${(err as Error).message}`);
  }
}
