import type { WasmSandbox, WasmSandboxOptions } from '../../sandbox/wasm/index.js';
import type { Exporter, ExporterDeps, ExportRecord } from './exporter.js';
import { ExporterClosedError, TransformError, receiverUnavailable } from './errors.js';
import { recordsEnvelope } from './records-envelope.js';

export interface WasmExporterOptions {
  name: string;
  /** Absolute path of the Extism module; it exports `transform`. */
  module: string;
  /** Name of the exporter receiving the transformed batch (for messages). */
  next: string;
  /** Hosts the module may reach with Extism's http_request. Default: none. */
  allowedHosts?: string[];
  /** Wall-clock limit of one `transform` call. Default 1,000 ms. */
  callTimeoutMs?: number;
  /** Guest memory cap in 64 KiB pages. Default: the sandbox's (256, 16 MiB). */
  maxMemoryPages?: number;
  /** Pushes the transformed records into the next exporter's queue; returns how many it accepted. */
  forward(records: ExportRecord[]): number;
  /** Each failed guest call, with the sandbox's reason (timeout, trap, memory, invalid_output, crash). */
  onFailure?(reason: string): void;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Runs each batch through a WASM module's `transform` (`{ "records": [...] }` in and out) and hands the result to
 * the next exporter's queue. The module reads the records' JSON texts as they are; what it returns is parsed (to
 * check its shape) and each record goes on as its JSON, with the key fields it holds. It fails closed: when the guest traps, overruns, runs out of memory or answers
 * anything but `{ "records": [objects] }`, nothing is forwarded and the batch counts as failed.
 */
export async function createWasmExporter(options: WasmExporterOptions, deps: ExporterDeps): Promise<Exporter<ExportRecord>> {
  // Loaded only when a wasm exporter is configured: Extism and its workers cost nothing otherwise.
  const { createWasmSandbox, sandboxFailureReason, WasmSandboxErrors } = await import('../../sandbox/wasm/index.js');
  const sandboxOptions: WasmSandboxOptions = {
    module: options.module,
    callTimeoutMs: options.callTimeoutMs ?? 1_000,
    allowedHosts: options.allowedHosts ?? [],
    onFailure: (reason) => options.onFailure?.(reason),
    onLog: (level, message) => deps.log[level]('wasm exporter guest log', { message }),
  };
  if (options.maxMemoryPages !== undefined) sandboxOptions.maxMemoryPages = options.maxMemoryPages;
  const sandbox: WasmSandbox = await createWasmSandbox(sandboxOptions);
  const what = `wasm exporter ${options.name}`;
  let closed = false;

  async function transform(batch: ExportRecord[], signal: AbortSignal): Promise<ExportRecord[]> {
    let output: Uint8Array;
    try {
      output = await raceAbort(sandbox.call('transform', recordsEnvelope(batch)), signal);
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if (sandboxFailureReason(err) !== undefined) throw new TransformError(`${what}: ${(err as Error).message}`, { cause: err });
      if ((err as { code?: string }).code === WasmSandboxErrors.BUSY) {
        throw receiverUnavailable(`${what}: ${(err as Error).message}`, { cause: err });
      }
      throw err;
    }
    const records = parseOutput(output);
    if (records === undefined) {
      options.onFailure?.('invalid_output');
      throw new TransformError(`${what}: transform must return {"records": [objects]} as UTF-8 JSON; got ${preview(output)}`);
    }
    return records;
  }

  return {
    async send(batch, signal) {
      if (closed) throw new ExporterClosedError(options.name);
      const records = await transform(batch, signal);
      if (records.length === 0) return;
      const accepted = options.forward(records);
      if (accepted < records.length) {
        deps.log.debug('next exporter queue refused records', { next: options.next, refused: records.length - accepted });
      }
    },
    async shutdown() {
      if (closed) return;
      closed = true;
      await sandbox.close();
    },
  };
}

function parseOutput(bytes: Uint8Array): ExportRecord[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  const records = (value as { records?: unknown } | null)?.records;
  if (!Array.isArray(records)) return undefined;
  if (!records.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) return undefined;
  return (records as Record<string, unknown>[]).map(exportRecordOf);
}

/** A module's record as the next exporter takes it: its JSON, and the key fields it holds with their types. */
function exportRecordOf(r: Record<string, unknown>): ExportRecord {
  const out: { -readonly [K in keyof ExportRecord]: ExportRecord[K] } = { json: JSON.stringify(r) };
  if (typeof r.id === 'string') out.id = r.id;
  if (typeof r.time === 'number') out.time = r.time;
  if (typeof r.method === 'string') out.method = r.method;
  if (typeof r.path === 'string') out.path = r.path;
  if (typeof r.status === 'number') out.status = r.status;
  if (typeof r.error === 'string' || r.error === null) out.error = r.error;
  if (Array.isArray(r.route) && r.route.every((g) => typeof g === 'string')) out.route = r.route as string[];
  if (isStringMap(r.labels)) out.labels = r.labels;
  return out;
}

function isStringMap(value: unknown): value is Record<string, string> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

function preview(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.subarray(0, 120)).toString('utf8');
  return JSON.stringify(bytes.length > 120 ? `${text}…` : text);
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) { work.catch(() => {}); return Promise.reject(signal.reason); }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then((v) => { signal.removeEventListener('abort', onAbort); resolve(v); },
      (e) => { signal.removeEventListener('abort', onAbort); reject(e); });
  });
}
