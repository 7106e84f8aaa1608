// Messages between the sandbox host (sandbox.ts, main side) and a sandbox worker (sandbox-worker.ts).
import type { WasmModule } from './webassembly.js';
import type { SandboxFailureReason } from './errors.js';

/** `workerData` of a sandbox worker. Everything here must be structured-cloneable. */
export interface WorkerInit {
  /** Compiled once on the host; a WebAssembly.Module crosses to workers without recompiling. */
  module: WasmModule;
  /** The module's memory cap, in pages (already written into the module). */
  maxMemoryPages: number;
  /** Bytes the guest may allocate in host memory (Extism blocks: output, vars, logs) during one call. */
  maxHostBytes: number;
  /** Hosts the guest may reach with Extism's http_request; empty means no HTTP at all. */
  allowedHosts: string[];
  /** Largest HTTP response body handed to the guest, in bytes. */
  maxHttpResponseBytes: number;
  /** Wall-clock limit of one HTTP request made by the guest (the call's own limit still applies on top). */
  httpTimeoutMs: number;
  /** Extism config values readable by the guest with Config.get. */
  config: Record<string, string>;
  /** Guest log lines forwarded per call; the rest are dropped. */
  maxLogLinesPerCall: number;
}

export interface CallRequest { type: 'call'; id: number; fn: string; input: Uint8Array }

/** Failures the worker itself can observe; timeouts and worker deaths are seen only by the host. */
export type GuestFailureReason = Extract<SandboxFailureReason, 'trap' | 'memory' | 'crash'>;

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'init_failed'; message: string }
  | { type: 'result'; id: number; output: Uint8Array }
  | { type: 'failure'; id: number; reason: GuestFailureReason; message: string }
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string };
