import { settledWithin, type IntervalOptions, type Logger } from '@vigil/plugin-sdk';
import type { StoreBackend } from '../store/types.js';
import { JobsError, JobsErrors, errorText, positive } from './errors.js';
import { ensureJobTables } from './migrations.js';
import { ScheduleLease } from './schedule-lease.js';
import { MAX_TIMER_MS } from '../timers.js';

/** Called after a failing run is logged and recorded; the runtime counts plugin errors here. */
export type ContainHook = (err: unknown, where: { job: string; plugin?: string }) => void;

export interface SchedulerOptions {
  /** Names this process in lease rows, e.g. `host:pid`. Distinct for every scheduler sharing a store. */
  owner: string;
  log: Logger;
  contain?: ContainHook;
  /** How long stop() waits for running functions. Default 10 s. */
  stopTimeoutMs?: number;
}

export interface EveryOptions extends IntervalOptions {
  /** The plugin that registered the job, for logs and the contain hook. */
  plugin?: string;
}

export interface Scheduler {
  /** See `Jobs.every`: one run of an id at a time and at most one per interval, among all processes sharing the store. */
  every(id: string, intervalMs: number, fn: () => Promise<void> | void, options?: EveryOptions): void;
  start(): Promise<void>;
  /** Idempotent; stops new runs and waits for running ones, `timeoutMs` at most (default: `stopTimeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
}

/** Floor of a retry after a lost race or a store error, so a disagreement never spins. */
const minRetryMs = 5;

interface Entry {
  id: string;
  intervalMs: number;
  leaseMs: number;
  immediate: boolean;
  plugin?: string;
  fn: () => Promise<void> | void;
  lease: ScheduleLease;
  rowReady: boolean;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
}

/** Interval jobs over lease rows in `vigil_schedules`. Timers never keep the process alive. */
export function createScheduler(store: StoreBackend, options: SchedulerOptions): Scheduler {
  const { owner, log, contain } = options;
  const stopTimeoutMs = positive(options.stopTimeoutMs, 'scheduler stopTimeoutMs', 10_000);
  const entries = new Map<string, Entry>();
  let started = false;
  let stopping: Promise<void> | null = null;

  const arm = (entry: Entry, delayMs: number) => {
    if (stopping) return;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => { entry.timer = null; void tick(entry); }, Math.min(MAX_TIMER_MS, Math.max(0, delayMs)));
    entry.timer.unref();
  };

  const tick = async (entry: Entry) => {
    if (stopping || entry.running) return;
    let next: number;
    try {
      if (!entry.rowReady) {
        await entry.lease.ensure();
        entry.rowReady = true;
      }
      const startedAt = await entry.lease.claim(entry.intervalMs, entry.leaseMs);
      if (startedAt === null) {
        const wait = await entry.lease.wait(entry.intervalMs);
        if (wait === null) entry.rowReady = false;
        next = Math.max(minRetryMs, wait ?? 0);
      } else {
        const t0 = Date.now();
        entry.running = execute(entry, startedAt);
        await entry.running;
        entry.running = null;
        next = entry.intervalMs - (Date.now() - t0);
      }
    } catch (err) {
      entry.running = null;
      // The store is unreachable or closing: the schedule keeps its rhythm and tries again.
      if (!stopping) log.warn('jobs: interval job could not reach the store; will retry', { job: entry.id, plugin: entry.plugin, err });
      next = Math.max(minRetryMs, Math.min(entry.intervalMs, 5000));
    }
    arm(entry, next);
  };

  const execute = async (entry: Entry, startedAt: number) => {
    let status: 'ok' | 'error' = 'ok';
    let error: string | null = null;
    try {
      await entry.fn();
    } catch (err) {
      status = 'error';
      error = errorText(err);
      log.error('jobs: interval job failed', { job: entry.id, plugin: entry.plugin, err });
      try { contain?.(err, { job: entry.id, plugin: entry.plugin }); } catch { /* the hook must not break the schedule */ }
    }
    try {
      await entry.lease.release(startedAt, status, error);
    } catch (err) {
      // The lease expires by itself after leaseMs.
      log.warn('jobs: could not release an interval job lease', { job: entry.id, err });
    }
  };

  return {
    every(id, intervalMs, fn, opts = {}) {
      if (typeof id !== 'string' || id === '') throw new JobsError(JobsErrors.SCHEDULE_ID, 'jobs: every() needs a non-empty id');
      if (entries.has(id)) {
        throw new JobsError(JobsErrors.SCHEDULE_ID, `jobs: interval job "${id}" is already registered in this process${opts.plugin ? ` (by plugin "${opts.plugin}")` : ''}; ids are global, prefix them with the plugin name`);
      }
      if (typeof fn !== 'function') throw new JobsError(JobsErrors.OPTION, `jobs: every("${id}") needs a function`);
      const interval = positive(intervalMs ?? null, `interval of job "${id}"`, 0);
      const entry: Entry = {
        id,
        intervalMs: Math.ceil(interval),
        leaseMs: Math.ceil(positive(opts.leaseMs, `leaseMs of job "${id}"`, 10 * interval)),
        immediate: opts.immediate === true,
        plugin: opts.plugin,
        fn,
        lease: new ScheduleLease(store, id, owner),
        rowReady: false,
        timer: null,
        running: null,
      };
      entries.set(id, entry);
      if (started && !stopping) arm(entry, entry.immediate ? 0 : entry.intervalMs);
    },

    async start() {
      if (started || stopping) return;
      await ensureJobTables(store);
      started = true;
      for (const entry of entries.values()) arm(entry, entry.immediate ? 0 : entry.intervalMs);
    },

    stop(timeoutMs = stopTimeoutMs) {
      stopping ??= (async () => {
        for (const entry of entries.values()) {
          if (entry.timer) clearTimeout(entry.timer);
          entry.timer = null;
        }
        const running = [...entries.values()].map((e) => e.running).filter((p): p is Promise<void> => p !== null);
        if (running.length === 0) return;
        if (!(await settledWithin(Promise.allSettled(running), timeoutMs, { unref: true }))) log.warn('jobs: interval jobs still running at stop; their leases expire by themselves', { waitedMs: timeoutMs });
      })();
      return stopping;
    },
  };
}
