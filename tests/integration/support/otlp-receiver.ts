// A local HTTP receiver for OTLP/HTTP trace exports: it keeps each request's raw body and content type, and answers
// with an empty ExportTraceServiceResponse in the request's encoding, as a collector does on full success. The
// test decodes and maps the bodies afterwards with Vigil's decoder and mapping.
import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';

export interface ReceivedExport {
  path: string;
  contentType: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface OtlpReceiver {
  url: string;
  received: ReceivedExport[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(answer?: (exp: ReceivedExport) => { status: number; contentType: string; body: Uint8Array | string }): Promise<OtlpReceiver> {
  const received: ReceivedExport[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body = Buffer.concat(chunks);
    if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    const exp = { path: req.url ?? '', contentType: String(req.headers['content-type'] ?? ''), headers: req.headers, body };
    received.push(exp);
    const a = answer?.(exp) ?? (exp.contentType.includes('json')
      ? { status: 200, contentType: 'application/json', body: '{}' }
      : { status: 200, contentType: 'application/x-protobuf', body: new Uint8Array(0) });
    res.writeHead(a.status, { 'content-type': a.contentType });
    res.end(a.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
