/**
 * Why an embedding failed. The evaluators' error catalogue (plugins/evaluators/errors.ts) is another module's; this
 * plain class carries a stable `reason` it can map to a code. `retryable` separates a provider's 429/5xx/network
 * failure (worth a later attempt, after `retryAfterMs` when the provider said so) from a permanent one.
 */
export type EmbeddingFailure =
  | 'aborted' // the caller's signal fired
  | 'timeout' // one provider request outlived its deadline, on every attempt
  | 'rate_limited' // 429 on every attempt, or a Retry-After longer than the embedder waits
  | 'unavailable' // 5xx or a network failure on every attempt
  | 'rejected' // any other non-2xx: the request itself is wrong (model, key, input)
  | 'bad_response' // 2xx with a body that is not an embeddings list for these inputs
  | 'mixed_methods'; // cosine of vectors from different methods, models or dimensions

export class EmbeddingError extends Error {
  override readonly name = 'EmbeddingError';
  readonly reason: EmbeddingFailure;
  readonly retryable: boolean;
  /** The provider's HTTP status, when there was one. */
  readonly status?: number;
  /** Milliseconds the provider asked to wait (Retry-After), when it did. */
  readonly retryAfterMs?: number;

  constructor(reason: EmbeddingFailure, message: string, options: { retryable?: boolean; status?: number; retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.retryable = options.retryable ?? false;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}
