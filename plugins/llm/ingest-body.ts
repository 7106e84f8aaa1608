import { gunzip } from 'node:zlib';
import { HttpError, httpError } from '@vigil/plugin-sdk';
import { LlmErrors } from './errors.js';

export const bodyTooLarge = (limit: number, what: string): HttpError =>
  httpError(LlmErrors.BODY_TOO_LARGE, `the request body is larger than ${limit} bytes ${what}; send smaller batches`);

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
    throw httpError(LlmErrors.CONTENT_TYPE, `Content-Encoding ${JSON.stringify(encoding)} is not supported; send gzip or no encoding`);
  }
  return new Promise((resolve, reject) => {
    gunzip(raw, { maxOutputLength: limit }, (err, out) => {
      if (!err) return resolve(out);
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) reject(bodyTooLarge(limit, 'once decompressed'));
      else reject(httpError(LlmErrors.BODY, `the body is not valid gzip: ${err.message}`));
    });
  });
}
