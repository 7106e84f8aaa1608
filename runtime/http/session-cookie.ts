import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'vigil_session';
/** Default lifetime of a dashboard session, in ms. */
export const DEFAULT_SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

const FORMAT = /^v1\.([A-Za-z0-9_-]{22})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

export type SessionCheck = { state: 'valid'; id: string; expiresAt: number } | { state: 'expired' } | { state: 'invalid' };

/**
 * Signed, expiring session cookies: `v1.<id>.<expiry, base36 ms>.<HMAC-SHA256>`. The cookie holds no token. The key
 * is derived from the session secret and the token hash together, so rotating the token voids every session.
 */
export class SessionSigner {
  private readonly key: Buffer;

  constructor(sessionSecret: Buffer, tokenHash: string, readonly ttlMs: number = DEFAULT_SESSION_TTL_MS) {
    this.key = Buffer.from(hkdfSync('sha256', sessionSecret, Buffer.from(tokenHash, 'hex'), 'vigil dashboard session v1', 32));
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }

  issue(now = Date.now()): { value: string; expiresAt: number } {
    const expiresAt = now + this.ttlMs;
    const payload = `v1.${randomBytes(16).toString('base64url')}.${expiresAt.toString(36)}`;
    return { value: `${payload}.${this.mac(payload).toString('base64url')}`, expiresAt };
  }

  verify(value: string, now = Date.now()): SessionCheck {
    const m = FORMAT.exec(value);
    if (!m) return { state: 'invalid' };
    const presented = Buffer.from(m[3], 'base64url');
    // The 43rd character carries 2 unused bits; only the canonical spelling is accepted, so a cookie has one form.
    if (presented.toString('base64url') !== m[3]) return { state: 'invalid' };
    const expected = this.mac(value.slice(0, value.length - m[3].length - 1));
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return { state: 'invalid' };
    const expiresAt = parseInt(m[2], 36);
    // A genuine but expired cookie is a browser left open, not an attack: it is not counted towards the lockout.
    if (!(expiresAt > now)) return { state: 'expired' };
    return { state: 'valid', id: m[1], expiresAt };
  }
}

/** Every value of cookie `name` in a Cookie header (a browser may send several with different paths). */
export function readCookies(header: string | undefined, name: string): string[] {
  if (!header) return [];
  const out: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    out.push(value);
  }
  return out;
}

/** The Set-Cookie value: HttpOnly so page scripts never see it, SameSite=Strict against cross-site requests. */
export function sessionSetCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie value that makes a browser drop the session cookie. */
export function clearSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}
