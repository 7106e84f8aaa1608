import { VigilError } from '@vigil/plugin-sdk';
import type { JsFailureReason } from './types.js';

/** Codes of failures a function can cause, by reason. */
export const failureCodes: Readonly<Record<JsFailureReason, string>> = {
  timeout: 'VIGIL_ERR_SANDBOX_TIMEOUT',
  memory: 'VIGIL_ERR_SANDBOX_MEMORY',
  thrown: 'VIGIL_ERR_SANDBOX_THROWN',
  invalid_output: 'VIGIL_ERR_SANDBOX_INVALID_OUTPUT',
  crash: 'VIGIL_ERR_SANDBOX_CRASH',
  compile: 'VIGIL_ERR_SANDBOX_COMPILE',
  forbidden: 'VIGIL_ERR_SANDBOX_FORBIDDEN',
};

/** Codes of misuse or overload by the host: bad options, an input that is not JSON, a closed sandbox, a full queue. */
export const usageCodes = {
  options: 'VIGIL_ERR_SANDBOX_OPTIONS',
  input: 'VIGIL_ERR_SANDBOX_INPUT',
  closed: 'VIGIL_ERR_SANDBOX_CLOSED',
  busy: 'VIGIL_ERR_SANDBOX_BUSY',
} as const;

/** An error of the JavaScript sandbox. `reason` is set when a user's function file caused it. */
export class JsSandboxError extends VigilError {
  readonly reason?: JsFailureReason;
  constructor(code: string, message: string, options?: { reason?: JsFailureReason; cause?: unknown; status?: number }) {
    super(code, message, { status: options?.status ?? 400, cause: options?.cause });
    this.name = 'JsSandboxError';
    this.reason = options?.reason;
  }
}

/** The error `load` rejects with when a function file cannot become a function. */
export function loadFailure(reason: JsFailureReason, message: string, filename: string): JsSandboxError {
  return new JsSandboxError(failureCodes[reason], `${filename}: ${message}`, { reason, status: reason === 'crash' ? 503 : 400 });
}
