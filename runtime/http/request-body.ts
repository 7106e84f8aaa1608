import type { IncomingMessage } from 'node:http';
import { HttpError, isJsonContentType } from '@vigil/plugin-sdk';
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
 * A refused body is left paused, not destroyed: the connection must live on to carry the 413 (lingering-close.ts).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const announced = req.headers['content-length'];
  if (announced !== undefined && Number(announced) > limit) return Promise.reject(bodyTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
    };
    function onData(chunk: Buffer): void {
      size += chunk.length;
      if (size > limit) {
        stop();
        req.pause();
        reject(bodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    }
    function onEnd(): void {
      stop();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    }
    function onAbort(): void {
      stop();
      reject(new HttpError(400, HttpErrors.BODY_ABORTED, 'the request body ended before it was complete'));
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
    throw new HttpError(415, HttpErrors.UNSUPPORTED_MEDIA_TYPE,
      `request bodies must be JSON sent as "Content-Type: application/json"${contentType ? `, not ${JSON.stringify(contentType)}` : ''}`);
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new HttpError(400, HttpErrors.INVALID_JSON, 'request body is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, HttpErrors.INVALID_JSON, `request body is not valid JSON: ${(err as Error).message}`);
  }
}
