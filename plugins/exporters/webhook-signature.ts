import { createHmac, timingSafeEqual } from 'node:crypto';

/** The `X-Vigil-Signature` value: `sha256=` and the hex HMAC-SHA256 of the exact body bytes under `secret`. */
export function signBody(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** What a receiver does with the header: recompute over the raw bytes it received and compare in constant time. */
export function verifyBodySignature(secret: string, body: Uint8Array, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
