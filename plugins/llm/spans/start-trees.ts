import { projectNotFound } from '../errors.js';
import type { PluginContext } from '@vigil/plugin-sdk';
import type { ProjectStore } from '../project-store.js';
import type { LlmConfig } from '../types.js';
import { spanBoundsOf } from './span-bounds.js';
import { deleteExpiredTrees, expireHeldSpans } from './span-retention.js';
import type { SpanCounts } from './span-store.js';
import { registerTreeRoutes } from './tree-routes.js';

/** How often held spans past their hold are deleted: the hold is kept to within this. */
export const HOLD_SWEEP_MS = 60_000;

/**
 * Trace trees in the plugin: the tree routes, the span metrics, the sweep of held spans (every minute, so a span is
 * held at most `llm.spans.hold` + 1 min) and the trees' retention (with the traces').
 */
export function registerTraceTrees(ctx: PluginContext, config: LlmConfig, projects: ProjectStore) {
  const bounds = spanBoundsOf(config.spans);
  const stored = ctx.metrics.counter('spans_stored_total', { help: 'Spans of trace trees stored (new ones; a span sent again is not counted).' });
  const dropped = ctx.metrics.counter('spans_dropped_total', {
    help: 'Spans of trace trees dropped, by reason: trace_limit (past llm.spans.max_per_trace), hold_full (a project\'s held spans past llm.spans.hold_max_spans), no_llm_call (held past llm.spans.hold: their trace got no LLM call).',
    labelNames: ['reason'],
  });
  registerTreeRoutes(ctx.http, ctx.store, async (rc) => {
    const row = await projects.get(rc.params.project);
    if (!row) throw projectNotFound(rc.params.project);
    return row.id;
  });
  return {
    count(c: SpanCounts) {
      if (c.stored) stored.inc(c.stored);
      if (c.droppedTraceLimit) dropped.labels('trace_limit').inc(c.droppedTraceLimit);
      if (c.droppedHoldFull) dropped.labels('hold_full').inc(c.droppedHoldFull);
    },
    start() {
      ctx.jobs.every('span-hold', HOLD_SWEEP_MS, async () => {
        const n = await expireHeldSpans(ctx.store, bounds.holdMs);
        if (n) dropped.labels('no_llm_call').inc(n);
      });
    },
    async retention(projectsKept: readonly { id: string; retentionMs: number }[], at: number) {
      await deleteExpiredTrees(ctx.store, projectsKept, at);
    },
  };
}
