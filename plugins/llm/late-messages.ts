import type { PersistedTrace } from '@vigil/plugin-sdk';
import type { EvalHooks } from './eval-hooks.js';
import type { QueuedItem } from './ingest-pipeline.js';

const empty = (v: unknown): boolean => v === undefined || v === null;

/** An item mapped from an OTLP span (metadata.otel carries its span id): its messages may come on OTLP logs. */
const fromOtlpSpan = (item: QueuedItem): boolean => typeof (item.metadata?.otel as { span_id?: unknown } | undefined)?.span_id === 'string';

/**
 * Whether a trace just stored may still get messages from OTLP logs: it came from an OTLP span and a side is still
 * empty. The flag (`awaiting_messages`) lets the evaluators wait a grace before evaluating it; a span whose
 * instrumentation sends no content at all is flagged too, and is then evaluated after that grace, once.
 */
export const awaitsMessages = (item: QueuedItem, trace: Record<string, unknown>): boolean =>
  fromOtlpSpan(item) && (empty(trace.input) || empty(trace.output));

/**
 * Stored traces that their late messages changed (the logs came after the span was stored): published again on
 * `llm.trace.persisted` with `update`, and handed to the eval hooks again, so an eval that already ran is redone on
 * the complete trace. Why again rather than holding the first publication back: the persist stage cannot know
 * whether logs will ever come (an instrumentation without content capture sends none), and holding traces in the
 * persist stage would delay every subscriber. The evaluators make the second hand-over cheap: an eval job still
 * waiting (its grace, or its rate slot) holds the (definition, trace) dedupe key, so the update adds nothing and
 * that job reads the complete trace when it runs; only an eval that already ran is run again, and its result
 * replaces the first. The dashboard's live event is not sent again: it counts stored traces, and the list reloads
 * rows, so an update would only count a trace twice.
 * A process that dies between moving the messages in and this call loses the update (a retried job finds the
 * messages already moved): the trace is stored complete, and only an eval that already ran keeps its first result.
 */
export async function publishUpdates(traces: readonly PersistedTrace[], publish: (t: PersistedTrace) => void, hooks: EvalHooks): Promise<void> {
  if (!traces.length) return;
  const updates = traces.map((t): PersistedTrace => {
    const { awaiting_messages: _, ...rest } = t;
    return { ...rest, update: true };
  });
  for (const t of updates) publish(t);
  await hooks.run(updates);
}
