import { isPermanent } from '@vigil/plugin-sdk';
import type { DeliveryQueue, DeliveryQueueOptions, Logger, Metrics } from '@vigil/plugin-sdk';
import { backoffDelay, retryAfterOf } from './backoff.js';
import { sleep, untilAborted } from './abortable-wait.js';
import { deliveryMetrics } from './delivery-metrics.js';
import { DeliveryOptionsError, DeliveryStoppedError, DeliveryTimeoutError } from './errors.js';

const DEFAULTS = {
  maxQueue: 10_000,
  maxBatch: 512,
  maxDelayMs: 1_000,
  attemptTimeoutMs: 10_000,
  backoffMs: 500,
  maxBackoffMs: 30_000,
  metricPrefix: 'vigil_export',
  labelName: 'exporter',
};
/** Default bound of `flush()` and `shutdown()`. */
export const DEFAULT_DRAIN_MS = 5_000;

interface FlushWaiter {
  /** Resolved once this many accepted items have settled (sent, failed or dropped). */
  target: number;
  resolve(): void;
}

/**
 * A queued-retry delivery queue (see `DeliveryQueueOptions` in the SDK for the contract). One batch is in flight at
 * a time, so batches reach `send` in the order their items were pushed, retries included. Every timer is unref'd,
 * except that a running `shutdown` holds the process for at most its own bound so its final flush can finish.
 */
export function createDeliveryQueue<T>(
  options: DeliveryQueueOptions<T>,
  deps: { metrics: Metrics; log: Logger },
): DeliveryQueue<T> {
  const name = options.name;
  if (typeof name !== 'string' || name === '') throw new DeliveryOptionsError(String(name), 'name must be a non-empty string');
  if (typeof options.send !== 'function') throw new DeliveryOptionsError(name, 'send must be a function');
  const maxQueue = positiveInteger(name, 'maxQueue', options.maxQueue, DEFAULTS.maxQueue);
  const maxBatch = positiveInteger(name, 'maxBatch', options.maxBatch, DEFAULTS.maxBatch);
  const maxDelayMs = nonNegative(name, 'maxDelayMs', options.maxDelayMs, DEFAULTS.maxDelayMs);
  const attemptTimeoutMs = positiveInteger(name, 'attemptTimeoutMs', options.attemptTimeoutMs, DEFAULTS.attemptTimeoutMs);
  const maxAttempts = options.maxAttempts === undefined ? Infinity : positiveInteger(name, 'maxAttempts', options.maxAttempts, 1);
  const backoffMs = nonNegative(name, 'backoffMs', options.backoffMs, DEFAULTS.backoffMs);
  const maxBackoffMs = nonNegative(name, 'maxBackoffMs', options.maxBackoffMs, DEFAULTS.maxBackoffMs);
  const send = options.send;
  const metrics = deliveryMetrics(
    deps.metrics, options.metricPrefix ?? DEFAULTS.metricPrefix, options.labelName ?? DEFAULTS.labelName, name,
  );
  const log = deps.log.child({ queue: name });

  let pending: T[] = [];
  /** The batch being sent, or waiting between its attempts. */
  let inFlight: T[] | null = null;
  let current: Promise<void> = Promise.resolve();
  /** Arrival time of the oldest pending item, or a lower bound of it (so a batch is never held longer than due). */
  let pendingSince = 0;
  let fillTimer: NodeJS.Timeout | undefined;
  // Items accepted and items settled, as running totals: since the queue is FIFO, "everything pushed before this
  // flush is done" is simply `settled >= accepted at flush time`.
  let accepted = 0;
  let settled = 0;
  let flushTarget = 0;
  let waiters: FlushWaiter[] = [];
  let closing = false;
  let stopped = false;
  const stopController = new AbortController();
  let shutdownPromise: Promise<void> | undefined;

  const depth = (): number => pending.length + (inFlight?.length ?? 0);
  const showDepth = (): void => metrics.depth.set(depth());

  function clearFillTimer(): void {
    if (fillTimer) { clearTimeout(fillTimer); fillTimer = undefined; }
  }

  function kick(): void {
    if (stopped || inFlight || pending.length === 0) return;
    // Hot path of push: a batch already waiting on its timer needs no clock read.
    if (fillTimer && pending.length < maxBatch && settled >= flushTarget) return;
    const due = pending.length >= maxBatch || settled < flushTarget || Date.now() - pendingSince >= maxDelayMs;
    if (!due) {
      if (!fillTimer) {
        fillTimer = setTimeout(() => { fillTimer = undefined; kick(); }, Math.max(0, pendingSince + maxDelayMs - Date.now()));
        fillTimer.unref();
      }
      return;
    }
    clearFillTimer();
    const batch = pending.length <= maxBatch ? pending : pending.splice(0, maxBatch);
    if (batch === pending) pending = [];
    inFlight = batch;
    current = deliver(batch).then(() => {
      inFlight = null;
      settled += batch.length;
      showDepth();
      settleWaiters();
      kick();
    });
  }

  async function deliver(batch: T[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (stopped) { metrics.dropped.inc(batch.length); return; }
      const attemptController = new AbortController();
      const onStop = (): void => attemptController.abort(stopController.signal.reason);
      stopController.signal.addEventListener('abort', onStop, { once: true });
      const timer = setTimeout(() => attemptController.abort(new DeliveryTimeoutError(name, attemptTimeoutMs)), attemptTimeoutMs);
      timer.unref();
      let error: unknown;
      try {
        await untilAborted(Promise.resolve().then(() => send(batch, attemptController.signal)), attemptController.signal);
        metrics.sent.inc(batch.length);
        if (attempt > 1) log.info('batch delivered after retries', { attempts: attempt, items: batch.length });
        return;
      } catch (err) {
        error = err;
      } finally {
        clearTimeout(timer);
        stopController.signal.removeEventListener('abort', onStop);
      }
      if (stopped) { metrics.dropped.inc(batch.length); return; }
      const fields = { attempt, items: batch.length, error: messageOf(error) };
      if (isPermanent(error)) {
        metrics.failed.inc(batch.length);
        log.warn('batch failed with a permanent error; not retried', fields);
        return;
      }
      if (attempt >= maxAttempts) {
        metrics.failed.inc(batch.length);
        log.warn('batch failed on its last attempt; discarded', fields);
        return;
      }
      let delayMs = backoffDelay(attempt, backoffMs, maxBackoffMs);
      const retryAfter = retryAfterOf(error);
      if (retryAfter !== undefined) delayMs = Math.max(delayMs, Math.min(retryAfter, maxBackoffMs));
      // The first failure of a batch is worth a warning; the retries of a receiver that stays down are not.
      (attempt === 1 ? log.warn : log.debug).call(log, 'batch failed; will retry', { ...fields, delayMs: Math.round(delayMs) });
      try {
        await sleep(delayMs, stopController.signal);
      } catch {
        metrics.dropped.inc(batch.length);
        return;
      }
    }
  }

  function settleWaiters(): void {
    if (waiters.length === 0) return;
    const open: FlushWaiter[] = [];
    for (const w of waiters) {
      if (w.target <= settled || stopped) w.resolve();
      else open.push(w);
    }
    waiters = open;
    flushTarget = open.reduce((max, w) => Math.max(max, w.target), 0);
  }

  function accept(item: T): void {
    if (pending.length === 0) pendingSince = Date.now();
    pending.push(item);
    accepted++;
  }

  function push(item: T): boolean {
    if (closing || depth() >= maxQueue) { metrics.dropped.inc(1); return false; }
    accept(item);
    showDepth();
    kick();
    return true;
  }

  function pushMany(items: readonly T[]): number {
    const room = closing ? 0 : Math.max(0, maxQueue - depth());
    const taken = Math.min(room, items.length);
    for (let i = 0; i < taken; i++) accept(items[i]);
    if (taken < items.length) metrics.dropped.inc(items.length - taken);
    if (taken > 0) { showDepth(); kick(); }
    return taken;
  }

  function flush(timeoutMs = DEFAULT_DRAIN_MS): Promise<void> {
    const target = accepted;
    if (stopped || settled >= target) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiter: FlushWaiter = {
        target,
        resolve: () => { clearTimeout(timer); resolve(); },
      };
      // A flush that times out stops asking for early batches; its items keep waiting like any other.
      const timer = setTimeout(() => {
        waiters = waiters.filter((w) => w !== waiter);
        flushTarget = waiters.reduce((max, w) => Math.max(max, w.target), 0);
        resolve();
      }, timeoutMs);
      timer.unref();
      waiters.push(waiter);
      flushTarget = Math.max(flushTarget, target);
      kick();
    });
  }

  function shutdown(timeoutMs = DEFAULT_DRAIN_MS): Promise<void> {
    shutdownPromise ??= (async () => {
      closing = true;
      // Deliberately ref'd: a shutdown in progress keeps the process alive for at most its bound, so the final
      // flush is not cut short by an exiting event loop while it waits between retries.
      const hold = setTimeout(() => {}, timeoutMs);
      try {
        await flush(timeoutMs);
      } finally {
        clearTimeout(hold);
      }
      stopped = true;
      clearFillTimer();
      stopController.abort(new DeliveryStoppedError(name));
      if (pending.length > 0) {
        metrics.dropped.inc(pending.length);
        settled += pending.length;
        pending = [];
      }
      // Bounded: an aborted attempt rejects at once and an aborted backoff sleep ends at once.
      await current;
      settleWaiters();
      showDepth();
      if (depth() > 0) log.warn('shut down with items still held', { items: depth() });
    })();
    return shutdownPromise;
  }

  return {
    push,
    pushMany,
    get depth() { return depth(); },
    flush,
    shutdown,
  };
}

function positiveInteger(queue: string, key: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new DeliveryOptionsError(queue, `${key} must be a positive integer, got ${String(value)}`);
  return value;
}

function nonNegative(queue: string, key: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new DeliveryOptionsError(queue, `${key} must be a finite number >= 0, got ${String(value)}`);
  }
  return value;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
