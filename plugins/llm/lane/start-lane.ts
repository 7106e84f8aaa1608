import { cpus } from 'node:os';
import { parseByteSize, type PluginContext } from '@vigil/plugin-sdk';
import type { EvalHooks } from '../eval-hooks.js';
import { spanBoundsOf } from '../spans/span-bounds.js';
import type { LlmConfig, ModelPrice } from '../types.js';
import { FairDispatch } from './fair-dispatch.js';
import { laneDeps } from './lane-deps.js';
import { runLaneTask } from './lane-tasks.js';
import type { LaneResult, LaneTask } from './lane-types.js';
import { LlmLane, type LaneOutlets } from './llm-lane.js';

/**
 * Requests a lane thread works on at once: each waits on the store for most of its time (a reservation, an insert),
 * and one's parsing and redaction fill another's wait.
 */
export const TASKS_PER_THREAD = 4;
/** Requests one project may have waiting for a lane thread; more is 429. */
export const PER_PROJECT_WAITING = 16;
/**
 * Heap of each lane thread. A body of `max_body_bytes` parses to a few times its size even when built to hurt (a
 * million tiny keys); past this the thread ends, that request gets a 503, and the process lives on.
 */
export const LANE_THREAD_HEAP_MB = 512;

/**
 * The LLM lane of this process: `persist.concurrency` worker threads (by default one core fewer than the machine
 * has, at least one, so the event loop keeps a core for the gateway's traffic) fed in fair turns across projects,
 * each with a connection of its own to the store. They run at normal priority: a client waits for its answer, and
 * below-normal threads starve on a machine busy with other processes.
 * Bodies waiting or in work are bounded to 4 × `max_body_bytes` (at least 64 MiB) in all. With `sqlite::memory:`,
 * which threads cannot open, tasks run on the main thread instead: tests and trials only.
 */
export function startLane(ctx: PluginContext, config: LlmConfig, deps: { prices: () => Record<string, ModelPrice>; hooks: EvalHooks; outlets: LaneOutlets }): LlmLane {
  const threads = Math.max(1, Math.min(config.persist.concurrency ?? cpus().length - 1, cpus().length * 2));
  const maxBody = parseByteSize(config.max_body_bytes);
  const dispatch = new FairDispatch({ slots: threads * TASKS_PER_THREAD, perTenant: PER_PROJECT_WAITING, maxBytes: Math.max(64 * 1024 * 1024, 4 * maxBody) });
  const inMemory = ctx.runtime.storage().location === ':memory:';
  const pool = inMemory ? null : ctx.workers.pool<LaneTask, LaneResult>({
    filename: new URL('./lane-worker.js', import.meta.url),
    name: 'llm-lane',
    minThreads: threads,
    maxThreads: threads,
    tasksPerThread: TASKS_PER_THREAD,
    // Nothing waits in piscina's own queue: the dispatch hands a task over only when a thread has room for it.
    maxQueue: threads * TASKS_PER_THREAD,
    store: true,
    resourceLimits: { maxOldGenerationSizeMb: LANE_THREAD_HEAP_MB },
  });
  const inlineDeps = inMemory ? laneDeps(ctx.store) : null;
  ctx.metrics.gauge('lane_waiting', {
    help: 'LLM ingest requests waiting for a lane thread, and the bytes of every request waiting or in work.', labelNames: ['what'],
    collect: (g) => { g.labels('requests').set(dispatch.waiting); g.labels('bytes').set(dispatch.bytes); },
  });
  return new LlmLane({
    pool,
    ...(inlineDeps ? { inline: (task: LaneTask) => runLaneTask(inlineDeps, task) } : {}),
    dispatch,
    prices: deps.prices,
    hooks: deps.hooks,
    outlets: deps.outlets,
    log: ctx.log,
    spans: spanBoundsOf(config.spans),
  });
}
