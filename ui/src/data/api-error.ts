// Errors the dashboard shows: what happened, and what to do next, from the control plane's JSON errors
// (`{ error: { code, message } }`) or from the network.

export type ApiErrorKind = 'network' | 'unauthorized' | 'forbidden' | 'not_found' | 'bad_request' | 'server' | 'locked_out';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    /** The HTTP status; 0 when no answer came. */
    readonly status: number,
    /** What happened, in a sentence. */
    message: string,
    /** What the person can do about it. */
    readonly next: string,
    /** The server's error code (VIGIL_ERR_…), when it sent one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The ApiError for an answer with `status` and (possibly) the control plane's JSON error body. */
export function errorFromResponse(status: number, body: unknown, what: string): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : undefined;
  const detail = typeof error?.message === 'string' ? error.message : undefined;
  if (status === 401) return new ApiError('unauthorized', status, 'Your session has ended.', 'Log in again to continue.', code);
  if (status === 403) {
    // Two causes answer 403: a role the user lacks (the message names it and where) and a request from another site.
    return new ApiError('forbidden', status, detail ?? `The server refused ${what}.`,
      'If you need this, ask an owner of this Vigil for the role (Settings > Users); if you came from another site, ' +
      'open the dashboard by its own address.', code);
  }
  if (status === 404) return new ApiError('not_found', status, detail ?? `${what} was not found.`, 'Check the address, or go back.', code);
  if (status === 429) return new ApiError('locked_out', status, detail ?? 'Too many failed logins from this address.', 'Wait a few minutes, then try again.', code);
  if (status >= 400 && status < 500) return new ApiError('bad_request', status, detail ?? `The server did not accept ${what}.`, 'Change what you entered, then try again.', code);
  return new ApiError('server', status, detail ?? `The server failed while answering ${what} (HTTP ${status}).`,
    'Try again in a moment; if it keeps failing, the server log has the details.', code);
}

/** The ApiError for a request that got no answer at all. */
export function networkError(what: string): ApiError {
  return new ApiError('network', 0, `Vigil did not answer ${what}.`, 'Check that vigil is still running; this page tries again on its own.');
}
