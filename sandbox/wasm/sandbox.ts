// The WASM sandbox host: Extism guests in worker threads, with a wall-clock limit per call, a memory cap, and
// replacement of any instance that traps, overruns or dies. See README.md in this folder.
import { readFile } from 'node:fs/promises';
import {
  WasmModuleError, WasmSandboxUnavailableError, WasmSandboxErrors, type SandboxFailureReason, type WasmCallError,
} from './errors.js';
import { capModuleMemory, WASM_PAGE_BYTES } from './module-memory.js';
import { checkModuleImports } from './module-imports.js';
import { WorkerSlot, type PendingCall } from './worker-slot.js';
import type { WorkerInit } from './worker-protocol.js';
import { Wasm, type WasmModule } from './webassembly.js';

export interface WasmSandboxOptions {
  /** A path to a .wasm file, or its bytes. */
  module: string | Uint8Array;
  /** Cap of the guest's linear memory, in 64 KiB pages. Default 256 (16 MiB). Written into the module. */
  maxMemoryPages?: number;
  /** Wall-clock limit of one call, in ms, measured on the host. Default 100. */
  callTimeoutMs?: number;
  /** Hosts the guest may reach with Extism's http_request (`*.example.com` patterns allowed). Default: none. */
  allowedHosts?: string[];
  /** Worker threads, each owning one instance; calls run in parallel across them. Default 1. */
  instances?: number;
  /** Calls waiting for an instance before `call` rejects with VIGIL_ERR_WASM_BUSY. Default 1,000. */
  maxQueue?: number;
  /** Bytes of host memory (Extism blocks) a guest may allocate per call. Default: the memory cap in bytes. */
  maxHostBytes?: number;
  /** Largest HTTP response handed to the guest, in bytes. Default 1 MiB. */
  maxHttpResponseBytes?: number;
  /** Values the guest reads with Extism's Config.get. */
  config?: Record<string, string>;
  /** JS heap limit of each worker thread, in MB. Default 64. */
  workerHeapMb?: number;
  /** Called once per failed call (the integrator counts `vigil_sandbox_failures_total{sandbox,reason}`). */
  onFailure?(reason: SandboxFailureReason, err: WasmCallError): void;
  /** Guest log lines (Extism log_*), at most 20 per call. */
  onLog?(level: 'debug' | 'info' | 'warn' | 'error', message: string): void;
}

export interface WasmSandbox {
  /**
   * Calls an export of the guest with `input` (strings are sent as UTF-8) and resolves with its output bytes.
   * Rejects with a WasmCallError (reason timeout, trap, memory or crash) when the guest fails; the instance is
   * replaced and later calls are served. Rejects with VIGIL_ERR_WASM_BUSY / _CLOSED when it cannot take the call.
   */
  call(fn: string, input: Uint8Array | string): Promise<Uint8Array>;
  /** Rejects queued calls and stops the workers. Safe to call twice. */
  close(): Promise<void>;
  /** Instance replacements so far (timeouts and crashes; traps are replaced inside the worker). */
  readonly restarts: number;
}

export const DEFAULT_MAX_MEMORY_PAGES = 256;
export const DEFAULT_CALL_TIMEOUT_MS = 100;

const encoder = new TextEncoder();

/** Runs a caller's hook; a throwing hook must not break the call bookkeeping it is invoked from. */
function guarded(hook: () => void): void {
  try {
    hook();
  } catch {
    // The caller's bug; the sandbox keeps going.
  }
}

/** Input as a Uint8Array that owns its whole buffer, so it can be transferred to the worker without a copy. */
function ownedBytes(input: Uint8Array | string): Uint8Array {
  if (typeof input === 'string') return encoder.encode(input);
  return input.slice();
}

/** Compiles the module with its memory capped; `maxPages` is the cap it ends up with (its own, if lower). */
async function loadModule(module: string | Uint8Array, maxPages: number): Promise<{ compiled: WasmModule; maxPages: number }> {
  let bytes: Uint8Array;
  if (typeof module === 'string') {
    try {
      bytes = await readFile(module);
    } catch (err) {
      throw new WasmModuleError(`cannot read the wasm module ${module}: ${(err as Error).message}`, { cause: err });
    }
  } else {
    bytes = module;
  }
  const where = typeof module === 'string' ? module : 'the wasm module';
  let capped: Uint8Array;
  let effectivePages: number;
  try {
    const result = capModuleMemory(bytes, maxPages);
    capped = result.bytes;
    effectivePages = result.limits.maxPages ?? maxPages;
  } catch (err) {
    throw new WasmModuleError(`${where}: ${(err as Error).message}`, { cause: err });
  }
  let compiled: WasmModule;
  try {
    compiled = await Wasm.compile(capped);
  } catch (err) {
    throw new WasmModuleError(`${where} is not valid WebAssembly: ${(err as Error).message}`, { cause: err });
  }
  checkModuleImports(compiled, where);
  return { compiled, maxPages: effectivePages };
}

/** Loads a module, starts its workers, and resolves once every instance is ready. */
export async function createWasmSandbox(options: WasmSandboxOptions): Promise<WasmSandbox> {
  const maxPages = options.maxMemoryPages ?? DEFAULT_MAX_MEMORY_PAGES;
  const timeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const instances = Math.max(1, Math.floor(options.instances ?? 1));
  const maxQueue = options.maxQueue ?? 1000;
  if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > 65_536) {
    throw new RangeError(`maxMemoryPages must be an integer from 1 to 65536, got ${maxPages}`);
  }
  if (!(timeoutMs > 0)) throw new RangeError(`callTimeoutMs must be positive, got ${timeoutMs}`);

  const loaded = await loadModule(options.module, maxPages);
  const init: WorkerInit = {
    module: loaded.compiled,
    maxMemoryPages: loaded.maxPages,
    maxHostBytes: options.maxHostBytes ?? maxPages * WASM_PAGE_BYTES,
    allowedHosts: options.allowedHosts ?? [],
    maxHttpResponseBytes: options.maxHttpResponseBytes ?? 1 << 20,
    httpTimeoutMs: timeoutMs,
    config: options.config ?? {},
    maxLogLinesPerCall: 20,
  };

  const queue: PendingCall[] = [];
  let closed = false;

  const pump = () => {
    while (queue.length > 0) {
      const slot = slots.find((s) => s.idle);
      if (!slot) break;
      slot.run(queue.shift()!);
    }
    if (queue.length > 0 && slots.every((s) => s.dead)) revive();
  };

  // Every worker failed to restart: try once more, and fail the waiting calls if that fails too, so they never
  // wait forever on a module that cannot start.
  let reviving = false;
  const revive = () => {
    if (reviving || closed) return;
    reviving = true;
    Promise.allSettled(slots.filter((s) => s.dead).map((s) => s.start())).then((outcomes) => {
      reviving = false;
      if (outcomes.some((o) => o.status === 'fulfilled')) return;
      const reason = (outcomes[0] as PromiseRejectedResult | undefined)?.reason as Error | undefined;
      for (const call of queue.splice(0)) {
        call.reject(new WasmSandboxUnavailableError(WasmSandboxErrors.BUSY,
          `the wasm sandbox cannot start its module: ${reason?.message ?? 'unknown error'}`));
      }
    });
  };

  const slots: WorkerSlot[] = [];
  for (let i = 0; i < instances; i++) {
    slots.push(new WorkerSlot(init, {
      timeoutMs,
      heapLimitMb: options.workerHeapMb ?? 64,
      onIdle: pump,
      onFailure: (reason, err) => guarded(() => options.onFailure?.(reason, err)),
      onLog: options.onLog && ((level, message) => guarded(() => options.onLog?.(level, message))),
      onDead: () => { if (queue.length > 0 && slots.every((s) => s.dead)) revive(); },
    }));
  }
  try {
    await Promise.all(slots.map((s) => s.start()));
  } catch (err) {
    await Promise.all(slots.map((s) => s.close()));
    throw new WasmModuleError(`the wasm module failed to start: ${(err as Error).message}`, { cause: err });
  }

  return {
    get restarts() { return slots.reduce((n, s) => n + s.restarts, 0); },
    call(fn, input) {
      if (closed) return Promise.reject(new WasmSandboxUnavailableError(WasmSandboxErrors.CLOSED, 'the wasm sandbox is closed'));
      if (queue.length >= maxQueue) {
        return Promise.reject(new WasmSandboxUnavailableError(WasmSandboxErrors.BUSY,
          `the wasm sandbox queue is full (${maxQueue} calls waiting)`));
      }
      return new Promise<Uint8Array>((resolve, reject) => {
        queue.push({ fn, input: ownedBytes(input), resolve, reject });
        pump();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const call of queue.splice(0)) {
        call.reject(new WasmSandboxUnavailableError(WasmSandboxErrors.CLOSED, 'the wasm sandbox was closed'));
      }
      await Promise.all(slots.map((s) => s.close()));
    },
  };
}
