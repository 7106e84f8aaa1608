import { httpFailure, signBody, SIGNATURE_HEADER, TIMESTAMP_HEADER, type ReceiverErrorCodes } from '@vigil/plugin-sdk';
import { Agent, request } from 'undici';
import type { Exporter, ExporterDeps, ExportRecord } from './exporter.js';
import { ExporterClosedError, ExporterErrors, receiverUnavailable } from './errors.js';
import { recordsEnvelope } from './records-envelope.js';

export interface WebhookExporterOptions {
  name: string;
  url: string;
  /** Signs each body; without it no signature header is sent. */
  secret?: string;
  /** Extra request headers (an API key, say). They cannot replace the content type or the signature headers. */
  headers?: Record<string, string>;
}

/** The codes the SDK's `httpFailure` gives an exporter's receiver errors. */
export const exporterReceiverCodes: ReceiverErrorCodes = { rejected: ExporterErrors.REJECTED, unavailable: ExporterErrors.UNAVAILABLE };

/** Bytes of an error response kept for the log line. */
const DETAIL_BYTES = 512;

/**
 * POSTs each batch as `{"records":[...]}`, each record its JSON text as it is, with `X-Vigil-Timestamp` the send time
 * in Unix seconds. With a secret, `X-Vigil-Signature: sha256=<hex>` is the HMAC-SHA256 of the timestamp, a dot and
 * the exact body bytes.
 */
export function createWebhookExporter(options: WebhookExporterOptions, deps: ExporterDeps): Exporter<ExportRecord> {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 2 });
  const fixedHeaders: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.headers ?? {})) fixedHeaders[key.toLowerCase()] = value;
  const target = `webhook ${options.name} (${redactUrl(options.url)})`;
  let closed = false;

  return {
    async send(batch, signal) {
      if (closed) throw new ExporterClosedError(options.name);
      const body = Buffer.from(recordsEnvelope(batch), 'utf8');
      const timestamp = String(Math.floor(Date.now() / 1000));
      const headers: Record<string, string> = {
        ...fixedHeaders,
        'content-type': 'application/json',
        'user-agent': 'vigil-exporters',
        [TIMESTAMP_HEADER]: timestamp,
      };
      if (options.secret) headers[SIGNATURE_HEADER] = signBody(options.secret, timestamp, body);
      let response;
      try {
        response = await request(options.url, { method: 'POST', body, headers, signal, dispatcher: agent });
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        throw receiverUnavailable(`${target} unreachable: ${(err as Error).message}`, { cause: err });
      }
      const { statusCode } = response;
      if (statusCode >= 200 && statusCode < 300) {
        await response.body.dump();
        return;
      }
      const detail = await readDetail(response.body);
      deps.log.debug('webhook answered with an error', { status: statusCode, detail });
      throw httpFailure(target, statusCode, { codes: exporterReceiverCodes, retryAfter: response.headers['retry-after'], detail });
    },
    async shutdown() {
      if (closed) return;
      closed = true;
      await agent.destroy();
    },
  };
}

async function readDetail(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      parts.push(chunk);
      size += chunk.length;
      if (size >= DETAIL_BYTES) break;
    }
  } catch {
    // The status is what matters; a body cut short is fine.
  }
  body.destroy();
  return Buffer.concat(parts).subarray(0, DETAIL_BYTES).toString('utf8').replace(/\s+/g, ' ').trim();
}

/** The URL without credentials or query, for logs (a token in a query string must not reach them). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '<invalid url>';
  }
}
