import type { JobQueue, PersistedTraceRef } from '@vigil/plugin-sdk';
import type { DefinitionStore } from './definitions.js';
import type { EvalJobPayload } from './eval-job.js';
import { inScope } from './evaluate.js';
import { sampled } from './sampling.js';
import type { EvalDefinition } from './types.js';

export interface EnqueueCounters {
  enqueued(n: number): void;
  sampledOut(n: number): void;
}

/**
 * Turns persisted traces into eval jobs: for each definition of the trace's project whose scope covers it and whose
 * sample picks it, one job in the durable queue, in the project's group (claims take projects in turn). The dedupe
 * key keeps one open job per (definition, trace).
 *
 * A trace stored from an OTLP span without its messages (`awaiting_messages`) gets its jobs due after `graceMs`: its
 * logs usually follow within seconds, and the job reads the trace from the store when it runs, so it evaluates the
 * complete trace, once. Its messages arriving come back here as an `update`: while the job waits, its dedupe key
 * makes that a no-op (no second eval, no second rate slot); once it has run, a new job redoes the eval and its result
 * replaces the first (results are unique per definition and trace). Messages that never come: the one job runs after
 * the grace. Sampling is by (definition, trace) ids, so an update picks what the first hand-over picked.
 */
export class EvalEnqueuer {
  constructor(
    private readonly definitions: Pick<DefinitionStore, 'cached'>, private readonly queue: JobQueue<EvalJobPayload>, private readonly counters: EnqueueCounters,
    private readonly graceMs: () => number = () => 0, private readonly now: () => number = Date.now,
  ) {}

  /** The `llm` service's onPersisted hook. */
  async onPersisted(traces: readonly PersistedTraceRef[]): Promise<void> {
    const byProject = new Map<string, PersistedTraceRef[]>();
    for (const t of traces) {
      const list = byProject.get(t.project_id);
      if (list) list.push(t); else byProject.set(t.project_id, [t]);
    }
    const jobs: EvalJobPayload[] = [];
    const dueAt = new Map<EvalJobPayload, number>();
    const later = this.now() + this.graceMs();
    let skipped = 0;
    for (const [projectId, list] of byProject) {
      const defs = await this.definitions.cached(projectId);
      for (const def of defs) {
        for (const t of list) {
          if (!inScope(def, t)) continue;
          if (sampled(def.id, t.id, def.sample_rate)) {
            const job = { p: projectId, d: def.id, t: t.id };
            jobs.push(job);
            if (t.awaiting_messages) dueAt.set(job, later);
          } else if (!t.update) skipped++;
        }
      }
    }
    if (skipped) this.counters.sampledOut(skipped);
    await this.enqueueAll(jobs, dueAt);
  }

  /** One job per trace for this definition, sampling aside (a re-run). Resolves to the jobs enqueued. */
  async rerun(definition: EvalDefinition, traces: readonly PersistedTraceRef[]): Promise<number> {
    return this.enqueueAll(traces.filter((t) => inScope(definition, t)).map((t) => ({ p: definition.project_id, d: definition.id, t: t.id })));
  }

  /** In multi-row inserts: the persist stage waits for this hook, so a batch's jobs cost a few round trips, not one each. */
  private async enqueueAll(jobs: EvalJobPayload[], dueAt?: Map<EvalJobPayload, number>): Promise<number> {
    const done = await this.queue.enqueueMany(jobs.map((j) => {
      const runAt = dueAt?.get(j);
      // The project is the queue's fairness group: one project's backlog cannot hold another's evals behind it.
      return { payload: j, options: { dedupeKey: `${j.p}:${j.d}:${j.t}`, group: j.p, ...(runAt === undefined ? {} : { runAt }) } };
    }));
    if (done) this.counters.enqueued(done);
    return done;
  }
}
