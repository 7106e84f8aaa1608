import { VigilError } from '@vigil/plugin-sdk';

/** Why a sandboxed call failed; the `reason` label of `vigil_sandbox_failures_total`. */
export type SandboxFailureReason = 'timeout' | 'trap' | 'memory' | 'invalid_output' | 'crash';

export const SANDBOX_FAILURE_REASONS: readonly SandboxFailureReason[] = [
  'timeout', 'trap', 'memory', 'invalid_output', 'crash',
];

/** Error codes of the WASM sandbox layer. */
export const WasmErrorCodes = {
  timeout: 'VIGIL_ERR_WASM_TIMEOUT',
  trap: 'VIGIL_ERR_WASM_TRAP',
  memory: 'VIGIL_ERR_WASM_MEMORY',
  invalid_output: 'VIGIL_ERR_WASM_INVALID_OUTPUT',
  crash: 'VIGIL_ERR_WASM_CRASH',
  module: 'VIGIL_ERR_WASM_MODULE',
  closed: 'VIGIL_ERR_WASM_CLOSED',
  busy: 'VIGIL_ERR_WASM_BUSY',
  build: 'VIGIL_ERR_WASM_BUILD',
} as const;

/** A call that failed because of the guest: it trapped, overran, ran out of memory or answered nonsense. */
export class WasmCallError extends VigilError {
  readonly reason: SandboxFailureReason;
  constructor(reason: SandboxFailureReason, message: string, options?: { cause?: unknown }) {
    super(WasmErrorCodes[reason], message, options);
    this.name = 'WasmCallError';
    this.reason = reason;
  }
}

/** A module that cannot be loaded: not WebAssembly, imports the sandbox does not provide, memory above the cap. */
export class WasmModuleError extends VigilError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(WasmErrorCodes.module, message, options);
    this.name = 'WasmModuleError';
  }
}

/** The sandbox was closed, or its queue is full; not the guest's fault, so not a sandbox failure. */
export class WasmSandboxUnavailableError extends VigilError {
  constructor(code: typeof WasmErrorCodes.closed | typeof WasmErrorCodes.busy, message: string) {
    super(code, message, { status: 503 });
    this.name = 'WasmSandboxUnavailableError';
  }
}

/** `asc` rejected a policy, or the built module breaks the policy ABI. `diagnostics` is asc's own output. */
export class WasmBuildError extends VigilError {
  readonly diagnostics: string;
  constructor(message: string, diagnostics = '') {
    super(WasmErrorCodes.build, diagnostics ? `${message}\n${diagnostics}` : message, { status: 400 });
    this.name = 'WasmBuildError';
    this.diagnostics = diagnostics;
  }
}

/** The failure reason carried by `err`, or undefined when it is not a guest failure (closed, busy, a bug). */
export function sandboxFailureReason(err: unknown): SandboxFailureReason | undefined {
  return err instanceof WasmCallError ? err.reason : undefined;
}
