import type { Logger, RetentionHook } from '@vigil/plugin-sdk';

/**
 * Other plugins' part of retention (`onRetention` of the `llm` service): data they keep about traces (eval results,
 * scores sent with traces) goes when its traces go, and with its project. Run after the traces' own deletion; a
 * hook's failure is logged and the next run tries again (the cutoffs only move forward).
 */
export class RetentionHooks {
  private readonly hooks = new Set<RetentionHook>();

  constructor(private readonly log: Logger) {}

  add(hook: RetentionHook): () => void {
    this.hooks.add(hook);
    return () => { this.hooks.delete(hook); };
  }

  async run(sweep: Parameters<RetentionHook>[0]): Promise<void> {
    for (const hook of this.hooks) {
      try {
        await hook(sweep);
      } catch (err) {
        this.log.error('retention: a plugin\'s retention hook failed; its expired data stays until the next run', { err });
      }
    }
  }
}
