import { defineErrorCodes, VigilError, type ErrorCodeOf } from '@vigil/plugin-sdk';
import type { JsFailureReason } from './types.js';

/**
 * Codes of the JavaScript sandbox (user functions: `vigil fn run`, and plugins' `ctx.sandbox.loadFunction`). The first
 * seven are failures a function's file causes, one per `JsFailureReason`; the others are misuse or overload by the host.
 */
export const JsSandboxErrors = defineErrorCodes('SANDBOX', {
  TIMEOUT: {
    meaning: 'A function ran past its time limit per call (default 250 ms, awaited promises included); reason `timeout`.',
    action: 'Make the function faster (an endless loop or a promise that never settles?), or raise the limit (`timeoutMs`, ' +
      '`vigil fn run --timeout`).',
  },
  MEMORY: {
    meaning: 'A function\'s isolate reached its memory limit (default 64 MB), or its process died of memory exhaustion; ' +
      'reason `memory`.',
    action: 'Make the function allocate less (unbounded arrays or strings?), or raise `memoryLimitMb` (`vigil fn run --memory`).',
  },
  THROWN: {
    meaning: 'A function threw, or its promise rejected (also: a rejection it left unhandled); reason `thrown`.',
    action: 'Fix the function: the message and the stack, whose frames name its file, say where it threw.',
  },
  INVALID_OUTPUT: {
    meaning: 'A function returned something JSON cannot carry (a function, a cycle, a BigInt), or a result larger than ' +
      '`maxOutputBytes` (1 MiB) or nested deeper than `maxOutputDepth`; reason `invalid_output`.',
    action: 'Return plain JSON data (objects, arrays, strings, numbers, booleans, null), within the limits.',
  },
  CRASH: {
    meaning: 'The sandbox process died or was replaced while the call ran, and the call failed again on a healthy process ' +
      '(or the processes could not start); reason `crash`.',
    action: 'The function itself most likely kills its process (native recursion, a huge allocation): reproduce it with ' +
      '`vigil fn run`. If every function fails, the message carries the process\'s last words (isolated-vm not built for ' +
      'this Node version?).',
  },
  COMPILE: {
    meaning: 'A function file is not a valid ES module whose default export is a function; reason `compile`.',
    action: 'Fix the syntax at the position the message gives, and `export default function (input) { … }`.',
  },
  FORBIDDEN: {
    meaning: 'A function reached for something sandboxed functions do not have: process, require, import, timers, network, ' +
      'WebAssembly, Atomics; reason `forbidden`.',
    action: 'Bundle what the function needs into its file and await your own promises instead of timers; sandbox/js/README.md ' +
      'lists what a function has.',
  },
  OPTIONS: {
    meaning: 'The sandbox was created with an option out of range (a time or memory limit, a queue size) or a hook that is ' +
      'not a function.',
    action: 'Use a value within the range the message gives (e.g. `vigil fn run --memory` of at least 8).',
  },
  INPUT: {
    meaning: 'The input given to a function is not JSON (undefined, a function, a cycle) or nested too deeply, or `load` ' +
      'got no source text.',
    action: '`vigil fn run`: pass JSON to --input; plugin authors: call with plain JSON data.',
  },
  CLOSED: {
    meaning: 'The sandbox was used after it was closed: Vigil is stopping.',
    action: 'Nothing during shutdown; plugin authors: stop calling functions in `stop()`.',
  },
  BUSY: {
    meaning: 'Too many calls (`maxQueue`, default 1,000) are already waiting for a free isolate; this call is refused (503).',
    action: 'Send fewer calls at once, or make the functions faster; the queue drains as calls finish.',
  },
});

const byReason: Readonly<Record<JsFailureReason, ErrorCodeOf<typeof JsSandboxErrors>>> = {
  timeout: JsSandboxErrors.TIMEOUT,
  memory: JsSandboxErrors.MEMORY,
  thrown: JsSandboxErrors.THROWN,
  invalid_output: JsSandboxErrors.INVALID_OUTPUT,
  crash: JsSandboxErrors.CRASH,
  compile: JsSandboxErrors.COMPILE,
  forbidden: JsSandboxErrors.FORBIDDEN,
};

/** The code of a failure a function's file caused. */
export const failureCode = (reason: JsFailureReason): ErrorCodeOf<typeof JsSandboxErrors> => byReason[reason];

/** An error of the JavaScript sandbox. `reason` is set when a user's function file caused it. */
export class JsSandboxError extends VigilError {
  readonly reason?: JsFailureReason;
  constructor(code: ErrorCodeOf<typeof JsSandboxErrors>, message: string, options?: { reason?: JsFailureReason; cause?: unknown; status?: number }) {
    super(code, message, { status: options?.status ?? 400, cause: options?.cause });
    this.name = 'JsSandboxError';
    this.reason = options?.reason;
  }
}

/** The error `load` rejects with when a function file cannot become a function. */
export function loadFailure(reason: JsFailureReason, message: string, filename: string): JsSandboxError {
  return new JsSandboxError(failureCode(reason), `${filename}: ${message}`, { reason, status: reason === 'crash' ? 503 : 400 });
}
