import { parseDuration, type PluginContext } from '@vigil/plugin-sdk';
import type { SpanMessages } from '../otlp/genai-log-events.js';
import type { QueuedItem } from '../queued-item.js';
import type { LlmConfig, LlmProject } from '../types.js';
import type { LlmLane } from './llm-lane.js';

/** A job an earlier version left in `llm.persist`: a batch of accepted items, or the messages of OTLP logs. */
type LegacyPayload = { kind?: undefined; project: string; items: QueuedItem[] } | { kind: 'messages'; project: string; spans: SpanMessages[] };

/**
 * Versions before the lane answered 202 once items were in a durable queue, and stored them later. Jobs such a
 * version left behind (its process stopped with some queued) are stored by the lane like any request, when a
 * process starts: each was answered 202, so none may be lost. Nothing new is ever queued.
 */
export function drainLegacyQueue(ctx: PluginContext, config: LlmConfig, lane: LlmLane, project: (id: string) => Promise<LlmProject | undefined>, gone: () => { inc(n: number): void }): void {
  ctx.jobs.queue<LegacyPayload>('persist', async (job) => {
    const p = await project(job.payload.project);
    if (!p) { gone().inc(job.payload.kind === 'messages' ? 0 : job.payload.items.length); return; }
    await (job.payload.kind === 'messages'
      ? lane.run(p, { kind: 'queued-messages', spans: job.payload.spans })
      : lane.run(p, { kind: 'queued-items', items: job.payload.items }));
  }, {
    concurrency: 1,
    maxAttempts: config.persist.max_attempts,
    backoffMs: parseDuration(config.persist.backoff),
    timeoutMs: parseDuration(config.persist.timeout),
    pollMs: 5_000,
    // Their items are not redacted: their copy in the queue goes once they are stored.
    dropPayloadWhenDone: true,
  });
}
