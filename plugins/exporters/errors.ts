import { defineErrorCodes, PermanentError, ReceiverUnavailableError, VigilError } from '@vigil/plugin-sdk';

/**
 * Codes of the exporters plugin. Inconsistencies in the `exporters:` list (duplicate names, a bad `next`) are found
 * when the config is checked and reported as VIGIL_ERR_CONFIG_VALUE with file and line; these are the rest.
 */
export const ExporterErrors = defineErrorCodes('EXPORTER', {
  CONFIG: {
    meaning: 'At start-up, a file an exporter names cannot be used: an exec `command` that is not executable, a wasm ' +
      '`module` that does not load; the message names the key path (exporters[2].module).',
    action: 'Fix the path (relative to the config file) or the file: chmod +x the command, rebuild the module.',
  },
  REJECTED: {
    meaning: 'The receiver refused a batch and retrying cannot help: a 4xx other than 408/429, or a redirect (not followed). ' +
      'The batch is dropped and counted in vigil_export_failed_total.',
    action: 'Read the receiver\'s status and answer in the log: fix the exporter\'s url, headers (an API key?) or secret, ' +
      'or the receiver.',
  },
  UNAVAILABLE: {
    meaning: 'The receiver is unreachable, or answered 5xx, 408 or 429 (or a wasm stage\'s queue is full); the batch is ' +
      'retried with backoff, honouring Retry-After.',
    action: 'Nothing if it recovers. If it lasts, check the receiver and the network; records wait in the queue ' +
      '(queue_size) and new ones are dropped once it is full.',
  },
  PROCESS_DOWN: {
    meaning: 'The exec exporter\'s process is not running (starting, restarting after an exit, or gone); batches wait in ' +
      'the queue until it is back.',
    action: 'Read the process\'s stderr lines in the log (tagged with the exporter\'s name) for why it exits, and fix the ' +
      'command or its environment.',
  },
  TRANSFORM: {
    meaning: 'A wasm exporter\'s module failed (trapped, overran, ran out of memory) or returned output that is not ' +
      '`{ "records": [...] }`; the batch is dropped, never sent on untransformed (fails closed).',
    action: 'Fix the module as the message says; vigil_sandbox_failures_total{sandbox="wasm"} counts the failures by reason.',
  },
  CLOSED: {
    meaning: 'A batch was handed to an exporter that was already shut down: Vigil is stopping.',
    action: 'Nothing: what was not delivered within shutdown_timeout is counted in vigil_export_dropped_total.',
  },
});

/** A file the config names that cannot be used, found at setup; the message names the key path (`exporters[2].module`). */
export class ExportersConfigError extends VigilError {
  constructor(message: string) {
    super(ExporterErrors.CONFIG, message);
    this.name = 'ExportersConfigError';
  }
}

/** Retryable: the receiver could not be reached, or a stage could not take the batch now. */
export function receiverUnavailable(message: string, options: { cause?: unknown } = {}): ReceiverUnavailableError {
  return new ReceiverUnavailableError(ExporterErrors.UNAVAILABLE, message, options);
}

/** Retryable: the records stay queued until the process is back. */
export class ProcessDownError extends VigilError {
  constructor(message: string) {
    super(ExporterErrors.PROCESS_DOWN, message);
    this.name = 'ProcessDownError';
  }
}

/**
 * Permanent: a guest that traps, overruns or answers nonsense would do the same on a retry, and the batch must not
 * go on untransformed (fail closed), so it is counted as failed.
 */
export class TransformError extends PermanentError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: ExporterErrors.TRANSFORM, cause: options?.cause });
    this.name = 'TransformError';
  }
}

/** Permanent: nothing can be sent through an exporter that was shut down. */
export class ExporterClosedError extends PermanentError {
  constructor(exporter: string) {
    super(`exporter ${exporter} is shut down`, { code: ExporterErrors.CLOSED });
    this.name = 'ExporterClosedError';
  }
}
