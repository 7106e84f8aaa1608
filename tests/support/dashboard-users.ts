// Dashboard users for the role suites: made by the owner (the token) through POST /api/users, logged in as a person
// does, through the login form with their email and password.
import { WebSocket } from 'ws';

export interface MadeUser { id: string; email: string; password: string | null }

/** Makes a user with the dashboard token; resolves with its id and first password. */
export async function makeUser(base: string, token: string, body: Record<string, unknown>): Promise<MadeUser> {
  const res = await fetch(`${base}/api/users`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const out = await res.json() as { user: { id: string; email: string }; password: string | null };
  if (res.status !== 201) throw new Error(`POST /api/users answered ${res.status}: ${JSON.stringify(out)}`);
  return { id: out.user.id, email: out.user.email, password: out.password };
}

/** Logs a local user in through the form; resolves with the `vigil_session=…` pair, or the status when refused. */
export async function logInAs(base: string, email: string, password: string): Promise<string | number> {
  const res = await fetch(`${base}/login`, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ email, password, next: '/' }).toString(),
  });
  await res.arrayBuffer();
  const set = res.headers.getSetCookie().find((c) => c.startsWith('vigil_session='));
  return res.status === 303 && set ? set.split(';')[0] : res.status;
}

/** A request with a session cookie, from the dashboard's own origin (as the page sends it). */
export function asUser(base: string, cookie: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    redirect: 'manual', ...init,
    headers: { cookie, origin: base, 'sec-fetch-site': 'same-origin', ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers as Record<string, string> | undefined) },
  });
}

/** The status a websocket upgrade at `path` gets with `cookie` (101 when it opens). */
export function upgradeStatus(base: string, cookie: string, path: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`, { headers: { cookie, origin: base } });
    ws.on('open', () => { ws.close(); resolve(101); });
    ws.on('unexpected-response', (_req, res) => { res.resume(); resolve(res.statusCode ?? 0); });
    ws.on('error', () => resolve(0));
  });
}
