import { PermanentError, VigilError } from '@vigil/plugin-sdk';

/** Stable codes of the exporters plugin. */
export const ExporterErrorCode = {
  /** The `exporters:` section is inconsistent in a way the schema cannot express (duplicate names, bad `next`). */
  config: 'VIGIL_ERR_EXPORTERS_CONFIG',
  /** The receiver refused the batch and retrying cannot help (a 4xx other than 408/429, or a redirect). */
  rejected: 'VIGIL_ERR_EXPORTER_REJECTED',
  /** The receiver is unreachable or answered 5xx/408/429; the batch is retried. */
  unavailable: 'VIGIL_ERR_EXPORTER_UNAVAILABLE',
  /** The exec exporter's process is not running (starting, restarting or gone). */
  processDown: 'VIGIL_ERR_EXPORTER_PROCESS_DOWN',
  /** A WASM module failed or returned output that is not `{ "records": [...] }`. */
  transform: 'VIGIL_ERR_EXPORTER_TRANSFORM',
  /** The exporter was shut down. */
  closed: 'VIGIL_ERR_EXPORTER_CLOSED',
} as const;

/** A config problem found at setup; the message names the key path (`exporters[2].next`). */
export class ExportersConfigError extends VigilError {
  constructor(message: string) {
    super(ExporterErrorCode.config, message);
    this.name = 'ExportersConfigError';
  }
}

/** Permanent: the delivery queue counts the batch as failed and never retries it. */
export class ReceiverRejectedError extends PermanentError {
  /** The receiver's HTTP status, when it answered. */
  readonly receiverStatus?: number;
  constructor(message: string, receiverStatus?: number) {
    super(message, { code: ExporterErrorCode.rejected });
    this.name = 'ReceiverRejectedError';
    this.receiverStatus = receiverStatus;
  }
}

/** Retryable. `retryAfterMs` (from a Retry-After header) is read by the delivery queue as a minimum delay. */
export class ReceiverUnavailableError extends VigilError {
  /** The receiver's HTTP status, when it answered. */
  readonly receiverStatus?: number;
  readonly retryAfterMs?: number;
  constructor(message: string, options: { receiverStatus?: number; retryAfterMs?: number; cause?: unknown } = {}) {
    super(ExporterErrorCode.unavailable, message, { cause: options.cause });
    this.name = 'ReceiverUnavailableError';
    this.receiverStatus = options.receiverStatus;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** Retryable: the records stay queued until the process is back. */
export class ProcessDownError extends VigilError {
  constructor(message: string) {
    super(ExporterErrorCode.processDown, message);
    this.name = 'ProcessDownError';
  }
}

/**
 * Permanent: a guest that traps, overruns or answers nonsense would do the same on a retry, and the batch must not
 * go on untransformed (fail closed), so it is counted as failed.
 */
export class TransformError extends PermanentError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: ExporterErrorCode.transform, cause: options?.cause });
    this.name = 'TransformError';
  }
}

/** Permanent: nothing can be sent through an exporter that was shut down. */
export class ExporterClosedError extends PermanentError {
  constructor(exporter: string) {
    super(`exporter ${exporter} is shut down`, { code: ExporterErrorCode.closed });
    this.name = 'ExporterClosedError';
  }
}
