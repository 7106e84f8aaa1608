import { gunzip } from 'node:zlib';
import { HttpError, isJsonContentType } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';

/** Nesting of arrays and objects an ingest body may have: the envelope takes 3, LLM messages rarely 10. */
export const MAX_BODY_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export const bodyTooLarge = (limit: number, what: string): HttpError =>
  new HttpError(413, LlmErrors.BODY_TOO_LARGE, `the request body is larger than ${limit} bytes ${what}; send smaller batches`);

/**
 * `raw` decoded per its Content-Encoding (gzip, or none), never past `limit` bytes: zlib stops inflating at the
 * limit, so a gzip bomb costs `limit` bytes of memory and is answered 413. Inflating runs on libuv's thread pool,
 * off the event loop. For every ingest route (the OTLP ones too).
 */
export async function decodeContent(raw: Buffer, encoding: string | undefined, limit: number): Promise<Buffer> {
  if (raw.length > limit) throw bodyTooLarge(limit, 'as sent');
  const coding = (encoding ?? 'identity').trim().toLowerCase();
  if (coding === 'identity' || coding === '') return raw;
  if (coding !== 'gzip' && coding !== 'x-gzip') {
    throw new HttpError(415, LlmErrors.CONTENT_TYPE, `Content-Encoding ${JSON.stringify(encoding)} is not supported; send gzip or no encoding`);
  }
  return new Promise((resolve, reject) => {
    gunzip(raw, { maxOutputLength: limit }, (err, out) => {
      if (!err) return resolve(out);
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) reject(bodyTooLarge(limit, 'once decompressed'));
      else reject(new HttpError(400, LlmErrors.BODY, `the body is not valid gzip: ${err.message}`));
    });
  });
}

/**
 * Whether JSON text nests deeper than `max`, by one pass over its bytes (strings skipped): run before `JSON.parse`,
 * which takes seconds over a few megabytes of `[[[[…`, and before code that recurses over the value.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === 0x5c) i++; // backslash: skip the escaped byte (a quote or another backslash)
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) { if (++depth > max) return true; }
    else if (b === 0x7d || b === 0x5d) depth--;
  }
  return false;
}

/**
 * The JSON value of an ingest body: 415 for another media type or encoding, 413 past `limit` bytes (sent or
 * inflated), 400 for bytes that are not gzip, UTF-8 or JSON, or that nest deeper than `MAX_BODY_DEPTH`.
 */
export async function parseIngestBody(raw: Buffer, headers: { 'content-type'?: string; 'content-encoding'?: string }, limit: number): Promise<unknown> {
  if (!isJsonContentType(headers['content-type'])) {
    const got = headers['content-type'];
    throw new HttpError(415, LlmErrors.CONTENT_TYPE, `send the batch as "Content-Type: application/json"${got ? `, not ${JSON.stringify(got)}` : ''}`);
  }
  const bytes = await decodeContent(raw, headers['content-encoding'], limit);
  if (nestsDeeperThan(bytes, MAX_BODY_DEPTH)) {
    throw new HttpError(400, LlmErrors.TOO_DEEP, `the body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels`);
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new HttpError(400, LlmErrors.BODY, 'the body is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, LlmErrors.BODY, `the body is not valid JSON: ${(err as Error).message}`);
  }
}
