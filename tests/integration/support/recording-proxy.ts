// A pass-through HTTP proxy in front of a real `vigil run`. It forwards every request byte for byte and records
// what went by: what the real client sent (path, content type, headers) and what Vigil answered (status, body).
// The SDKs under test keep their requests and Vigil's answers to themselves (an OTLP exporter only logs a
// partial_success, the Langfuse SDK swallows a 401), and these are what the tests check. Bodies are not interpreted.
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';

export interface Exchange {
  method: string;
  path: string;
  /** The request's content type. */
  contentType: string;
  headers: IncomingHttpHeaders;
  /** The request's body as sent (gunzipped when the client compressed it). */
  request: Buffer;
  status: number;
  /** The answer's content type and body (gunzipped when Vigil compressed it). */
  responseType: string;
  response: Buffer;
}

export interface RecordingProxy {
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

const readAll = async (stream: AsyncIterable<unknown>): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const exchanges: Exchange[] = [];
  const { host } = new URL(target);
  const server = createServer(async (req, res) => {
    const body = await readAll(req);
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, host } }, async (answer) => {
      const raw = await readAll(answer);
      exchanges.push({
        method: req.method ?? '', path: (req.url ?? '').split('?')[0], contentType: String(req.headers['content-type'] ?? ''), headers: req.headers,
        request: req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body,
        status: answer.statusCode ?? 0, responseType: String(answer.headers['content-type'] ?? ''),
        response: answer.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw,
      });
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.end(raw);
    });
    upstream.on('error', (err) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`recording proxy: ${err.message}`);
    });
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
