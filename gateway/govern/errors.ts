import { defineErrorCodes, VigilError, type ErrorCodeOf } from '@vigil/plugin-sdk';

/**
 * Codes of the governance plugin. Problems in the rules themselves are policy codes (VIGIL_ERR_POLICY_*), reported
 * with file and line when the config is checked.
 */
export const GovernanceErrors = defineErrorCodes('GOVERNANCE', {
  TASK: {
    meaning: 'The governance workers were handed something they cannot govern: a batch that is not { policy, exchanges[] }, ' +
      'or an exchange whose rule indexes its policy does not have. Such an exchange is not stored (nothing ungoverned ' +
      'is) and is counted as failed.',
    action: 'A bug, not a config problem: report it with the log line, which names the exchange.',
  },
  TRY_BUSY: {
    status: 503,
    meaning: '"Try a request" (POST /api/gateway/policy/try) runs in a worker thread of its own, a few tries at a ' +
      'time; more were waiting than it holds. Governing a try of a megabyte takes seconds of that thread, never of the ' +
      'event loop the gateway\'s traffic uses.',
    action: 'Try again in a few seconds (Retry-After says when).',
  },
});

export class GovernanceError extends VigilError {
  constructor(code: ErrorCodeOf<typeof GovernanceErrors>, message: string, options?: { cause?: unknown }) {
    super(code, message, { status: 400, cause: options?.cause });
    this.name = 'GovernanceError';
  }
}
