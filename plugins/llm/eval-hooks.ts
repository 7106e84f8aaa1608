import type { EvalEnqueueHook, Logger, PersistedTraceRef } from '@vigil/plugin-sdk';

/**
 * The eval-job enqueue hook: a registry other plugins fill through the `llm` service (`onPersisted`). Empty until the
 * evaluators plugin exists. A hook's failure is logged and counted and never fails the batch: its rows are stored,
 * and retrying the batch would not hand them to the hook again.
 */
export class EvalHooks {
  private readonly hooks = new Set<EvalEnqueueHook>();

  constructor(private readonly log: Logger, private readonly onFailure: () => void) {}

  add(hook: EvalEnqueueHook): () => void {
    this.hooks.add(hook);
    return () => { this.hooks.delete(hook); };
  }

  async run(traces: readonly PersistedTraceRef[]): Promise<void> {
    for (const hook of this.hooks) {
      try {
        await hook(traces);
      } catch (err) {
        this.onFailure();
        this.log.error('persist: an eval enqueue hook failed; these traces get no eval jobs from it', { traces: traces.length, err });
      }
    }
  }
}
