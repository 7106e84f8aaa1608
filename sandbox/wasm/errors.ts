import { defineErrorCodes, VigilError, type ErrorCodeOf } from '@vigil/plugin-sdk';

/** Why a sandboxed call failed; the `reason` label of `vigil_sandbox_failures_total`. */
export type SandboxFailureReason = 'timeout' | 'trap' | 'memory' | 'invalid_output' | 'crash';

export const SANDBOX_FAILURE_REASONS: readonly SandboxFailureReason[] = [
  'timeout', 'trap', 'memory', 'invalid_output', 'crash',
];

/**
 * Codes of the WASM sandbox (policy modules named by a rule's `wasm:`, wasm exporters, `vigil policy build`). The first
 * five are guest failures, one per `SandboxFailureReason` and counted in `vigil_sandbox_failures_total`; the others are
 * not. A record whose module call failed keeps no bodies: governance fails closed.
 */
export const WasmSandboxErrors = defineErrorCodes('WASM', {
  TIMEOUT: {
    meaning: 'A WASM call ran past its time limit (100 ms by default); the worker running it was replaced.',
    action: 'Make the module do less per call (a loop over the whole body?); reproduce it offline with `vigil policy test`.',
  },
  TRAP: {
    meaning: 'The guest trapped: `unreachable`, an AssemblyScript abort (its message and file:line are kept), a stack ' +
      'overflow, a missing export.',
    action: 'Fix the module where the message points; `vigil policy test` runs it on test cases.',
  },
  MEMORY: {
    meaning: 'The guest reached its memory cap (256 pages of 64 KiB by default, or its own lower maximum), or allocated ' +
      'more host memory in one call than allowed.',
    action: 'Make the module allocate less per call, or build it with a larger --maximumMemory within the cap.',
  },
  INVALID_OUTPUT: {
    meaning: 'The guest answered something that breaks the ABI: output that is not UTF-8 or not JSON, or JSON of the wrong ' +
      'shape (a policy\'s decision, or a transform\'s `{ "records": [...] }`).',
    action: 'Write the output with plugin-sdk\'s outputJson (not Host.outputString), in the shape the message names.',
  },
  CRASH: {
    meaning: 'The worker thread running the guest died (an uncaught error, V8 out of memory); it was replaced.',
    action: 'If it repeats with one module, reproduce it with `vigil policy test` and report it with the log lines.',
  },
  MODULE: {
    meaning: 'A WASM module cannot be loaded: unreadable, not WebAssembly, truncated, importing what the sandbox does not ' +
      'provide (only Extism and AssemblyScript env imports; no WASI), importing or sharing its memory, or needing more ' +
      'memory than the cap; or it failed to start.',
    action: 'Build policies with `vigil policy build`, which produces modules the sandbox accepts; the message names the ' +
      'file and the offending import or section.',
  },
  CLOSED: {
    meaning: 'The WASM sandbox was closed while the call waited or ran: Vigil is stopping.',
    action: 'Nothing: the record fails closed (no bodies kept). Not counted as a guest failure.',
  },
  BUSY: {
    meaning: 'Too many calls (`maxQueue`, default 1,000) already wait for the module\'s instance; this call is refused.',
    action: 'A module that is too slow for the traffic: make it faster. A wasm exporter retries the batch later. Not counted ' +
      'as a guest failure.',
  },
  BUILD: {
    meaning: '`vigil policy build` could not make a module: the source is not an AssemblyScript .ts file or does not ' +
      'exist, asc rejected it (its diagnostics follow), or the output breaks the policy ABI.',
    action: 'Fix the source where asc\'s diagnostics point; sandbox/wasm/README.md describes the policy ABI.',
  },
});

const byReason: Readonly<Record<SandboxFailureReason, ErrorCodeOf<typeof WasmSandboxErrors>>> = {
  timeout: WasmSandboxErrors.TIMEOUT,
  trap: WasmSandboxErrors.TRAP,
  memory: WasmSandboxErrors.MEMORY,
  invalid_output: WasmSandboxErrors.INVALID_OUTPUT,
  crash: WasmSandboxErrors.CRASH,
};

/** A call that failed because of the guest: it trapped, overran, ran out of memory or answered nonsense. */
export class WasmCallError extends VigilError {
  readonly reason: SandboxFailureReason;
  constructor(reason: SandboxFailureReason, message: string, options?: { cause?: unknown }) {
    super(byReason[reason], message, options);
    this.name = 'WasmCallError';
    this.reason = reason;
  }
}

/** A module that cannot be loaded: not WebAssembly, imports the sandbox does not provide, memory above the cap. */
export class WasmModuleError extends VigilError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(WasmSandboxErrors.MODULE, message, options);
    this.name = 'WasmModuleError';
  }
}

/** The sandbox was closed, or its queue is full; not the guest's fault, so not a sandbox failure. */
export class WasmSandboxUnavailableError extends VigilError {
  constructor(code: typeof WasmSandboxErrors.CLOSED | typeof WasmSandboxErrors.BUSY, message: string) {
    super(code, message, { status: 503 });
    this.name = 'WasmSandboxUnavailableError';
  }
}

/** `asc` rejected a policy, or the built module breaks the policy ABI. `diagnostics` is asc's own output. */
export class WasmBuildError extends VigilError {
  readonly diagnostics: string;
  constructor(message: string, diagnostics = '') {
    super(WasmSandboxErrors.BUILD, diagnostics ? `${message}\n${diagnostics}` : message, { status: 400 });
    this.name = 'WasmBuildError';
    this.diagnostics = diagnostics;
  }
}

/** The failure reason carried by `err`, or undefined when it is not a guest failure (closed, busy, a bug). */
export function sandboxFailureReason(err: unknown): SandboxFailureReason | undefined {
  return err instanceof WasmCallError ? err.reason : undefined;
}
