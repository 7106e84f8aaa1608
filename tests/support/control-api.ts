// JSON calls to a `vigil run`'s control plane with the dashboard token, every answer's text kept in `seen` so a
// suite can check afterwards that no answer held a secret.

export interface ControlAnswer { status: number; text: string; body: any; headers: Headers }

export function controlApi(base: () => string, token: string) {
  const seen: string[] = [];
  const api = async (path: string, init: RequestInit = {}): Promise<ControlAnswer> => {
    const res = await fetch(`${base()}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });
    const text = await res.text();
    seen.push(text);
    let body: any;
    try { body = text ? JSON.parse(text) : undefined; } catch { body = undefined; }
    return { status: res.status, text, body, headers: res.headers };
  };
  const post = (path: string, body: unknown, method = 'POST') => api(path, { method, body: JSON.stringify(body) });
  return { api, post, seen };
}
