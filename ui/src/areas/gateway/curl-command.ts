// A stored request as a `curl` command through the gateway: the method, path, query, headers and body as captured.
// Masked values stay `[REDACTED]` (a record never holds them), and a comment above the command says which to fill
// in. Pure (tested in Node); the command runs as pasted in a POSIX shell.
import { REDACTED } from '../../components/json-view.js';
import type { GatewayRecord } from './gateway-api.js';

/** Headers curl writes itself, or that describe the captured connection rather than the request. */
const LEFT_OUT = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-connection', 'expect']);

/** `text` as one shell word: single quotes, each `'` written `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function queryText(query: GatewayRecord['query']): string {
  const params = new URLSearchParams();
  for (const [name, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) params.append(name, x);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The body as sent: JSON written back as JSON, a text body as it is; undefined when the record kept none. */
function bodyText(body: unknown): string | undefined {
  if (body === null || body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** The command, with `base` the gateway's URL (`http://127.0.0.1:8080`). */
export function curlCommand(r: GatewayRecord, base: string): string {
  const lines: string[] = [];
  const masked: string[] = [];
  const note = (where: string, value: string) => { if (value.includes(REDACTED)) masked.push(where); };
  for (const [name, v] of Object.entries(r.query)) for (const x of Array.isArray(v) ? v : [v]) note(`query ${name}`, x);
  const url = `${base.replace(/\/$/, '')}${r.path}${queryText(r.query)}`;
  note('path', r.path);
  // -g: brackets in a URL (`[REDACTED]` in a masked path) are literal, not curl's globbing.
  const args = [`curl -g -X ${r.method} ${shellQuote(url)}`];
  for (const [name, v] of Object.entries(r.headers ?? {})) {
    if (LEFT_OUT.has(name.toLowerCase())) continue;
    for (const x of Array.isArray(v) ? v : [v]) {
      note(`header ${name}`, x);
      args.push(`-H ${shellQuote(`${name}: ${x}`)}`);
    }
  }
  const body = bodyText(r.request_body);
  if (body !== undefined) {
    if (body.includes(REDACTED)) masked.push('body');
    args.push(`--data-raw ${shellQuote(body)}`);
  }
  if (masked.length) lines.push(`# ${REDACTED} marks values the policy masked before storage (${masked.join(', ')}): put the real ones back to replay it.`);
  if (r.headers === null) lines.push('# The headers were not captured (a rule restricts them).');
  if (body === undefined && r.method !== 'GET' && r.method !== 'HEAD') lines.push('# The body was not kept (empty, restricted or sampled out).');
  lines.push(args.join(' \\\n  '));
  return lines.join('\n');
}
