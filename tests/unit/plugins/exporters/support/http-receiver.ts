import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** The raw body bytes, exactly as received. */
  body: Buffer;
}

export interface HttpReceiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 that keeps every request's raw body and answers with `respond` (default 200).
 * `port` reuses a given port, to bring a receiver back up where it was down.
 */
export function startReceiver(
  respond: (req: ReceivedRequest, res: ServerResponse, index: number) => void = (_req, res) => { res.end('{}'); },
  port = 0,
): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(received);
      respond(received, res, requests.length - 1);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${actual}`,
        port: actual,
        requests,
        close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
      });
    });
  });
}

/** The two headers a webhook receiver verifies, as `verifyBodySignature` takes them. */
export function signedHeaders(req: ReceivedRequest): { signature: string | undefined; timestamp: string | undefined } {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  return { signature: one(req.headers['x-vigil-signature']), timestamp: one(req.headers['x-vigil-timestamp']) };
}
