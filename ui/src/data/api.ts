// The one way the dashboard talks to the control plane: same-origin fetches authenticated by the session cookie
// (the token never reaches a script), JSON in and out, and errors that say what happened and what next.
import { ApiError, errorFromResponse, networkError } from './api-error.js';

/** Where the login form is, bringing the person back to the page they were on. */
export function loginUrl(here: { pathname: string; search: string }): string {
  return `/login?next=${encodeURIComponent(here.pathname + here.search)}`;
}

/** Called when the session has ended (a 401): the default sends the browser to the login form. */
let onUnauthorized = (): void => {
  window.location.assign(loginUrl(window.location));
};

/** Replaces what happens on a 401 (tests). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

async function request<T>(method: string, path: string, body: unknown, signal: AbortSignal | undefined, what: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      // The cookie goes with same-origin requests only; the browser adds Origin and Sec-Fetch-Site, the control
      // plane's proof that a write comes from this page.
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw networkError(what);
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const error = errorFromResponse(res.status, parsed, what);
    if (error.kind === 'unauthorized') onUnauthorized();
    throw error;
  }
  if (text && parsed === undefined) {
    throw new ApiError('server', res.status, `The answer to ${what} was not JSON.`, 'Reload the page; if it persists, report it with the server log.');
  }
  return parsed as T;
}

/** GET `path` (a control-plane path, query included) as JSON. `what` names it in error messages. */
export function getJson<T>(path: string, options: { signal?: AbortSignal; what?: string } = {}): Promise<T> {
  return request<T>('GET', path, undefined, options.signal, options.what ?? path);
}

/** PUT `body` as JSON to `path`; resolves with the JSON answer. */
export function putJson<T>(path: string, body: unknown, options: { signal?: AbortSignal; what?: string } = {}): Promise<T> {
  return request<T>('PUT', path, body, options.signal, options.what ?? path);
}

/** POST `body` as JSON to `path`; resolves with the JSON answer. */
export function postJson<T>(path: string, body: unknown, options: { signal?: AbortSignal; what?: string } = {}): Promise<T> {
  return request<T>('POST', path, body, options.signal, options.what ?? path);
}

/** PATCH `path` with `body` as JSON; resolves with the JSON answer. */
export function patchJson<T>(path: string, body: unknown, options: { signal?: AbortSignal; what?: string } = {}): Promise<T> {
  return request<T>('PATCH', path, body, options.signal, options.what ?? path);
}

/** DELETE `path`; resolves with the JSON answer. */
export function deleteJson<T>(path: string, options: { signal?: AbortSignal; what?: string } = {}): Promise<T> {
  return request<T>('DELETE', path, undefined, options.signal, options.what ?? path);
}

/** Whether `err` is the abort of a request nobody waits for any more (not worth showing). */
export const isAbort = (err: unknown): boolean => (err as Error)?.name === 'AbortError';
