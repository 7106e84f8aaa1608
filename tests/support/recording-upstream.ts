import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** What one request brought to the upstream, byte for byte. */
export interface Received { method: string; url: string; rawHeaders: string[]; body: Buffer; complete: boolean; aborted: boolean; responseAborted: boolean }
export type Responder = (req: IncomingMessage, res: ServerResponse, got: Received) => void;

/**
 * A real upstream for gateway tests: records exactly what arrives (rawHeaders, body bytes, aborts) and answers with
 * the responder registered for the path (query ignored), else `fallback` (default: 200 "ok").
 */
export async function startRecordingUpstream(
  responders: Record<string, Responder> = {},
  fallback: Responder = (_q, r) => { r.end('ok'); },
): Promise<{ port: number; received: Received[]; server: Server; close(): void }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const got: Received = { method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body: Buffer.alloc(0), complete: false, aborted: false, responseAborted: false };
    received.push(got);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('close', () => { if (!req.complete) got.aborted = true; });
    res.on('close', () => { if (!res.writableFinished) got.responseAborted = true; });
    const respond = responders[req.url!.split('?')[0]] ?? fallback;
    req.on('end', () => { got.body = Buffer.concat(chunks); got.complete = true; respond(req, res, got); });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    received,
    server,
    close() { server.closeAllConnections(); server.close(); },
  };
}
