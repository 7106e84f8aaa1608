/**
 * Errors with stable codes. A code names the kind (`VIGIL_ERR_*`); the message says what went wrong, where, and
 * what to do.
 */
export class VigilError extends Error {
  readonly code: string;
  /** HTTP status when this error reaches the control plane. */
  readonly status: number;
  constructor(code: string, message: string, options?: { status?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'VigilError';
    this.code = code;
    this.status = options?.status ?? 500;
  }
}

/**
 * A failure that retrying cannot fix (bad payload, 4xx from a receiver, invalid config).
 * Job queues and delivery loops never retry it.
 */
export class PermanentError extends VigilError {
  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super(options?.code ?? 'VIGIL_ERR_PERMANENT', message, { cause: options?.cause });
    this.name = 'PermanentError';
  }
}

/** True when `err` must not be retried. */
export function isPermanent(err: unknown): boolean {
  return err instanceof PermanentError || (err as { permanent?: unknown } | null)?.permanent === true;
}

/** An HTTP error for route handlers: becomes `{ error: { code, message } }` with this status. */
export class HttpError extends VigilError {
  constructor(status: number, code: string, message: string) {
    super(code, message, { status });
    this.name = 'HttpError';
  }
}

/**
 * A config value that passed the schema but is still wrong (a glob that does not compile, two rules with one name).
 * Thrown from a plugin's `checkConfig`; the runtime reports it like a schema problem, with file, line and key path,
 * and exits 2. `keyPath` is relative to the plugin's section: `rules[2].match.path` or `['rules', 2, 'match', 'path']`.
 */
export class ConfigValueError extends VigilError {
  readonly keyPath: readonly (string | number)[];
  constructor(keyPath: string | readonly (string | number)[], message: string) {
    super('VIGIL_ERR_CONFIG_VALUE', message, { status: 400 });
    this.name = 'ConfigValueError';
    this.keyPath = typeof keyPath === 'string'
      ? [...keyPath.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]))
      : keyPath;
  }
}
