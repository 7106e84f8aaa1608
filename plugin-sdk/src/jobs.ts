/**
 * Scheduled and queued work. Both are deduplicated across every process sharing the store.
 */
export interface IntervalOptions {
  /** Run once right after start instead of waiting one interval. Default false. */
  immediate?: boolean;
  /** A run longer than this is assumed dead and its lease may be taken over. Default 10 × interval. */
  leaseMs?: number;
}

export interface QueueOptions {
  /** Concurrent handlers in this process. Default 1. */
  concurrency?: number;
  /**
   * Handlers of one group (`EnqueueOptions.group`) running at once in this process: a share of `concurrency` that
   * leaves the other slots to other groups, so that one group's slow jobs cannot hold them all. Default
   * `concurrency` (no share: groups still take turns for each free slot).
   */
  groupConcurrency?: number;
  /** Attempts before a job becomes `dead`. Default 5. */
  maxAttempts?: number;
  /** Base delay of the exponential backoff (delay = base × 2^(attempt-1), with jitter, capped at `maxBackoffMs`). Default 1,000. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /**
   * How often a worker looks for due jobs. Default 500 ms. A worker whose looks keep finding nothing slows to 2× and
   * then 4× this (2 s by default), so an idle installation does not query its store several times a second; a job
   * enqueued in this process is still looked for at once, and one claimed brings the pace back.
   */
  pollMs?: number;
  /** A running job not finished within this is returned to the queue. Default 5 minutes. */
  timeoutMs?: number;
  /**
   * Empty a job's payload once it is done (its row stays, for the counts): for payloads that must not outlive their
   * processing, such as data a handler redacts before storing it. Failed and dead jobs keep theirs. Default false.
   */
  dropPayloadWhenDone?: boolean;
  /**
   * At stop, run the jobs already due before returning (within the stop's timeout), instead of leaving them for the
   * next start: for work a client was already told is accepted, whose payload should not wait on disk. Default false.
   */
  drainOnStop?: boolean;
}

export type JobState = 'pending' | 'running' | 'done' | 'failed' | 'dead';

export interface EnqueueOptions {
  /** Epoch ms; default now. */
  runAt?: number;
  /** A second enqueue with the same key, while the first is not done, is ignored. */
  dedupeKey?: string;
  /**
   * The fairness key (a tenant, a project), at most 200 characters; default one group for every job without one.
   * Claims take due groups in turn, the oldest due job of each first, then the next of each: a group's backlog
   * delays another group's job by at most one turn of the due groups, however many jobs it holds. Within a group,
   * jobs run first in, first out (by `runAt`, then enqueue order).
   */
  group?: string;
}

export interface QueuedJob<P> {
  id: number;
  queue: string;
  payload: P;
  attempt: number;
}

export interface JobQueue<P> {
  /** Resolves to the job id, or null when `dedupeKey` matched a job that is still open. */
  enqueue(payload: P, options?: EnqueueOptions): Promise<number | null>;
  /**
   * Several jobs in one statement per few hundred (one round trip instead of one per job): for a producer that makes
   * many at once. Resolves to how many were enqueued (a `dedupeKey` matching an open job, or another job of the same
   * call, skips that one).
   */
  enqueueMany(jobs: readonly { payload: P; options?: EnqueueOptions }[]): Promise<number>;
  /** Counts per state. */
  stats(): Promise<Record<JobState, number>>;
}

export interface Jobs {
  /**
   * Runs `fn` every `intervalMs`. The id is scoped to the plugin and shared by every process using the same store:
   * among them, one run of an id at a time, and at most one run per interval.
   */
  every(id: string, intervalMs: number, fn: () => Promise<void> | void, options?: IntervalOptions): void;
  /**
   * A durable queue named `<plugin>.<name>`. The handler's throw retries with backoff (at least the error's
   * `retryAfterMs`, see `retryAfterOf`); a `PermanentError` (or any error with `permanent: true`) fails the job at
   * once; a `JobDeferral` puts it back for its delay without spending an attempt. Workers start with the runtime and
   * stop before it closes.
   */
  queue<P>(name: string, handler: (job: QueuedJob<P>) => Promise<void>, options?: QueueOptions): JobQueue<P>;
}
