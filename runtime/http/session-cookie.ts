import { createHash, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'vigil_session';

/** `v2.` and 256 random bits in base64url: the session's secret, which only the browser holds in full. */
const FORMAT = /^v2\.([A-Za-z0-9_-]{43})$/;
const SECRET_BYTES = 32;

/** A new session's cookie value. The server keeps only its `sessionKey`. */
export function newSessionCookieValue(): string {
  return `v2.${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

/**
 * The key a cookie value is stored under (SHA-256 hex), or undefined when the value is not one we issue. Only the
 * canonical spelling is accepted (the 43rd character carries 2 unused bits), so a session has one cookie value.
 */
export function sessionKey(value: string): string | undefined {
  const m = FORMAT.exec(value);
  if (!m || Buffer.from(m[1], 'base64url').toString('base64url') !== m[1]) return undefined;
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * The name a session is listed and ended by (`GET /api/sessions`): 16 hex characters of a hash of the key under
 * its own label, so neither the cookie nor the stored key can be read back from it.
 */
export function sessionHandle(key: string): string {
  return createHash('sha256').update(`vigil session handle\0${key}`, 'utf8').digest('hex').slice(0, 16);
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
