// A local server answering what Vigil answers to Langfuse SDKs, with Vigil's modules: Basic auth whose secret is
// the project key, POST /api/public/ingestion (parse, merge, 207), POST /api/public/otel/v1/traces (OTLP decode
// and mapping), GET /api/public/health. It keeps the items and scores for the test to assert.
import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { TraceItem } from '../../../plugins/llm/trace-item.js';
import { langfuseCredentials, langfuseHealthBody } from '../../../plugins/llm/langfuse/basic-auth.js';
import { LangfuseBatchError, parseIngestionBatch } from '../../../plugins/llm/langfuse/ingestion-event.js';
import { ingestionResponse, INGESTION_STATUS } from '../../../plugins/llm/langfuse/ingestion-response.js';
import { applyLangfuseBatch } from '../../../plugins/llm/langfuse/apply-batch.js';
import { MemoryStateStore } from '../../../plugins/llm/langfuse/state-store.js';
import type { LangfuseScore } from '../../../plugins/llm/langfuse/score.js';
import { decodeOtlpBody, encodeOtlpResponse, otlpEncodingOf } from '../../../plugins/llm/otlp/export-body.js';
import { mapOtlpRequest, partialSuccessOf } from '../../../plugins/llm/otlp/map-request.js';

export interface LangfuseReceiver {
  url: string;
  items: TraceItem[];
  scores: LangfuseScore[];
  requests: { method: string; path: string; status: number; contentType: string; publicKey?: string; body?: unknown }[];
  close(): Promise<void>;
}

export async function startLangfuseReceiver(projectKey: string): Promise<LangfuseReceiver> {
  const store = new MemoryStateStore();
  const items: TraceItem[] = [];
  const scores: LangfuseScore[] = [];
  const requests: LangfuseReceiver['requests'] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let raw = Buffer.concat(chunks);
    if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
    const path = (req.url ?? '').split('?')[0];
    const contentType = String(req.headers['content-type'] ?? '');
    const send = (status: number, type: string, body: string | Uint8Array, seen?: unknown) => {
      requests.push({ method: req.method ?? '', path, status, contentType, publicKey: creds?.publicKey, body: seen });
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    const creds = langfuseCredentials(req.headers.authorization);
    if (req.method === 'GET' && path === '/api/public/health') return send(200, 'application/json', JSON.stringify(langfuseHealthBody('test')));
    if (!creds || creds.projectKey !== projectKey) return send(401, 'application/json', JSON.stringify({ message: 'unknown project key' }));
    if (req.method === 'POST' && path === '/api/public/ingestion') {
      try {
        const { events, errors } = parseIngestionBatch(JSON.parse(raw.toString('utf8')));
        const applied = await applyLangfuseBatch(store, events);
        items.push(...applied.items);
        scores.push(...applied.scores);
        const answer = ingestionResponse(applied.applied, errors);
        return send(INGESTION_STATUS, 'application/json', JSON.stringify(answer), answer);
      } catch (err) {
        const status = err instanceof LangfuseBatchError || err instanceof SyntaxError ? 400 : 500;
        return send(status, 'application/json', JSON.stringify({ message: (err as Error).message }));
      }
    }
    if (req.method === 'POST' && path === '/api/public/otel/v1/traces') {
      const encoding = otlpEncodingOf(contentType);
      if (!encoding) return send(415, 'application/json', '{}');
      try {
        const result = mapOtlpRequest(decodeOtlpBody(contentType, raw));
        items.push(...result.items);
        const response = encodeOtlpResponse(encoding, partialSuccessOf(result.rejected));
        return send(200, response.contentType, response.body);
      } catch (err) {
        return send(400, 'application/json', JSON.stringify({ message: (err as Error).message }));
      }
    }
    return send(404, 'application/json', '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`, items, scores, requests,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
