import type { JobQueue, PersistedTrace } from '@vigil/plugin-sdk';
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
 * sample picks it, one job in the durable queue. The dedupe key keeps one open job per (definition, trace).
 */
export class EvalEnqueuer {
  constructor(private readonly definitions: Pick<DefinitionStore, 'cached'>, private readonly queue: JobQueue<EvalJobPayload>, private readonly counters: EnqueueCounters) {}

  /** The `llm` service's onPersisted hook. */
  async onPersisted(traces: readonly PersistedTrace[]): Promise<void> {
    const byProject = new Map<string, PersistedTrace[]>();
    for (const t of traces) {
      const list = byProject.get(t.project_id);
      if (list) list.push(t); else byProject.set(t.project_id, [t]);
    }
    const jobs: EvalJobPayload[] = [];
    let skipped = 0;
    for (const [projectId, list] of byProject) {
      const defs = await this.definitions.cached(projectId);
      for (const def of defs) {
        for (const t of list) {
          if (!inScope(def, t)) continue;
          if (sampled(def.id, t.id, def.sample_rate)) jobs.push({ p: projectId, d: def.id, t: t.id });
          else skipped++;
        }
      }
    }
    if (skipped) this.counters.sampledOut(skipped);
    await this.enqueueAll(jobs);
  }

  /** One job per trace for this definition, sampling aside (a re-run). Resolves to the jobs enqueued. */
  async rerun(definition: EvalDefinition, traces: readonly PersistedTrace[]): Promise<number> {
    return this.enqueueAll(traces.filter((t) => inScope(definition, t)).map((t) => ({ p: definition.project_id, d: definition.id, t: t.id })));
  }

  /** In multi-row inserts: the persist stage waits for this hook, so a batch's jobs cost a few round trips, not one each. */
  private async enqueueAll(jobs: EvalJobPayload[]): Promise<number> {
    const done = await this.queue.enqueueMany(jobs.map((j) => ({ payload: j, options: { dedupeKey: `${j.p}:${j.d}:${j.t}` } })));
    if (done) this.counters.enqueued(done);
    return done;
  }
}
