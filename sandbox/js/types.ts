/**
 * Public types of the JavaScript sandbox: user functions run in isolated-vm isolates, in child processes.
 */

/** Why a call failed. Stable: metrics label failures with it (`vigil_sandbox_failures_total{sandbox,reason}`). */
export type JsFailureReason =
  | 'timeout' // the call ran past its wall-clock limit (awaited promises included)
  | 'memory' // the isolate reached its memory limit, or its process died of memory exhaustion
  | 'thrown' // the function threw or its promise rejected
  | 'invalid_output' // the result is not JSON, or is larger than maxOutputBytes
  | 'crash' // the sandbox process died or was replaced while the call ran
  | 'compile' // the file is not a valid ES module with a default export function
  | 'forbidden'; // the function reached for something sandboxed functions do not have (process, require, import, timers)

export interface JsFailure {
  reason: JsFailureReason;
  message: string;
  /** The guest's stack trace, when the function threw an Error. Frames name the function's file. */
  stack?: string;
}

export type JsResult =
  | { ok: true; value: unknown; durationMs: number; logs?: string[] }
  | { ok: false; error: JsFailure; durationMs: number; logs?: string[] };

export interface JsSandboxOptions {
  /** Child processes that host isolates. Default 1. */
  processes?: number;
  /** Warm isolates per process; also the number of calls a process runs at once. Default 2. */
  isolatesPerProcess?: number;
  /** Wall-clock limit of one call, in ms, awaited promises included. Default 250. */
  timeoutMs?: number;
  /** Memory limit of each isolate, in MB (isolated-vm's minimum is 8). Default 64. */
  memoryLimitMb?: number;
  /** Largest result accepted, in bytes of UTF-8 JSON. Default 1 MiB. */
  maxOutputBytes?: number;
  /** Deepest nesting of arrays and objects accepted in a result, so that the host can serialise it. Default 256. */
  maxOutputDepth?: number;
  /** Calls waiting for a free isolate before `call` rejects with VIGIL_ERR_SANDBOX_BUSY. Default 1,000. */
  maxQueue?: number;
  /**
   * How long past `timeoutMs` the parent waits for a process before it kills and replaces it, in ms. This bound
   * catches a process stuck in a way its isolates cannot interrupt. Default 250.
   */
  graceMs?: number;
  /** Called once per failed call (and for a process that fails to start), e.g. to count failures by reason. */
  onFailure?(reason: JsFailureReason, err?: unknown): void;
  /** Called each time a process is replaced: `memory`, `crash`, `overrun` or `catastrophic`. */
  onRestart?(cause: string): void;
  /**
   * Called once per call retried on a fresh process because the process running it died (`cause` as in onRestart).
   * A call is retried once; if its second process dies too, it fails with `crash` (or `memory`).
   */
  onRetry?(cause: string): void;
}

/** A loaded function: compiled and checked once, then called with many inputs. */
export interface JsFunction {
  /** `sha256:<hex>` of the source: the same source loads to the same function. */
  readonly id: string;
  /**
   * Never rejects for anything the function does; rejects only for an input that is not JSON
   * (VIGIL_ERR_SANDBOX_INPUT), a full queue (VIGIL_ERR_SANDBOX_BUSY) or a closed sandbox (VIGIL_ERR_SANDBOX_CLOSED).
   */
  call(input: unknown): Promise<JsResult>;
}

/** Heap figures of one sandbox process, for leak checks and gauges. */
export interface JsProcessStats {
  pid: number;
  /** Calls this process has answered. */
  calls: number;
  /** One entry per warm isolate. */
  isolates: Array<{
    usedHeapBytes: number;
    totalHeapBytes: number;
    externalBytes: number;
    /** Live isolated-vm handles (references, contexts, scripts): grows if handles leak. */
    references: number;
  }>;
  /** The host process's own V8 heap in use. */
  hostHeapUsedBytes: number;
}

export interface JsSandbox {
  /**
   * Compiles and checks a function file (an ES module whose default export is a function), cached by content hash.
   * Rejects with a JsSandboxError whose `reason` is `compile`, `forbidden`, `thrown`, `timeout`, `memory` or
   * `crash` when the module cannot become a function.
   */
  load(source: string, filename?: string): Promise<JsFunction>;
  /** Kills the processes. Queued and running calls end with reason `crash`. Safe to call twice. */
  close(): Promise<void>;
  /** Processes replaced since creation. */
  readonly restarts: number;
  /** Calls retried on a fresh process since creation, after the process running them died. */
  readonly retries: number;
  /** Heap figures of each live process. */
  stats(): Promise<JsProcessStats[]>;
}
