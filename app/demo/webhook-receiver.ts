/**
 * The demo's notification receiver: a real HTTP endpoint on a loopback port, in the demo's process, that the demo
 * config's webhook channel posts to. It checks each request as a receiver should (the HMAC signature over the
 * timestamp and the body, a timestamp within five minutes, one delivery per idempotency key), so that a newcomer sees
 * an alert fire and its notification arrive, end to end, with no outside service.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyBodySignature } from '@vigil/plugin-sdk';

/** Bytes of one notification the receiver reads, at most: the channel's payloads are a few kilobytes. */
const BODY_LIMIT = 64 * 1024;
/** Idempotency keys remembered, at most: the oldest go first. */
const KEYS_KEPT = 1_000;

/** What the receiver keeps of one notification. */
export interface ReceivedNotification {
  event_id: string;
  title: string;
  severity: string;
  test: boolean;
  received_at: number;
}

export interface WebhookReceiver {
  /** Where the channel posts. */
  url: string;
  /** Notifications accepted so far (a repeat of an idempotency key is answered 200 and not counted again). */
  received(): number;
  close(): Promise<void>;
}

const read = (req: IncomingMessage): Promise<Buffer | undefined> => new Promise((resolve) => {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => { size += c.length; if (size <= BODY_LIMIT) chunks.push(c); });
  req.on('end', () => resolve(size > BODY_LIMIT ? undefined : Buffer.concat(chunks)));
  req.on('error', () => resolve(undefined));
});

const reply = (res: ServerResponse, status: number, body: object): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** Starts the receiver on 127.0.0.1 (any free port); `onNotification` hears each new notification once. */
export async function startWebhookReceiver(secret: string, onNotification: (n: ReceivedNotification) => void): Promise<WebhookReceiver> {
  const seen = new Set<string>();
  let count = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST' || req.url !== '/notifications') return reply(res, 404, { error: 'POST /notifications only' });
    const body = await read(req);
    if (!body) return reply(res, 413, { error: `bodies are limited to ${BODY_LIMIT} bytes` });
    const signed = verifyBodySignature(secret, body, { signature: header(req, SIGNATURE_HEADER), timestamp: header(req, TIMESTAMP_HEADER) }, { toleranceSeconds: 300 });
    if (!signed) return reply(res, 401, { error: 'the signature does not match, or the timestamp is outside five minutes' });
    let payload: { idempotency_key?: unknown; event_id?: unknown; title?: unknown; severity?: unknown; test?: unknown };
    try {
      payload = JSON.parse(body.toString('utf8')) as typeof payload;
    } catch {
      return reply(res, 400, { error: 'the body is not JSON' });
    }
    const key = String(payload.idempotency_key ?? '');
    if (seen.has(key)) return reply(res, 200, { ok: true, duplicate: true });
    seen.add(key);
    if (seen.size > KEYS_KEPT) seen.delete(seen.values().next().value!);
    count += 1;
    onNotification({
      event_id: String(payload.event_id ?? ''), title: String(payload.title ?? ''), severity: String(payload.severity ?? ''),
      test: payload.test === true, received_at: Date.now(),
    });
    reply(res, 200, { ok: true });
  };
  const server: Server = createServer((req, res) => { void handle(req, res); });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/notifications`,
    received: () => count,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
