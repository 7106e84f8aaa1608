import { isPermanent, JobDeferral, type EvalResultEvent, type LlmService, type Logger, type PersistedTrace, type QueuedJob } from '@vigil/plugin-sdk';
import type { DefinitionStore } from './definitions.js';
import type { RateLimiter } from './rate-limit.js';
import type { ResultStore, StoredResult } from './results-store.js';
import type { EvalDefinition, EvalOutcome } from './types.js';

/** A queued eval: project, definition and trace ids, and the rate slot it holds once it reserved one. */
export interface EvalJobPayload {
  p: string;
  d: string;
  t: string;
  /** Epoch ms of the reserved start, valid for the attempt that reserved it (a retry reserves again). */
  slot?: number;
  slot_attempt?: number;
}

/** A slot this close is waited for in the handler; a later one puts the job back in the queue until then. */
const MAX_SLEEP_MS = 2_000;

export interface EvalJobDeps {
  llm: Pick<LlmService, 'trace'>;
  definitions: Pick<DefinitionStore, 'cached'>;
  results: Pick<ResultStore, 'write'>;
  rate: Pick<RateLimiter, 'reserve'>;
  evaluate(definition: EvalDefinition, trace: PersistedTrace): Promise<EvalOutcome>;
  /** Readies what the evaluation needs (the embedder) before its latency is measured; optional. */
  prepare?(definition: EvalDefinition): Promise<void>;
  maxAttempts: number;
  publish(event: EvalResultEvent): void;
  log: Logger;
  counters: { result(type: string, status: string): void; deferred(): void };
  now?: () => number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The eval queue's handler. First the project's rate: the job reserves a start slot once per attempt and waits for
 * it (in the handler when it is near, else deferred in the queue, spending no attempt). Then it evaluates and stores
 * the result. A provider failure is thrown for the queue to retry (its Retry-After honoured) until the last attempt,
 * which stores a failed result instead, so no eval stays pending for ever. A definition or trace deleted meanwhile
 * ends the job without a result (a definition changed or deleted in another process, within 5 s).
 */
export class EvalJobs {
  private readonly now: () => number;

  constructor(private readonly deps: EvalJobDeps) {
    this.now = deps.now ?? Date.now;
  }

  async run(job: QueuedJob<EvalJobPayload>): Promise<void> {
    const p = job.payload;
    let slot = p.slot_attempt === job.attempt ? p.slot : undefined;
    if (slot === undefined) slot = await this.deps.rate.reserve(p.p);
    const wait = slot - this.now();
    if (wait > MAX_SLEEP_MS) {
      this.deps.counters.deferred();
      throw new JobDeferral(wait, { payload: { ...p, slot, slot_attempt: job.attempt }, reason: 'waiting for the project\'s eval rate' });
    }
    if (wait > 0) await sleep(wait);

    // The project's list as the enqueue hook reads it (cached 5 s): one query less per eval.
    const definition = (await this.deps.definitions.cached(p.p)).find((d) => d.id === p.d);
    if (!definition) return;
    const trace = await this.deps.llm.trace(p.p, p.t);
    if (!trace) return;
    // A first similarity eval waits for the embedder here, outside its latency.
    await this.deps.prepare?.(definition);
    const started = performance.now();
    let outcome: EvalOutcome;
    try {
      outcome = await this.deps.evaluate(definition, trace);
    } catch (err) {
      if (job.attempt < this.deps.maxAttempts && !isPermanent(err)) throw err;
      outcome = {
        status: 'failed', score: null, method: definition.type === 'semantic_similarity' ? 'none' : definition.type, model: null,
        tokens_in: 0, tokens_out: 0, usd: null,
        reason: `${(err as Error).message} (attempt ${job.attempt} of ${this.deps.maxAttempts}: given up)`, details: { kind: 'gave_up', attempts: job.attempt },
      };
    }
    if (await this.completedMeanwhile(p, trace)) {
      throw new JobDeferral(0, { payload: { ...p, slot, slot_attempt: job.attempt }, reason: 'the trace changed while it was evaluated (its messages arrived, or its Langfuse generation was updated)' });
    }
    await this.record(definition, trace, outcome, performance.now() - started);
  }

  /**
   * Whether a trace read without its input or output has them now (its messages came on OTLP logs while it was
   * evaluated), or one read `incomplete` (a Langfuse generation stored before it ended) has changed since. Their
   * update found this job open (the dedupe key) and enqueued nothing, so this job runs again, in its slot, on the
   * final trace, instead of storing a result of the incomplete one. A complete trace with both sides costs no read.
   */
  private async completedMeanwhile(p: EvalJobPayload, read: PersistedTrace): Promise<boolean> {
    const lacks = (t: PersistedTrace) => ['input', 'output'].filter((side) => t.trace[side] === undefined || t.trace[side] === null).length;
    const missing = lacks(read);
    const incomplete = read.trace.incomplete !== undefined;
    if (!missing && !incomplete) return false;
    const now = await this.deps.llm.trace(p.p, p.t);
    if (now === undefined) return false;
    return lacks(now) < missing || (incomplete && JSON.stringify(now.trace) !== JSON.stringify(read.trace));
  }

  /** Stores an outcome and publishes it; also used by re-runs and tests that evaluate outside the queue. */
  async record(definition: EvalDefinition, trace: PersistedTrace, outcome: EvalOutcome, latencyMs: number): Promise<StoredResult | undefined> {
    const stored = await this.deps.results.write({
      ...outcome, project_id: definition.project_id, definition_id: definition.id, trace_id: trace.id, trace_created_at: trace.created_at,
      template: trace.template, version: trace.version, latency_ms: Math.round(latencyMs * 1000) / 1000, created_at: this.now(),
    });
    // The definition was deleted while it evaluated: its results went with it, and this one is not kept or told.
    if (stored === undefined) return undefined;
    this.deps.counters.result(definition.type, outcome.status);
    this.deps.publish({
      id: stored.id, eval_definition_id: definition.id, eval_definition_name: definition.name, eval_type: definition.type, trace_id: trace.id,
      project_id: definition.project_id, score: outcome.score, status: outcome.status, reason: outcome.reason, method: outcome.method,
      cost: { tokens_in: outcome.tokens_in, tokens_out: outcome.tokens_out, usd: outcome.usd }, latency_ms: stored.latency_ms,
      created_at: stored.created_at, template: trace.template, version: trace.version, trace_created_at: trace.created_at,
    });
    return stored;
  }
}
