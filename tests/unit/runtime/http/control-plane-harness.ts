// Starts real control planes on 127.0.0.1:0 for the http suites. Not a test file itself.
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import type { Logger, LogFields } from '@vigil/plugin-sdk';
import { WebSocket } from 'ws';
import { createControlPlane, hashToken, type ControlPlane, type ControlPlaneOptions } from '../../../../runtime/http/index.js';
import { MetricsRegistry } from '../../../../runtime/metrics/index.js';

export const TOKEN = 'dashboard-token-for-tests-0123456789';

export interface LogLine { level: string; msg: string; fields: LogFields }

export function captureLogger(lines: LogLine[] = [], bound: LogFields = {}): Logger {
  const at = (level: string) => (msg: string, fields: LogFields = {}) => { lines.push({ level, msg, fields: { ...bound, ...fields } }); };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: (f) => captureLogger(lines, { ...bound, ...f }) };
}

export interface Harness {
  cp: ControlPlane;
  url: string;
  registry: MetricsRegistry;
  logs: LogLine[];
  pluginErrors: { plugin: string; err: unknown }[];
  /** fetch against the control plane; redirects are not followed. */
  get(path: string, init?: RequestInit): Promise<Response>;
  bearer(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

type Overrides = Partial<ControlPlaneOptions> & { register?(cp: ControlPlane): void; listenNow?: boolean };

export async function startControlPlane(overrides: Overrides = {}): Promise<Harness> {
  const { register, listenNow = true, ...options } = overrides;
  const logs: LogLine[] = [];
  const pluginErrors: Harness['pluginErrors'] = [];
  const registry = options.registry ?? new MetricsRegistry();
  const cp = await createControlPlane({
    listen: '127.0.0.1:0',
    tokenHash: hashToken(TOKEN),
    bodyLimit: 64 * 1024,
    lockout: { maxFailures: 20, windowMs: 10 * 60_000 },
    metricsAuth: false,
    registry,
    log: captureLogger(logs),
    info: { title: 'Vigil', version: '0.0.0-test' },
    health: () => ({ status: 'ok', version: '0.0.0-test', plugins: [] }),
    onPluginError: (plugin, err) => { pluginErrors.push({ plugin, err }); },
    ...options,
  });
  register?.(cp);
  if (listenNow) await cp.listen();
  const get = (path: string, init: RequestInit = {}): Promise<Response> => fetch(cp.url + path, { redirect: 'manual', ...init });
  return {
    cp,
    get url() { return cp.url; },
    registry,
    logs,
    pluginErrors,
    get,
    bearer: (path, init = {}) => get(path, { ...init, headers: { authorization: `Bearer ${TOKEN}`, ...(init.headers as Record<string, string> ?? {}) } }),
    close: () => cp.close(),
  };
}

/** The `name=value` pair of the session cookie set by a response. */
export function sessionCookieOf(res: Response): string {
  const header = res.headers.getSetCookie().find((c) => c.startsWith('vigil_session='));
  if (!header) throw new Error(`no session cookie in ${res.status} response`);
  return header.split(';')[0];
}

/** Exchanges the token for a session cookie through `GET /?token=`. */
export async function login(h: Harness): Promise<string> {
  const res = await h.get(`/?token=${encodeURIComponent(TOKEN)}`);
  await res.arrayBuffer();
  if (res.status !== 302) throw new Error(`token exchange answered ${res.status}`);
  return sessionCookieOf(res);
}

export interface OpenedSocket {
  ws?: WebSocket;
  /** The HTTP status that refused the upgrade. */
  status?: number;
  body?: string;
  /** The next text message; messages are queued from the moment the socket opens, so none is missed. */
  next(): Promise<string>;
}

/** Opens a websocket; resolves with the socket, or with the HTTP status that refused the upgrade. */
export function openSocket(url: string, headers: Record<string, string>): Promise<OpenedSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const queued: string[] = [];
    const waiting: ((m: string) => void)[] = [];
    ws.on('message', (data) => {
      const text = String(data);
      const waiter = waiting.shift();
      if (waiter) waiter(text);
      else queued.push(text);
    });
    const next = (): Promise<string> => {
      const m = queued.shift();
      return m !== undefined ? Promise.resolve(m) : new Promise((r) => waiting.push(r));
    };
    ws.once('open', () => resolve({ ws, next }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, body, next }));
    });
    ws.once('error', (err) => reject(err));
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request through node:http, which (unlike fetch) sends the Host header given and repeats a header whose value is
 * an array. Redirects are not followed.
 */
export function rawRequest(base: string, path: string, options: { method?: string; headers?: OutgoingHttpHeaders; body?: string } = {}): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Writes `text` as is on a new connection and resolves with the status line's code and the whole answer. */
export function rawExchange(base: string, text: string): Promise<{ status: number; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => { answer += d; });
    socket.on('error', reject);
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0), text: answer }));
  });
}

/** The session cookie from the login form, posted as the dashboard's own page would post it. */
export async function formLogin(h: Harness): Promise<string> {
  const res = await h.get('/login', {
    method: 'POST',
    headers: { origin: h.url, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: TOKEN }).toString(),
  });
  await res.arrayBuffer();
  if (res.status !== 303) throw new Error(`login form answered ${res.status}`);
  return sessionCookieOf(res);
}

export interface ErrorBody { error: { code: string; message: string; path?: string } }

/** The JSON error body of a response. */
export async function errorOf(res: Response): Promise<ErrorBody['error']> {
  return ((await res.json()) as ErrorBody).error;
}
