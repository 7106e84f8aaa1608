import { isPermanent, JobDeferral, retryAfterOf, settledWithin, type Logger, type QueuedJob } from '@vigil/plugin-sdk';
import { backoffDelay } from './backoff.js';
import { JobsError, JobsErrors, errorText } from './errors.js';
import type { ClaimedJob, JobTable } from './job-table.js';

export interface WorkerSettings {
  concurrency: number;
  /** Handlers of one group at once; `concurrency` when the queue sets no share. */
  groupConcurrency: number;
  maxAttempts: number;
  backoffMs: number;
  maxBackoffMs: number;
  pollMs: number;
  timeoutMs: number;
  /** How long `done` jobs stay visible. */
  doneRetentionMs: number;
  /** How long `failed` and `dead` jobs stay visible. */
  failedRetentionMs: number;
  /** Empty the payload of a job that is done. */
  dropPayloadWhenDone: boolean;
  /** At stop, run the jobs already due before returning. */
  drainOnStop: boolean;
}

export interface WorkerContext {
  owner: string;
  log: Logger;
  plugin?: string;
  contain?: (err: unknown, where: { queue: string; job: number; plugin?: string }) => void;
}

/** Least time between two looks for jobs whose worker stopped responding. */
const reclaimEveryMs = 1000;
/** An idle worker's wait between looks doubles this many times at most (500 ms → 2 s by default). */
const MAX_IDLE_DOUBLINGS = 2;
/** How often each worker deletes finished jobs past their retention. */
const pruneEveryMs = 60_000;

/**
 * Runs one queue's jobs in this process: claims due jobs up to `concurrency`, runs the handler, and records the
 * outcome. Polls every `pollMs`, and at once when a local enqueue or a finished job makes room.
 */
export class QueueWorker<P> {
  private running = false;
  private active = 0;
  /** Running handlers per group, for the group's share of the slots. */
  private readonly activeByGroup = new Map<string, number>();
  private readonly inflight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> | null = null;
  private again = false;
  private lastReclaim = 0;
  private lastPrune = 0;
  /** Looks in a row that found nothing to claim while nothing ran: each doubles the wait before the next, up to 4×. */
  private idleLooks = 0;

  constructor(
    private readonly table: JobTable,
    readonly name: string,
    private readonly handler: (job: QueuedJob<P>) => Promise<void>,
    readonly settings: WorkerSettings,
    private readonly ctx: WorkerContext,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake();
  }

  /** Look for due jobs now (after a local enqueue, or when a slot frees up). */
  wake(): void {
    if (!this.running) return;
    if (this.pumping) { this.again = true; return; }
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    this.pumping = this.pump().finally(() => {
      this.pumping = null;
      if (this.again) this.wake();
      else this.arm();
    });
  }

  /** Stops claiming and waits up to `timeoutMs` for running handlers; unfinished jobs return to the queue when their lease ends. */
  async stop(timeoutMs: number): Promise<boolean> {
    if (this.running && this.settings.drainOnStop) await this.drain(Date.now() + timeoutMs);
    this.running = false;
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    await this.pumping;
    if (this.inflight.size === 0) return true;
    return settledWithin(Promise.allSettled([...this.inflight]), timeoutMs, { unref: true });
  }

  /** Claims and runs due jobs until none is left or the deadline passes (jobs waiting out a backoff are not due). */
  private async drain(deadline: number): Promise<void> {
    while (Date.now() < deadline) {
      this.wake();
      await this.pumping;
      if (this.inflight.size === 0) return;
      await settledWithin(Promise.allSettled([...this.inflight]), Math.max(0, deadline - Date.now()), { unref: true });
    }
  }

  private arm(): void {
    if (!this.running) return;
    // Idle queues are the most of an idle installation's CPU: back off to 4 × pollMs while nothing is found.
    const delay = this.settings.pollMs * 2 ** Math.min(this.idleLooks, MAX_IDLE_DOUBLINGS);
    this.timer = setTimeout(() => { this.timer = null; this.wake(); }, delay);
    this.timer.unref();
  }

  private async pump(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.housekeeping();
        while (this.running && this.active < this.settings.concurrency) {
          const wanted = this.settings.concurrency - this.active;
          const jobs = await this.table.claim(this.name, this.ctx.owner, wanted, this.settings.timeoutMs, this.room);
          this.idleLooks = jobs.length > 0 || this.active > 0 ? 0 : this.idleLooks + 1;
          // Claimed jobs run even if stop() came meanwhile: they are ours until they finish or their lease ends.
          for (const job of jobs) this.launch(job);
          if (jobs.length < wanted) break;
        }
      } while (this.again && this.running);
    } catch (err) {
      if (this.running) this.ctx.log.warn('jobs: could not poll the queue; will retry', { queue: this.name, err });
    }
  }

  private async housekeeping(): Promise<void> {
    const now = Date.now();
    // Leases last timeoutMs, so looking for expired ones about once a second is plenty, even when polling faster.
    if (now - this.lastReclaim >= Math.max(this.settings.pollMs, reclaimEveryMs)) {
      this.lastReclaim = now;
      const reclaimed = await this.table.reclaimExpired(this.name);
      if (reclaimed) this.ctx.log.warn('jobs: returned jobs of a stopped worker to the queue', { queue: this.name, count: reclaimed });
    }
    if (now - this.lastPrune >= pruneEveryMs) {
      this.lastPrune = now;
      await this.table.prune(this.name, this.settings.doneRetentionMs, this.settings.failedRetentionMs);
    }
  }

  /** How many more jobs of `group` may run here now. */
  private readonly room = (group: string): number => this.settings.groupConcurrency - (this.activeByGroup.get(group) ?? 0);

  private launch(job: ClaimedJob): void {
    this.active++;
    this.activeByGroup.set(job.group, (this.activeByGroup.get(job.group) ?? 0) + 1);
    const p: Promise<void> = this.execute(job).finally(() => {
      this.active--;
      const left = this.activeByGroup.get(job.group)! - 1;
      if (left) this.activeByGroup.set(job.group, left); else this.activeByGroup.delete(job.group);
      this.inflight.delete(p);
      this.wake();
    });
    this.inflight.add(p);
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const { log, owner, plugin } = this.ctx;
    const fields = { queue: this.name, job: job.id, attempt: job.attempt };
    try {
      let payload: P;
      try {
        payload = JSON.parse(job.payload) as P;
      } catch (err) {
        await this.table.finish(job, owner, 'failed', `payload is not JSON: ${errorText(err)}`);
        log.error('jobs: job payload is not JSON; marked failed', fields);
        return;
      }
      try {
        await this.runHandler({ id: job.id, queue: job.queue, payload, attempt: job.attempt });
      } catch (err) {
        if (err instanceof JobDeferral) {
          await this.defer(job, err, fields);
          return;
        }
        await this.recordFailure(job, err, fields);
        try { this.ctx.contain?.(err, { queue: this.name, job: job.id, plugin }); } catch { /* the hook must not break the worker */ }
        return;
      }
      if (!(await this.table.complete(job, owner, this.settings.dropPayloadWhenDone))) {
        log.warn('jobs: job finished after its lease passed to another worker; its result was kept, the record was not', fields);
      }
    } catch (err) {
      // The store failed while recording: the lease runs out and the job is retried.
      log.warn('jobs: could not record a job outcome; it returns to the queue when its lease ends', { ...fields, err });
    }
  }

  private async defer(job: ClaimedJob, deferral: JobDeferral, fields: Record<string, unknown>): Promise<void> {
    let payload: string | undefined;
    if (deferral.payload !== undefined) {
      try {
        payload = JSON.stringify(deferral.payload);
      } catch (err) {
        await this.recordFailure(job, new JobsError(JobsErrors.PAYLOAD, `jobs: the payload of a deferral cannot be stored as JSON: ${errorText(err)}`), fields);
        return;
      }
    }
    await this.table.defer(job, this.ctx.owner, deferral.delayMs, payload);
  }

  private async recordFailure(job: ClaimedJob, err: unknown, fields: Record<string, unknown>): Promise<void> {
    const { log, owner } = this.ctx;
    const text = errorText(err);
    if (isPermanent(err)) {
      await this.table.finish(job, owner, 'failed', text);
      log.warn('jobs: job failed permanently; not retried', { ...fields, err });
    } else if (job.attempt >= job.maxAttempts) {
      await this.table.finish(job, owner, 'dead', text);
      log.error('jobs: job is dead after its last attempt', { ...fields, maxAttempts: job.maxAttempts, err });
    } else {
      const delayMs = Math.max(backoffDelay(job.attempt, this.settings.backoffMs, this.settings.maxBackoffMs), retryAfterOf(err) ?? 0);
      await this.table.retry(job, owner, delayMs, text);
      log.warn('jobs: job failed; will retry', { ...fields, delayMs, err });
    }
  }

  /** The handler, bounded by `timeoutMs`; a handler that overruns keeps running but its slot is freed. */
  private runHandler(job: QueuedJob<P>): Promise<void> {
    const { timeoutMs } = this.settings;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new JobsError(JobsErrors.TIMEOUT,
        `jobs: job ${job.id} of queue "${this.name}" ran past timeoutMs (${timeoutMs} ms)`)), timeoutMs);
      timer.unref();
      Promise.resolve()
        .then(() => this.handler(job))
        .then(() => { clearTimeout(timer); resolve(); }, (err) => { clearTimeout(timer); reject(err); });
    });
  }
}
