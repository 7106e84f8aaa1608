import type { Logger, PluginContext } from '@vigil/plugin-sdk';
import type { LlmLane } from './lane/llm-lane.js';
import { countUnended, projectsWithUnended } from './langfuse-state.js';
import type { LlmProject } from './types.js';

/** Projects one sweep visits, and generations it stores per project: the rest waits for the next sweep. */
export const SWEEP_PROJECTS = 100;
export const SWEEP_PER_PROJECT = 500;
/** The /metrics gauge of waiting un-ended generations counts up to this, so its query stays bounded. */
export const WAITING_COUNT_CAP = 100_000;

/** How often the sweep runs for an idle bound: half of it, within 250 ms and 10 s. */
export const sweepIntervalMs = (unendedAfterMs: number): number => Math.min(10_000, Math.max(250, Math.floor(unendedAfterMs / 2)));

export interface UnendedSweep {
  lane: LlmLane;
  projects: { byId(id: string): Promise<LlmProject | undefined> };
  unendedAfterMs: () => number;
  /** The number of generations waiting for their end (or for the sweep), up to WAITING_COUNT_CAP. */
  waiting(n: number): void;
  log: Logger;
}

/**
 * The sweep that stores Langfuse generations never ended (langfuse/unended.ts): every `sweepIntervalMs`, in one
 * process at a time among those sharing the store (a scheduled job), it finds the projects with generations no event
 * touched for `llm.langfuse.unended_after` and hands each project's oldest `SWEEP_PER_PROJECT` to the LLM lane, in
 * the project's fair turn, where they are redacted and stored off the event loop. Memory per sweep is bounded by
 * those two caps; what is left waits for the next sweep, and `vigil_llm_langfuse_unended_waiting` shows it.
 */
export function scheduleUnendedSweep(ctx: PluginContext, sweep: UnendedSweep, intervalMs: number): void {
  ctx.jobs.every('langfuse-unended', intervalMs, async () => {
    const before = Date.now() - sweep.unendedAfterMs();
    for (const id of await projectsWithUnended(ctx.store, before, SWEEP_PROJECTS)) {
      const project = await sweep.projects.byId(id);
      // A deleted project's state goes with the state's retention.
      if (!project) continue;
      try {
        await sweep.lane.run(project, { kind: 'langfuse-unended', before, limit: SWEEP_PER_PROJECT });
      } catch (err) {
        // A month past its item limit refuses them for good (as any item past it); a store that failed, only for now.
        sweep.log.warn('llm: Langfuse generations never ended were refused by the lane', { project: project.name, err });
      }
    }
    sweep.waiting(await countUnended(ctx.store, WAITING_COUNT_CAP));
  });
}
