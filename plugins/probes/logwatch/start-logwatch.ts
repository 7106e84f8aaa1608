import type { PluginContext } from '@vigil/plugin-sdk';
import { readLogs, type LogReaderOptions } from '../logs/read-logs.js';
import { logMatchSource } from './log-match-source.js';
import type { MatchResult, MatchTask } from './match-lines.js';
import { registerLogwatchRoutes } from './logwatch-routes.js';
import { pollWatchers } from './watch-poller.js';
import { POLL_INTERVAL_MS } from './watcher.js';
import { WatcherStore } from './watcher-store.js';

export interface LogwatchOptions extends LogReaderOptions {
  /** Default 20 s (perch's); tests shorten it. */
  intervalMs?: number;
}

/**
 * The log watchers: their API, the `host.log_match` alert source (when the alerts plugin runs), and the poll job
 * (one run per interval across processes). Patterns run in a one-thread pool that ends when idle. Call after the
 * store has the probes' migrations; returns `start`, which schedules the poll.
 */
export function setupLogwatch(ctx: PluginContext, options: LogwatchOptions): { start(): void; stop(): void } {
  const store = new WatcherStore(ctx.store);
  const pool = ctx.workers.pool<MatchTask, MatchResult>({
    filename: new URL('./match-worker.js', import.meta.url), name: 'logwatch-match', minThreads: 0, maxThreads: 1, maxQueue: 8,
  });
  const read = (query: Parameters<typeof readLogs>[0]) => readLogs(query, options);
  const match = (task: MatchTask) => pool.run(task);
  const intervalMs = options.intervalMs ?? POLL_INTERVAL_MS;
  const alerts = ctx.services.find('alerts');
  registerLogwatchRoutes(ctx.http, { store, read, match, allowedPaths: options.allowedPaths, alerts, intervalMs, now: Date.now });
  const removeSource = alerts?.registerSource(logMatchSource(store));
  return {
    start() {
      ctx.jobs.every('logwatch', intervalMs, async () => {
        await pollWatchers({ store, read, match, now: Date.now });
      });
    },
    stop() { removeSource?.(); },
  };
}
