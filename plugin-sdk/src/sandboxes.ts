import type { Counter, Metrics } from './metrics.js';

/**
 * User code in the runtime's sandboxes (`needs: ['sandbox']`). JavaScript functions run in isolated-vm isolates
 * inside child processes: 250 ms and 64 MB per call by default, no require, process, import or network; data in and
 * out as JSON copies. A function that loops, exhausts memory or throws costs one call, never the runtime.
 * Failures are counted in `vigil_sandbox_failures_total{sandbox,reason}`.
 */
export type SandboxFailureReason = 'timeout' | 'memory' | 'thrown' | 'invalid_output' | 'crash' | 'compile' | 'forbidden';

export type SandboxCallResult =
  | { ok: true; value: unknown; durationMs: number; logs?: string[] }
  | { ok: false; error: { reason: SandboxFailureReason; message: string; stack?: string }; durationMs: number; logs?: string[] };

/** A loaded function file: compiled and checked once, called with many inputs. */
export interface SandboxFunction {
  /** `sha256:<hex>` of the source. */
  readonly id: string;
  /** Resolves with a result for anything the function does; rejects only for non-JSON input or a closed sandbox. */
  call(input: unknown): Promise<SandboxCallResult>;
}

export interface Sandboxes {
  /**
   * Loads an ES module whose default export is a function (sync or async). Rejects with a VigilError whose
   * `reason` is `compile` or `forbidden` when the file cannot become a function.
   */
  loadFunction(source: string, filename?: string): Promise<SandboxFunction>;
}

/**
 * `vigil_sandbox_failures_total{sandbox,reason}`: the runtime and every plugin that runs user code (WASM policies,
 * WASM exporters, JavaScript functions) count their failed calls in this one family, registered through here so
 * its help and labels are written once.
 */
export function sandboxFailuresCounter(metrics: Metrics): Counter {
  return metrics.counter('vigil_sandbox_failures_total', { help: 'Sandboxed calls that failed, by sandbox and reason.', labelNames: ['sandbox', 'reason'] });
}
