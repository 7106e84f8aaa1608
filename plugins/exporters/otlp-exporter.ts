import { OTLPLogExporter as OtlpJsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as OtlpProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { httpFailure } from '@vigil/plugin-sdk';
import type { Exporter, ExporterDeps, ExportRecord } from './exporter.js';
import { ExporterClosedError, receiverUnavailable } from './errors.js';
import { toLogRecord } from './otlp-log-records.js';
import { exporterReceiverCodes, redactUrl } from './webhook-exporter.js';

export interface OtlpExporterOptions {
  name: string;
  /** Collector base URL (`http://collector:4318`); `/v1/logs` is appended unless the path already ends with it. */
  endpoint: string;
  /** Default `http/protobuf`, the OTLP default. */
  protocol?: 'http/json' | 'http/protobuf';
  headers?: Record<string, string>;
  /** Default `vigil`. */
  serviceName?: string;
  resourceAttributes?: Record<string, string | number | boolean>;
  /** The exporter's own request timeout; set it to the queue's attempt timeout. Default 10,000. */
  timeoutMs?: number;
  /** Reported as the instrumentation scope's version. */
  version?: string;
}

/** ExportResultCode.SUCCESS in @opentelemetry/core (not a direct dependency). */
const EXPORT_SUCCESS = 0;

/** The logs endpoint for a collector base URL. */
export function logsUrl(endpoint: string): string {
  const url = new URL(endpoint);
  if (!url.pathname.endsWith('/v1/logs')) url.pathname = url.pathname.replace(/\/?$/, '/v1/logs');
  return url.toString();
}

/**
 * Sends each batch as one OTLP/HTTP logs request through the official exporter's `export`. No BatchLogRecordProcessor:
 * the delivery queue already batches and retries. The official transport still retries 429/502/503/504 on its own
 * inside one attempt's timeout; what it finally reports is mapped here to permanent (4xx other than 408/429) or
 * retryable (everything else).
 */
export function createOtlpExporter(options: OtlpExporterOptions, _deps: ExporterDeps): Exporter<ExportRecord> {
  const url = logsUrl(options.endpoint);
  const config = { url, headers: { ...options.headers }, timeoutMillis: options.timeoutMs ?? 10_000, concurrencyLimit: 4 };
  const exporter = options.protocol === 'http/json' ? new OtlpJsonLogExporter(config) : new OtlpProtoLogExporter(config);
  const attributes = options.resourceAttributes ?? {};
  const resource = resourceFromAttributes({
    ...attributes,
    'service.name': options.serviceName ?? (attributes['service.name'] as string | undefined) ?? 'vigil',
  });
  // One scope object for the exporter's life: the serializer groups log records by scope identity.
  const scope = { name: 'vigil.exporters', version: options.version };
  const target = `otlp ${options.name} (${redactUrl(url)})`;
  let closed = false;

  return {
    send(batch, signal) {
      if (closed) return Promise.reject(new ExporterClosedError(options.name));
      if (signal.aborted) return Promise.reject(signal.reason);
      const now = Date.now();
      const logRecords = batch.map((record) => toLogRecord(record, resource, scope, now));
      return new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        exporter.export(logRecords, (result: { code: number; error?: Error }) => {
          signal.removeEventListener('abort', onAbort);
          if (result.code === EXPORT_SUCCESS) resolve();
          else reject(classify(target, result.error));
        });
      });
    },
    async shutdown() {
      if (closed) return;
      closed = true;
      await exporter.shutdown();
    },
  };
}

function classify(target: string, error: Error | undefined): Error {
  const status = (error as { code?: unknown } | undefined)?.code;
  if (typeof status === 'number' && status >= 300) {
    const data = (error as { data?: unknown }).data;
    return httpFailure(target, status, { codes: exporterReceiverCodes, ...(typeof data === 'string' ? { detail: data.slice(0, 512) } : {}) });
  }
  return receiverUnavailable(`${target} failed: ${error?.message ?? 'unknown error'}`, { cause: error });
}
