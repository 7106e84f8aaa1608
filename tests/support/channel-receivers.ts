import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** One answer a receiver gives: as Slack (`ok`, `invalid_payload`), Discord (204, 429 + retry_after) or ntfy (JSON) do. */
export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact body bytes, for signature checks. */
  raw: Buffer;
  at: number;
}

export interface Receivers {
  url(path: string): string;
  /** The answers `path` gives, in order; the last one repeats. Default: 200 `ok`. */
  script(path: string, answers: Answer[]): void;
  received(path: string): ReceivedRequest[];
  server: Server;
  close(): Promise<void>;
}

export const slackOk: Answer = { status: 200, body: 'ok', headers: { 'content-type': 'text/plain' } };
export const slackInvalidPayload: Answer = { status: 400, body: 'invalid_payload', headers: { 'content-type': 'text/plain' } };
export const discordOk: Answer = { status: 204 };
export const discordLimited = (retryAfterSeconds: number): Answer => ({
  status: 429, headers: { 'content-type': 'application/json', 'retry-after': String(Math.ceil(retryAfterSeconds)) },
  body: JSON.stringify({ message: 'You are being rate limited.', retry_after: retryAfterSeconds, global: false }),
});
export const ntfyOk = (topic: string): Answer => ({
  status: 200, headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ id: 'sPs71M8A2T', time: Math.floor(Date.now() / 1000), expires: Math.floor(Date.now() / 1000) + 43200, event: 'message', topic, message: 'x' }),
});

/** Local HTTP receivers on 127.0.0.1 that answer, per path, as the scripted service would. */
export async function startReceivers(): Promise<Receivers> {
  const scripts = new Map<string, Answer[]>();
  const log = new Map<string, ReceivedRequest[]>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url!.split('?')[0];
      const got = { path, headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() };
      log.set(path, [...(log.get(path) ?? []), got]);
      const answers = scripts.get(path) ?? [slackOk];
      const answer = answers.length > 1 ? answers.shift()! : answers[0];
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: (path) => base + path,
    script: (path, answers) => { scripts.set(path, [...answers]); },
    received: (path) => log.get(path) ?? [],
    server,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
