import { httpError, type Logger, type PersistedTrace, type PromptVersionChange, type ReceivedScore, type WorkerPool } from '@vigil/plugin-sdk';
import { LlmErrors } from '../errors.js';
import type { EvalHooks } from '../eval-hooks.js';
import { DEFAULT_SPAN_BOUNDS, type SpanBounds } from '../spans/span-bounds.js';
import type { LlmProject, ModelPrice } from '../types.js';
import type { FairDispatch } from './fair-dispatch.js';
import { httpErrorOf } from './lane-refusal.js';
import type { LaneBody, LaneContext, LaneCounts, LaneResult, LaneTask, StoredTrace } from './lane-types.js';

/** The task kinds a route hands over, each with its input. */
export type LaneInput =
  | { kind: 'traces' | 'otlp-traces' | 'otlp-logs' | 'langfuse'; body: LaneBody }
  | { kind: 'queued-items'; items: Extract<LaneTask, { kind: 'queued-items' }>['items'] }
  | { kind: 'queued-messages'; spans: Extract<LaneTask, { kind: 'queued-messages' }>['spans'] }
  | { kind: 'langfuse-unended'; before: number; limit: number };

/** What the lane tells the rest of the process once a task is done. */
export interface LaneOutlets {
  counts(project: LlmProject, counts: LaneCounts): void;
  versions(changes: readonly PromptVersionChange[]): void;
  scores(scores: readonly ReceivedScore[]): void;
  /** Whether anyone listens on `llm.trace.persisted` (then stored traces come back with their JSON). */
  wantsTraces(): boolean;
  publish(trace: PersistedTrace): void;
  /** Once per task that stored anything: the dashboard's live event. */
  announce(project: LlmProject, stored: number): void;
}

export interface LaneOptions {
  /** The worker pool; null runs tasks on this thread (`sqlite::memory:`, which threads cannot share). */
  pool: WorkerPool<LaneTask, LaneResult> | null;
  inline?: (task: LaneTask) => Promise<LaneResult>;
  dispatch: FairDispatch;
  prices: () => Record<string, ModelPrice>;
  hooks: EvalHooks;
  outlets: LaneOutlets;
  log: Logger;
  now?: () => number;
  /** Trace trees' bounds; the defaults without it. */
  spans?: SpanBounds;
}

/** Parsing a trace's JSON for subscribers takes turns with traffic: this much at a time, then the event loop. */
const PUBLISH_SLICE_MS = 5;

/**
 * The LLM lane as the routes see it: a request's bytes go to a worker thread in the project's fair turn, and what
 * comes back is answered, counted, announced and handed to the eval hooks. The event loop never decodes, validates,
 * redacts or stores an item: its part per request is bounded by the answer and the references it gets back.
 */
export class LlmLane {
  private readonly now: () => number;

  constructor(private readonly options: LaneOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Runs the task; resolves to its result with an answer, or throws the HttpError its refusal stands for. */
  async run(project: LlmProject, input: LaneInput): Promise<LaneResult> {
    const ctx: LaneContext = {
      project: { id: project.id, name: project.name, source: project.source, settings: project.settings },
      prices: this.options.prices(), now: this.now(), withTraces: this.options.outlets.wantsTraces(),
      spans: this.options.spans ?? DEFAULT_SPAN_BOUNDS,
    };
    const task = { ...input, ctx } as LaneTask;
    const bytes = 'body' in input ? input.body.bytes.byteLength : 0;
    const result = await this.options.dispatch.submit(project.id, bytes, () => this.execute(task));
    await this.deliver(project, result);
    if (result.refusal) throw httpErrorOf(result.refusal);
    return result;
  }

  private async execute(task: LaneTask): Promise<LaneResult> {
    const { pool, inline } = this.options;
    try {
      if (!pool) return await inline!(task);
      return await pool.run(task, { transferList: transferable(task) });
    } catch (err) {
      // A thread that died (out of memory on a hostile body, say) costs this request, never the process.
      this.options.log.error('llm lane: a task failed in its worker thread', { kind: task.kind, project: task.ctx.project.name, err });
      throw httpError(LlmErrors.LANE_FAILED, 'the request could not be processed; send it again (its items are stored at most once)',
        { headers: { 'Retry-After': '1' } });
    }
  }

  private async deliver(project: LlmProject, result: LaneResult): Promise<void> {
    const { outlets, hooks, log } = this.options;
    outlets.counts(project, result.counts);
    if (result.deadReason) log.warn('llm lane: items could not be stored as they are', { project: project.name, reason: result.deadReason });
    if (result.versions.length) outlets.versions(result.versions);
    if (result.scores.length) outlets.scores(result.scores);
    if (result.stored.length) {
      await this.publish(result.stored);
      outlets.announce(project, result.stored.length);
      await hooks.run(result.stored.map(refOf));
    }
    if (result.updated.length) {
      // Traces published before and changed since (their messages from OTLP logs, late-messages.ts; a Langfuse update,
      // lane/langfuse-upserts.ts): again, as updates.
      const updates = result.updated.map((t): StoredTrace => {
        const { awaiting_messages: _, ...rest } = t;
        return { ...rest, update: true };
      });
      await this.publish(updates);
      await hooks.run(updates.map(refOf));
    }
  }

  /** Subscribers of `llm.trace.persisted` get each trace with its content, parsed in slices between other work. */
  private async publish(traces: readonly StoredTrace[]): Promise<void> {
    const { outlets } = this.options;
    if (!outlets.wantsTraces()) return;
    let slice = performance.now();
    for (const t of traces) {
      if (t.json === undefined) continue;
      const { json, ...ref } = t;
      outlets.publish({ ...ref, trace: JSON.parse(json) as Record<string, unknown> });
      if (performance.now() - slice > PUBLISH_SLICE_MS) {
        await new Promise((r) => setImmediate(r));
        slice = performance.now();
      }
    }
  }
}

const refOf = (t: StoredTrace) => {
  const { json: _, ...ref } = t;
  return ref;
};

/** The body's memory moves to the worker when it owns it whole; a slice of a shared pool is copied instead. */
function transferable(task: LaneTask): ArrayBuffer[] {
  if (!('body' in task)) return [];
  const bytes = task.body.bytes;
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return [bytes.buffer];
  task.body.bytes = new Uint8Array(bytes);
  return [task.body.bytes.buffer as ArrayBuffer];
}
