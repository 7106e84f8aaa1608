// A request as a curl command line (bash) and as raw HTTP/1.1. Non-secret variables are filled in; a secret one
// becomes a shell variable in the curl line ("$TOKEN", set it first: the line says how) and stays `{{name}}` in raw
// HTTP, so an exported snippet never holds a secret and still runs as pasted once the variable is set.
import { fill, headersWithAuth, placeholders, type Scope } from './variables.js';
import type { ApiRequest } from './types.js';

const MARK = '\u0000';

/** The scope with each secret value replaced by a marker naming it, cut out again when the text is quoted. */
function markedScope(scope: Scope): Scope {
  const values = new Map(scope.values);
  for (const name of scope.secret) values.set(name, `${MARK}${name}${MARK}`);
  return { values, secret: new Set() };
}

export const shellName = (variable: string): string => variable.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(\d)/, '_$1').toUpperCase();

/** One shell word: literal text single-quoted ('\'' for a quote), secret markers as "$NAME". */
export function shellQuote(text: string): string {
  const parts = text.split(MARK);
  let out = '';
  parts.forEach((part, i) => {
    if (i % 2 === 1) out += `"$${shellName(part)}"`;
    else if (part || parts.length === 1) out += `'${part.replace(/'/g, "'\\''")}'`;
  });
  return out;
}

function filled(r: ApiRequest, scope: Scope): { request: ApiRequest; secrets: string[] } {
  const marked = markedScope(scope);
  const missing = new Set<string>();
  const f = (t: string) => fill(t, marked, missing);
  const request: ApiRequest = {
    ...r, url: f(r.url), body: f(r.body),
    headers: r.headers.filter((h) => h.enabled !== false).map((h) => ({ name: f(h.name), value: f(h.value) })),
    auth: { type: r.auth.type, token: f(r.auth.token ?? ''), username: f(r.auth.username ?? ''), password: f(r.auth.password ?? '') },
  };
  // The URL as the sender sends it (spaces and quotes percent-encoded, as `new URL` does), which curl also needs.
  if (!request.url.includes(MARK)) {
    try { request.url = new URL(request.url).href; } catch { /* left as written: the sender refuses it with a reason */ }
  }
  const used = new Set(placeholders(JSON.stringify(r)));
  return { request, secrets: [...scope.secret].filter((n) => used.has(n)) };
}

/** A bash command line, one option per line with continuations. */
export function toCurl(r: ApiRequest, scope: Scope): string {
  const { request, secrets } = filled(r, scope);
  const lines: string[] = [];
  const head = request.method === 'HEAD' ? 'curl -I' : request.method === 'GET' && !request.body ? 'curl' : `curl -X ${request.method}`;
  lines.push(`${head} ${shellQuote(request.url)}`);
  const basic = request.auth.type === 'basic' && !request.headers.some((h) => h.name.toLowerCase() === 'authorization');
  const headers = basic ? request.headers : headersWithAuth(request);
  if (basic) lines.push(`-u ${shellQuote(`${request.auth.username ?? ''}:${request.auth.password ?? ''}`)}`);
  for (const h of headers) lines.push(`-H ${shellQuote(h.value ? `${h.name}: ${h.value}` : `${h.name};`)}`);
  if (request.body) lines.push(`--data-raw ${shellQuote(request.body)}`);
  const setFirst = secrets.map((n) => `read -rs ${shellName(n)}`).join('; ');
  const preface = secrets.length ? `# Secret variables: set ${secrets.map(shellName).join(', ')} first, e.g. ${setFirst}\n` : '';
  return preface + lines.join(' \\\n  ');
}

/** The request as HTTP/1.1 text; secret values stay as their `{{placeholder}}`. */
export function toRawHttp(r: ApiRequest, scope: Scope): string {
  const { request } = filled(r, scope);
  const unmark = (t: string) => t.replace(new RegExp(`${MARK}([^${MARK}]*)${MARK}`, 'g'), '{{$1}}');
  const url = unmark(request.url);
  let target = url;
  let host = '';
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^#]*)/i.exec(url);
  if (m) { host = m[1].replace(/^[^@]*@/, ''); target = m[2] || '/'; }
  const withAuth = headersWithAuth({ ...request, auth: { ...request.auth, username: unmark(request.auth.username ?? ''), password: unmark(request.auth.password ?? '') } });
  const lines = [`${request.method} ${target.startsWith('/') ? target : `/${target}`} HTTP/1.1`, `Host: ${host}`];
  for (const h of withAuth) lines.push(`${unmark(h.name)}: ${unmark(h.value)}`);
  const body = unmark(request.body);
  if (body) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
