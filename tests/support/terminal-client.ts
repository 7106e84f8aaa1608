// A terminal client for the tests: a real websocket (the `ws` package) speaking plugins/terminal's protocol, with
// the acknowledgements under the test's control.
import { WebSocket } from 'ws';

export interface TerminalClient {
  ws: WebSocket;
  /** Everything received so far, as text (latin1 would do; output is UTF-8). */
  output(): string;
  /** Where the output ends now, as an offset for `waitFor`'s `from`. */
  mark(): number;
  /** Bytes received so far. */
  received(): number;
  send(text: string): void;
  type(keys: string): void;
  resize(cols: number, rows: number): void;
  ack(bytes: number): void;
  /** Resolves once the output holds `pattern` (searched from `from`), or rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number, from?: number): Promise<RegExpExecArray>;
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
}

export interface OpenOptions {
  cookie?: string;
  origin?: string | null;
  query?: Record<string, string>;
  /** Acknowledge every frame as it arrives (default true). */
  autoAck?: boolean;
}

/** Keeps the last 1 MiB of output as text: a 50 MB run must not grow the test's own memory. */
const KEEP = 1024 * 1024;

/** Opens `/ws/term` and resolves once it is open; rejects with the HTTP status of a refused handshake. */
export function openTerminal(base: string, options: OpenOptions = {}): Promise<TerminalClient> {
  const url = new URL('/ws/term', base.replace(/^http/, 'ws'));
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  const origin = options.origin === undefined ? base : options.origin;
  const ws = new WebSocket(url, { headers, ...(origin === null ? {} : { origin }) });
  let text = '';
  let bytes = 0;
  let dropped = 0;
  const waiters = new Set<() => void>();
  const autoAck = options.autoAck ?? true;
  ws.on('message', (data: Buffer) => {
    bytes += data.length;
    text += data.toString('utf8');
    if (text.length > 2 * KEEP) { dropped += text.length - KEEP; text = text.slice(-KEEP); }
    if (autoAck) ws.send(`a${data.length}`);
    for (const w of waiters) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  const client: TerminalClient = {
    ws,
    output: () => text,
    mark: () => dropped + text.length,
    received: () => bytes,
    send: (t) => ws.send(t),
    type: (keys) => ws.send(`i${keys}`),
    resize: (cols, rows) => ws.send(`r${JSON.stringify({ cols, rows })}`),
    ack: (n) => ws.send(`a${n}`),
    waitFor(pattern, timeoutMs = 10_000, from = 0) {
      return new Promise((resolve, reject) => {
        // Where the last search began (absolute): each search covers what arrived since, plus an overlap for a
        // match that straddles two messages, so a 75 MB stream is not searched from its start at every message.
        let searched = from;
        const check = (): void => {
          const start = Math.max(0, Math.max(from, searched - 4096) - dropped);
          searched = dropped + text.length;
          const m = pattern.exec(text.slice(start));
          if (m) { waiters.delete(check); clearTimeout(timer); resolve(m); }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${pattern} in the terminal's output within ${timeoutMs} ms; the last of it: ${JSON.stringify(text.slice(-400))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    closed,
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => {
      reject(Object.assign(new Error(`handshake refused with ${res.statusCode}`), { status: res.statusCode }));
      res.resume();
    });
    ws.once('error', reject);
  });
}

/** The status a refused handshake answered with, or 101 when it opened (then closed at once). */
export async function handshakeStatus(base: string, options: OpenOptions = {}): Promise<number> {
  try {
    const t = await openTerminal(base, options);
    t.ws.close();
    return 101;
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === undefined) throw err;
    return status;
  }
}

/** Logs in as a script does (a form post) and returns the `vigil_session=…` pair. */
export async function sessionCookie(base: string, token: string): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });
  await res.arrayBuffer();
  const set = res.headers.getSetCookie().find((c) => c.startsWith('vigil_session='));
  if (!set) throw new Error(`the login answered ${res.status} without a session cookie`);
  return set.split(';')[0];
}
