import { VigilError } from '@vigil/plugin-sdk';

/** Stable codes of the jobs layer. */
export const JobsErrorCode = {
  /** `every()` got an id that is empty or already registered in this process. */
  SCHEDULE_ID: 'VIGIL_ERR_JOBS_SCHEDULE_ID',
  /** An interval, lease, concurrency or other numeric option is not a positive number. */
  OPTION: 'VIGIL_ERR_JOBS_OPTION',
  /** `queue()` got a name that is malformed or already registered in this process. */
  QUEUE_NAME: 'VIGIL_ERR_JOBS_QUEUE_NAME',
  /** A payload cannot be stored as JSON (cycle, BigInt) or a stored one cannot be parsed. */
  PAYLOAD: 'VIGIL_ERR_JOBS_PAYLOAD',
  /** A handler ran past the queue's `timeoutMs`. Retryable. */
  TIMEOUT: 'VIGIL_ERR_JOBS_TIMEOUT',
} as const;

export class JobsError extends VigilError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, { status: 500, cause: options?.cause });
    this.name = 'JobsError';
  }
}

/** A positive finite number, or a JobsError naming the option and its owner. */
export function positive(value: unknown, what: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new JobsError(JobsErrorCode.OPTION, `jobs: ${what} must be a positive number of milliseconds or items, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The text recorded in `last_error`: message and code, never a whole stack. */
export function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    const text = typeof code === 'string' ? `${code}: ${err.message}` : err.message || err.name;
    return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  }
  return String(err).slice(0, 2000);
}
