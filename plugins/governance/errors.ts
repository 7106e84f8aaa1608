import { VigilError } from '@vigil/plugin-sdk';

/** Errors of the redaction plugin and its `vigil test` command. */
export const RedactionErrorCode = {
  /** A `vigil test` cases file does not match its schema. */
  casesInvalid: 'VIGIL_ERR_REDACTION_CASES_INVALID',
  /** A file named on the command line cannot be read or parsed. */
  fileUnreadable: 'VIGIL_ERR_REDACTION_FILE',
  /** A governance task carries something the worker cannot govern (wrong shape, indexes not in the policy). */
  badTask: 'VIGIL_ERR_REDACTION_TASK',
} as const;

export type RedactionErrorCode = (typeof RedactionErrorCode)[keyof typeof RedactionErrorCode];

export class RedactionError extends VigilError {
  constructor(code: RedactionErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, { status: 400, cause: options?.cause });
    this.name = 'RedactionError';
  }
}
