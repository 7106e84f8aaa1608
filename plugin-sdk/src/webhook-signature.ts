import { createHmac, timingSafeEqual } from 'node:crypto';

/** The request headers that carry the signature and the time it was made. */
export const SIGNATURE_HEADER = 'x-vigil-signature';
export const TIMESTAMP_HEADER = 'x-vigil-timestamp';

/** How far a request's `X-Vigil-Timestamp` may be from the receiver's clock before it is refused as a replay. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * The `X-Vigil-Signature` value: `sha256=` and the hex HMAC-SHA256, under `secret`, of the `X-Vigil-Timestamp` value,
 * a dot, and the exact body bytes. Signing the timestamp too means a captured request cannot be replayed later
 * under a fresh timestamp.
 */
export function signBody(secret: string, timestamp: string, body: Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

/**
 * What a receiver does with the two headers: refuse a timestamp outside the tolerance, recompute the HMAC over the
 * raw bytes it received, and compare in constant time.
 */
export function verifyBodySignature(
  secret: string,
  body: Uint8Array,
  headers: { signature: string | undefined; timestamp: string | undefined },
  options: { toleranceSeconds?: number; nowSeconds?: number } = {},
): boolean {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  const now = options.nowSeconds ?? Date.now() / 1000;
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(signBody(secret, timestamp, body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
