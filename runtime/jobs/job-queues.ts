import type { EnqueueOptions, JobQueue, JobState, Logger, QueuedJob, QueueOptions } from '@vigil/plugin-sdk';
import type { StoreBackend } from '../store/types.js';
import { JobsError, JobsErrors, positive } from './errors.js';
import { JobTable } from './job-table.js';
import { ensureJobTables } from './migrations.js';
import { QueueWorker, type WorkerContext, type WorkerSettings } from './queue-worker.js';

export interface JobQueuesOptions {
  /** Names this process in `locked_by`, e.g. `host:pid`. Distinct for every JobQueues sharing a store. */
  owner: string;
  log: Logger;
  /** Called after a handler failure is logged and recorded; the runtime counts plugin errors here. */
  contain?: WorkerContext['contain'];
  /** How long stop() waits for running handlers. Default 10 s. */
  stopTimeoutMs?: number;
  /** How long finished jobs stay visible: `done` default 1 day, `failed` and `dead` default 7 days. */
  retention?: { doneMs?: number; failedMs?: number };
}

export interface QueueRegistration extends QueueOptions {
  /** The plugin that registered the queue, for logs and the contain hook. */
  plugin?: string;
}

export interface JobQueues {
  /** See `Jobs.queue`; `name` is the full queue name (the plugin facade prefixes `<plugin>.`). */
  queue<P>(name: string, handler: (job: QueuedJob<P>) => Promise<void>, options?: QueueRegistration): JobQueue<P>;
  start(): Promise<void>;
  /** Idempotent; stops claiming jobs and waits for running handlers, `timeoutMs` at most (default: `stopTimeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
  /** Counts per state of any queue, also one registered by another process. */
  stats(name: string): Promise<Record<JobState, number>>;
}

const queueName = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,199}$/;
/** Characters of a fairness group: a project id or name fits many times over; the index stays small. */
const maxGroupLength = 200;
const day = 86_400_000;

/** Durable queues in `vigil_jobs`, worked by this process and by every other process sharing the store. */
export function createJobQueues(store: StoreBackend, options: JobQueuesOptions): JobQueues {
  const { owner, log, contain } = options;
  const stopTimeoutMs = positive(options.stopTimeoutMs, 'job queues stopTimeoutMs', 10_000);
  const doneRetentionMs = positive(options.retention?.doneMs, 'retention.doneMs', day);
  const failedRetentionMs = positive(options.retention?.failedMs, 'retention.failedMs', 7 * day);
  const table = new JobTable(store);
  const workers = new Map<string, QueueWorker<never>>();
  let started = false;
  let stopping: Promise<void> | null = null;

  const settingsFor = (name: string, o: QueueOptions): WorkerSettings => {
    const opt = (key: keyof QueueOptions, fallback: number) => positive(o[key], `${key} of queue "${name}"`, fallback);
    const concurrency = Math.floor(opt('concurrency', 1));
    const settings: WorkerSettings = {
      concurrency,
      // A share above concurrency is no share; below 1 is refused.
      groupConcurrency: Math.min(concurrency, Math.floor(opt('groupConcurrency', concurrency))),
      maxAttempts: Math.floor(opt('maxAttempts', 5)),
      backoffMs: opt('backoffMs', 1000),
      maxBackoffMs: opt('maxBackoffMs', 5 * 60_000),
      pollMs: opt('pollMs', 500),
      timeoutMs: opt('timeoutMs', 5 * 60_000),
      doneRetentionMs,
      failedRetentionMs,
      dropPayloadWhenDone: o.dropPayloadWhenDone === true,
      drainOnStop: o.drainOnStop === true,
    };
    if (settings.concurrency < 1 || settings.groupConcurrency < 1 || settings.maxAttempts < 1) {
      throw new JobsError(JobsErrors.OPTION, `jobs: queue "${name}" needs concurrency, groupConcurrency and maxAttempts of at least 1`);
    }
    return settings;
  };

  return {
    queue<P>(name: string, handler: (job: QueuedJob<P>) => Promise<void>, opts: QueueRegistration = {}): JobQueue<P> {
      if (typeof name !== 'string' || !queueName.test(name)) {
        throw new JobsError(JobsErrors.QUEUE_NAME, `jobs: queue name ${JSON.stringify(name)} must be 1-200 characters of letters, digits and _ . : -`);
      }
      if (workers.has(name)) throw new JobsError(JobsErrors.QUEUE_NAME, `jobs: queue "${name}" is already registered in this process`);
      if (typeof handler !== 'function') throw new JobsError(JobsErrors.OPTION, `jobs: queue "${name}" needs a handler function`);
      const settings = settingsFor(name, opts);
      const worker = new QueueWorker<P>(table, name, handler, settings, { owner, log, contain, plugin: opts.plugin });
      workers.set(name, worker as unknown as QueueWorker<never>);
      if (started && !stopping) worker.start();
      const check = (eo: EnqueueOptions) => {
        if (eo.runAt !== undefined && (typeof eo.runAt !== 'number' || !Number.isFinite(eo.runAt))) {
          throw new JobsError(JobsErrors.OPTION, `jobs: runAt of a job for queue "${name}" must be epoch milliseconds, got ${JSON.stringify(eo.runAt)}`);
        }
        if (eo.dedupeKey !== undefined && typeof eo.dedupeKey !== 'string') {
          throw new JobsError(JobsErrors.OPTION, `jobs: dedupeKey of a job for queue "${name}" must be a string`);
        }
        if (eo.group !== undefined && (typeof eo.group !== 'string' || eo.group.length > maxGroupLength)) {
          throw new JobsError(JobsErrors.OPTION, `jobs: group of a job for queue "${name}" must be a string of at most ${maxGroupLength} characters, got ${typeof eo.group === 'string' ? `${eo.group.length} characters` : typeof eo.group}`);
        }
      };
      return {
        async enqueue(payload: P, eo: EnqueueOptions = {}) {
          const text = serialise(name, payload);
          check(eo);
          await ensureJobTables(store);
          const id = await table.enqueue(name, text, settings.maxAttempts, eo.runAt === undefined ? undefined : Math.round(eo.runAt), eo.dedupeKey, eo.group);
          if (id !== null && (eo.runAt === undefined || eo.runAt <= Date.now())) worker.wake();
          return id;
        },
        async enqueueMany(jobs) {
          const rows = jobs.map(({ payload, options = {} }) => {
            check(options);
            return {
              payload: serialise(name, payload),
              ...(options.runAt !== undefined ? { runAt: Math.round(options.runAt) } : {}),
              ...(options.dedupeKey !== undefined ? { dedupeKey: options.dedupeKey } : {}),
              ...(options.group !== undefined ? { group: options.group } : {}),
            };
          });
          if (!rows.length) return 0;
          await ensureJobTables(store);
          const n = await table.enqueueMany(name, rows, settings.maxAttempts);
          if (n && rows.some((r) => r.runAt === undefined || r.runAt <= Date.now())) worker.wake();
          return n;
        },
        stats: () => ensureJobTables(store).then(() => table.stats(name)),
      };
    },

    async start() {
      if (started || stopping) return;
      await ensureJobTables(store);
      started = true;
      for (const worker of workers.values()) worker.start();
    },

    stop(timeoutMs = stopTimeoutMs) {
      stopping ??= (async () => {
        const results = await Promise.all([...workers.values()].map((w) => w.stop(timeoutMs)));
        if (results.includes(false)) log.warn('jobs: handlers still running at stop; their jobs return to the queue when their leases end', { waitedMs: timeoutMs });
      })();
      return stopping;
    },

    async stats(name: string) {
      await ensureJobTables(store);
      return table.stats(name);
    },
  };
}

function serialise(queue: string, payload: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(payload);
  } catch (err) {
    throw new JobsError(JobsErrors.PAYLOAD, `jobs: a payload for queue "${queue}" cannot be stored as JSON: ${(err as Error).message}`, { cause: err });
  }
  return text ?? 'null';
}
